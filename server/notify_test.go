package server

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestProgressOnlyWithToken(t *testing.T) {
	f := newFixture(t)
	w := newRecorder()
	rpcMeta(t, f.s, "tools/call", `{"name":"progress"}`, defaultMeta, w)
	if n := len(w.all()); n != 0 {
		t.Errorf("progress without token: %d notifications", n)
	}
	w = newRecorder()
	meta := `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":"progress-test-1"}`
	r, _ := rpcMeta(t, f.s, "tools/call", `{"name":"progress"}`, meta, w)
	wantResult(t, r)
	notes := w.all()
	if len(notes) != 3 {
		t.Fatalf("want 3 progress notifications, got %v", notes)
	}
	last := -1.0
	for _, n := range notes {
		var p struct {
			ProgressToken any     `json:"progressToken"`
			Progress      float64 `json:"progress"`
			Total         float64 `json:"total"`
			Message       string  `json:"message"`
		}
		if err := json.Unmarshal(n.Params, &p); err != nil || n.Method != "notifications/progress" {
			t.Fatalf("%s %s: %v", n.Method, n.Params, err)
		}
		if p.ProgressToken != "progress-test-1" || p.Progress < last || p.Total != 100 || p.Message == "" {
			t.Errorf("progress %s", n.Params)
		}
		last = p.Progress
	}
	// An integer token is echoed as an integer.
	w = newRecorder()
	meta = `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":42}`
	rpcMeta(t, f.s, "tools/call", `{"name":"progress"}`, meta, w)
	if notes := w.all(); len(notes) == 0 || !strings.HasPrefix(string(notes[0].Params), `{"progressToken":42,`) {
		t.Errorf("integer token: %v", notes)
	}
}

func TestLogOnlyWithLogLevel(t *testing.T) {
	f := newFixture(t)
	w := newRecorder()
	rpcMeta(t, f.s, "tools/call", `{"name":"logs"}`, defaultMeta, w)
	if n := len(w.all()); n != 0 {
		t.Errorf("logs without logLevel: %v", w.all())
	}
	w = newRecorder()
	meta := `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"info"}`
	rpcMeta(t, f.s, "tools/call", `{"name":"logs"}`, meta, w)
	notes := w.all()
	if len(notes) != 2 {
		t.Fatalf("want info and error logs, got %v", notes)
	}
	for _, n := range notes {
		if n.Method != "notifications/message" || !strings.Contains(string(n.Params), `"logger":"fixture"`) || strings.Contains(string(n.Params), "debug") {
			t.Errorf("log %s %s", n.Method, n.Params)
		}
	}
}

func TestRequireCapabilities(t *testing.T) {
	f := newFixture(t)
	r := rpc(t, f.s, "tools/call", `{"name":"needs_sampling","arguments":{}}`)
	wantError(t, r, -32021)
	var data struct {
		RequiredCapabilities map[string]json.RawMessage `json:"requiredCapabilities"`
	}
	if err := json.Unmarshal(r.Error.Data, &data); err != nil || string(data.RequiredCapabilities["sampling"]) != "{}" {
		t.Errorf("data %s", r.Error.Data)
	}
	r, _ = rpcMeta(t, f.s, "tools/call", `{"name":"needs_sampling"}`, fullCapsMeta, nil)
	if text, _ := callText(t, r); text != "sampling available" {
		t.Errorf("with sampling: %q", text)
	}
	// Capabilities come from this request only.
	wantError(t, rpc(t, f.s, "tools/call", `{"name":"needs_sampling"}`), -32021)
}
