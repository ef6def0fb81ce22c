package server

import (
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// TestLegacyRequiredTaskToolIsMissingCapabilityWhateverInitializeDeclared:
// tasks are a 2026-07-28 extension a legacy session never uses
// (declaresTasks), so a tool that requires them is -32021 naming the
// extension there, also when the session's initialize declared
// capabilities.extensions["io.modelcontextprotocol/tasks"]: not a
// response without a result (-32603), and a tool with optional support
// runs in the request.
func TestLegacyRequiredTaskToolIsMissingCapabilityWhateverInitializeDeclared(t *testing.T) {
	for _, caps := range []string{`{}`, `{"extensions":{"` + TasksExtension + `":{}}}`} {
		s := newTaskServer(t)
		p := startLegacyStdio(t, s)
		p.initialize("2025-11-25", caps)
		p.call("1", "tools/call", `{"name":"tool_error","arguments":{}}`)
		m, line := p.response("1")
		e, _ := m["error"].(map[string]any)
		if e == nil || e["code"] != float64(mcp.CodeMissingRequiredClientCapability) || !strings.Contains(line, `"requiredCapabilities":{"extensions":{"`+TasksExtension+`":{}}}`) {
			t.Errorf("initialize capabilities %s: required tool answered %s, want -32021 naming the tasks extension", caps, line)
		}
		p.call("2", "tools/call", `{"name":"sleeper","arguments":{"ms":0}}`)
		m, _ = p.response("2")
		if text := lgText(t, resultOf(t, m)); text != "slept 0 ms" {
			t.Errorf("initialize capabilities %s: optional tool answered %q", caps, text)
		}
		if n := s.tasks.len(); n != 0 {
			t.Errorf("initialize capabilities %s: %d tasks made in a legacy session", caps, n)
		}
	}
}
