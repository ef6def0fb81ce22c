package schema

import (
	"strings"
	"testing"
)

// TestUnmatchedOverrideIsAnError: an entry that matches nothing in the
// revision the table is written for is reported, not silently skipped.
func TestUnmatchedOverrideIsAnError(t *testing.T) {
	data := []byte(`{"$defs":{"A":{"type":"object","properties":{"x":{"type":"string"}}}}}`)
	ov := &Overrides{Raw: map[string]bool{"#/$defs/Renamed/properties/x": true}}
	_, err := LoadBytes("s.json", data, Options{Version: "2030-01-01", Overrides: ov})
	if err == nil || !strings.Contains(err.Error(), `override Raw["#/$defs/Renamed/properties/x"] matches nothing`) {
		t.Fatalf("err = %v", err)
	}
	ov.Raw = map[string]bool{"#/$defs/A/properties/x": true}
	m, err := LoadBytes("s.json", data, Options{Version: "2030-01-01", Overrides: ov})
	if err != nil || !m.Type("A").Fields[0].Type.Raw {
		t.Fatalf("matching override: %v", err)
	}
	// A table written for another revision skips what it has nothing for.
	ov.Revision, ov.Raw = "2031-01-01", map[string]bool{"#/$defs/Gone/properties/x": true}
	if _, err := LoadBytes("s.json", data, Options{Version: "2030-01-01", Overrides: ov}); err != nil {
		t.Fatalf("older revision: %v", err)
	}
}

// TestMessagesRecognisedStructurally: what makes a notification is the
// direction union that lists it, or having no id — not its name.
func TestMessagesRecognisedStructurally(t *testing.T) {
	data := []byte(`{"$defs":{
		"Ping":{"type":"object","properties":{"jsonrpc":{"const":"2.0","type":"string"},"id":{"type":"string"},"method":{"const":"ping","type":"string"}},"required":["jsonrpc","id","method"]},
		"Changed":{"type":"object","properties":{"jsonrpc":{"const":"2.0","type":"string"},"method":{"const":"things/changed","type":"string"}},"required":["jsonrpc","method"]},
		"ShoutNotification":{"type":"object","properties":{"jsonrpc":{"const":"2.0","type":"string"},"id":{"type":"string"},"method":{"const":"shout","type":"string"}},"required":["jsonrpc","id","method"]},
		"EmptyResult":{"type":"object","properties":{}}
	}}`)
	m, err := LoadBytes("s.json", data, Options{Version: "2030-01-01", Overrides: &Overrides{}})
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	for _, md := range m.Requests {
		kinds[md.Name] = false
	}
	for _, md := range m.Notifications {
		kinds[md.Name] = true
	}
	if n, ok := kinds["things/changed"]; !ok || !n {
		t.Errorf("things/changed (no id) is not a notification: %v", kinds)
	}
	if n, ok := kinds["shout"]; !ok || n {
		t.Errorf("shout (has an id, named …Notification) is not a request: %v", kinds)
	}
}
