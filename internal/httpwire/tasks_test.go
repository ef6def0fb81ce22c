package httpwire

import "testing"

// The tasks extension (SEP-2663, "Streamable HTTP: Routing Headers"):
// tasks/get, tasks/update and tasks/cancel carry Mcp-Name: <taskId>.
func TestTasksMcpNameMirrorsTaskID(t *testing.T) {
	for _, m := range []string{"tasks/get", "tasks/update", "tasks/cancel"} {
		if field, ok := NameField(m); !ok || field != "taskId" {
			t.Errorf("NameField(%q) = %q, %v; want taskId, true", m, field, ok)
		}
		f, err := factsFromBody([]byte(`{"jsonrpc":"2.0","id":1,"method":"` + m + `","params":{"taskId":"t-1","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`))
		if err != nil || !f.HasName || f.Name != "t-1" {
			t.Errorf("%s facts %+v, %v", m, f, err)
		}
		if rej := defaultRules.Check(std(m, "Mcp-Name", "t-1"), f); rej != nil {
			t.Errorf("%s matching Mcp-Name rejected: %+v", m, rej)
		}
		for _, h := range [][]string{{"Mcp-Name", "other"}, nil} {
			rej := defaultRules.Check(std(m, h...), f)
			if rej == nil || rej.Code != CodeHeaderMismatch || rej.Status != 400 {
				t.Errorf("%s with Mcp-Name %v: %+v, want 400 -32020", m, h, rej)
			}
		}
	}
	// Removed methods and a body without a taskId need no Mcp-Name.
	for _, m := range []string{"tasks/result", "tasks/list"} {
		if _, ok := NameField(m); ok {
			t.Errorf("NameField(%q) names a field", m)
		}
	}
	f, _ := factsFromBody([]byte(`{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"taskId":7}}`))
	if f.HasName {
		t.Errorf("non-string taskId read as a name: %+v", f)
	}
}
