package server

import (
	"context"
	"encoding/json"
	"errors"

	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// attackToolsHandler takes over tools/list and tools/call from the
// registry (Options.Handlers: "take over the matching requests from the
// registries").
type attackToolsHandler struct{}

func (attackToolsHandler) CallTool(ctx context.Context, p *mcp.CallToolRequestParams) (mcp.CallToolOutcome, error) {
	return nil, errors.New("unused")
}

func (attackToolsHandler) ListTools(ctx context.Context, p *mcp.PaginatedRequestParams) (*mcp.ListToolsResult, error) {
	return &mcp.ListToolsResult{Tools: []mcp.Tool{}}, nil
}

// With a ToolsHandler answering tools/list, server/discover declares
// tools without listChanged (discover.go: the list is the handler's, which
// registry changes do not reach), yet a listen asking for toolsListChanged
// has it acknowledged, and AddTools — which changes nothing tools/list
// answers — sends notifications/tools/list_changed on it.
// subscriptions.mdx: the acknowledgment "reflects the subset the server
// agreed to honor. Notification types the server does not support are
// omitted."; tools.mdx: listChanged "indicates whether the server will
// emit notifications when the list of available tools changes"
// (SERVER-CHECKLIST L10: leave out of the ack any type the server lacks a
// capability for).
func TestAttackListenAckMatchesDiscoverListChanged(t *testing.T) {
	s, err := New(Options{Name: "handler-tools", Tools: []Tool{weatherTool()}, Handlers: []any{attackToolsHandler{}}})
	if err != nil {
		t.Fatal(err)
	}
	caps := s.capabilities()
	if caps.Tools == nil || caps.Tools.ListChanged != nil {
		t.Fatalf("precondition: discover tools capability %+v", caps.Tools)
	}
	l := startListen(t, s, "1", `{"toolsListChanged":true}`)
	ack := l.next(t)
	if ack.Method != "notifications/subscriptions/acknowledged" {
		t.Fatalf("first message %s", ack.Method)
	}
	if strings.Contains(string(ack.Params), "toolsListChanged") {
		t.Errorf("ack %s grants toolsListChanged, which server/discover does not declare (tools %+v)", ack.Params, caps.Tools)
	}
}

// A progressToken of 1e2 (or 1.0) is an integer by the schema's
// ProgressToken ("type": ["string","integer"]; JSON Schema counts any
// number with a zero fraction as an integer) and the generated
// mcp.ProgressToken decoder takes it (Value 100), as the README says
// integers are read everywhere ("an integer is any number with a zero
// fraction, `1.0` and `1e2` too, as in JSON Schema"). The core's _meta
// check refuses the whole request instead with -32602 "must be a string
// or an integer": two readers of one message disagree, and a client that
// asked for progress gets no answer at all.
func TestAttackProgressTokenIntegerSpellings(t *testing.T) {
	f := newFixture(t)
	for _, tok := range []string{`1e2`, `100.0`} {
		var p mcp.ProgressToken
		if err := json.Unmarshal([]byte(tok), &p); err != nil {
			t.Fatalf("precondition: the generated decoder refuses %s: %v", tok, err)
		}
		meta := `{"progressToken":` + tok + `,"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
		w := newRecorder()
		r, _ := rpcMeta(t, f.s, "tools/call", `{"name":"progress","arguments":{}}`, meta, w)
		if r.Error != nil {
			t.Errorf("progressToken %s: error %d %q; want the call answered with progress", tok, r.Error.Code, r.Error.Message)
			continue
		}
		w.mu.Lock()
		n := len(w.notes)
		w.mu.Unlock()
		if n == 0 {
			t.Errorf("progressToken %s: no progress notification", tok)
		}
	}
}
