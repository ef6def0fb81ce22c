package schema_test

import (
	"testing"

	"github.com/mcpgen/mcpgen/internal/specdir"
	"github.com/mcpgen/mcpgen/schema"
)

// TestLoadSpecRevisions loads every revision of the spec and checks what
// each must have: its version, types, methods paired with params and
// results, and the JSON-RPC error codes.
func TestLoadSpecRevisions(t *testing.T) {
	for _, v := range []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"} {
		t.Run(v, func(t *testing.T) {
			m, err := schema.Load(specdir.Schema(t, v), schema.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if m.Version != v {
				t.Errorf("Version = %q", m.Version)
			}
			if len(m.Types) < 50 || len(m.Requests) < 8 || len(m.Notifications) < 4 {
				t.Errorf("%d types, %d requests, %d notifications", len(m.Types), len(m.Requests), len(m.Notifications))
			}
			byName := map[string]*schema.Method{}
			for _, md := range m.Requests {
				byName[md.Name] = md
				if md.Result == nil {
					t.Errorf("request %s has no result", md.Name)
				}
				if !md.FromClient && !md.FromServer {
					t.Errorf("request %s has no sender", md.Name)
				}
			}
			call := byName["tools/call"]
			if call == nil || call.Type.Name != "CallToolRequest" || call.Params == nil || call.Params.Name != "CallToolRequestParams" || !call.FromClient {
				t.Errorf("tools/call = %+v", call)
			}
			for _, md := range m.Notifications {
				if md.Result != nil {
					t.Errorf("notification %s has a result", md.Name)
				}
			}
			codes := map[int64]bool{}
			for _, ec := range m.ErrorCodes {
				codes[ec.Code] = true
			}
			for _, c := range []int64{-32700, -32600, -32601, -32602, -32603} {
				if !codes[c] {
					t.Errorf("error code %d missing", c)
				}
			}
		})
	}
}

// TestLoad2026 checks facts of 2026-07-28 that the generated package
// relies on.
func TestLoad2026(t *testing.T) {
	m, err := schema.Load(specdir.Schema(t, "2026-07-28"), schema.Options{})
	if err != nil {
		t.Fatal(err)
	}
	methods := map[string]*schema.Method{}
	for _, md := range append(m.Requests, m.Notifications...) {
		methods[md.Name] = md
	}
	if methods["server/discover"] == nil {
		t.Error("server/discover missing")
	}
	if methods["initialize"] != nil {
		t.Error("initialize is not a 2026-07-28 method")
	}
	if r := methods["tools/call"].Result; r == nil || r.Kind != schema.KindUnion || r.Union.Discriminator != "resultType" {
		t.Errorf("tools/call result = %+v", r)
	}
	cb := m.Type("ContentBlock")
	if cb == nil || cb.Kind != schema.KindUnion || cb.Union.Discriminator != "type" {
		t.Errorf("ContentBlock = %+v", cb)
	}
	if id := m.Type("RequestId"); id == nil || id.Kind != schema.KindScalarUnion {
		t.Errorf("RequestId = %+v", id)
	}
	deprecated := 0
	for _, ty := range m.Types {
		if ty.Deprecated != "" {
			deprecated++
		}
	}
	if deprecated == 0 {
		t.Error("no deprecated types in 2026-07-28")
	}
}
