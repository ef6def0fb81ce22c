package schema

import (
	"fmt"
	"strings"
	"testing"
)

// overrideSchema has a request whose params and result are reached by
// method and path, through a $ref, a union and an array.
const overrideSchema = `{"$defs":{
	"Get":{"type":"object","properties":{"jsonrpc":{"const":"2.0","type":"string"},"id":{"type":"string"},"method":{"const":"things/get","type":"string"},"params":{"$ref":"#/$defs/GetParams"}},"required":["jsonrpc","id","method"]},
	"GetParams":{"type":"object","properties":{"args":{"type":"object"}}},
	"GetReply":{"description":"Answers {@link Get | things/get}.","type":"object","properties":{"jsonrpc":{"const":"2.0","type":"string"},"id":{"type":"string"},"result":{"anyOf":[{"$ref":"#/$defs/%s"},{"$ref":"#/$defs/Later"}]}},"required":["jsonrpc","id","result"]},
	"%s":{"type":"object","properties":{"items":{"type":"array","items":{"$ref":"#/$defs/Item"}}},"required":["items"]},
	"Later":{"type":"object","properties":{"ticket":{"type":"string"}},"required":["ticket"]},
	"Item":{"type":"object","properties":{"schema":{"type":"object","properties":{"type":{"type":"string"}}},"size":{"type":"integer"}},"required":["size"]}
}}`

// TestOverridesByMethodAndMember: entries name a member by method and
// path, so they keep applying when the definitions on the way are renamed;
// an entry that reaches nothing is an error.
func TestOverridesByMethodAndMember(t *testing.T) {
	ov := &Overrides{
		Names:   map[Place]string{{"things/get", "result"}: "GetOutcome"},
		Raw:     map[Place]bool{{"things/get", "params.args"}: true, {"things/get", "result.items[].schema"}: true},
		Relaxed: map[Place]string{{"things/get", "result.items[].size"}: "examples omit it"},
	}
	for _, found := range []string{"Found", "RenamedFound"} {
		data := []byte(fmt.Sprintf(overrideSchema, found, found))
		m, err := LoadBytes("s.json", data, Options{Version: "2030-01-01", Overrides: ov})
		if err != nil {
			t.Fatalf("%s: %v", found, err)
		}
		if u := m.Type("GetOutcome"); u == nil || u.Kind != KindUnion || m.Requests[0].Result != u {
			t.Errorf("%s: the result union is not named GetOutcome: %v", found, m.Requests[0].Result)
		}
		if f := field(m.Type("GetParams"), "args"); !f.Type.Raw {
			t.Errorf("%s: params.args is not raw", found)
		}
		item := m.Type("Item")
		if f := field(item, "schema"); !f.Type.Raw || f.Type.RawKind != "object" {
			t.Errorf("%s: items[].schema is not a raw object: %+v", found, f.Type)
		}
		if f := field(item, "size"); f.Required || f.Relaxed != "examples omit it" {
			t.Errorf("%s: items[].size is not relaxed", found)
		}
	}
	data := []byte(fmt.Sprintf(overrideSchema, "Found", "Found"))
	for _, bad := range []Place{{"things/gone", "params.args"}, {"things/get", "params.nothing"}, {"things/get", "result.items.size"}, {"things/get", "result.ticket[]"}} {
		ov := &Overrides{Raw: map[Place]bool{bad: true}}
		_, err := LoadBytes("s.json", data, Options{Version: "2030-01-01", Overrides: ov})
		if want := fmt.Sprintf("override Raw[%q] matches nothing", bad.String()); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v: err = %v, want %q", bad, err, want)
		}
	}
	// Naming a member that is a definition, not an inline schema, renames nothing.
	ov = &Overrides{Names: map[Place]string{{"things/get", "result.items[]"}: "X"}}
	if _, err := LoadBytes("s.json", data, Options{Version: "2030-01-01", Overrides: ov}); err == nil {
		t.Error("a Names entry on a $ref member matched")
	}
	// A table written for another revision skips what it has nothing for.
	ov = &Overrides{Revision: "2031-01-01", Raw: map[Place]bool{{"things/gone", "params.x"}: true}}
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
