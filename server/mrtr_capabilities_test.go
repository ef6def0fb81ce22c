package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// Input requests reach only a client that declared their capability
// (mrtr.mdx: servers MUST NOT send input requests the client has not
// declared support for), whether a handler asks with Ask or returns an
// InputRequiredError of its own.

// mrtrInputServer's tools ask for input of each kind.
func mrtrInputServer(t *testing.T) *Server {
	t.Helper()
	s, err := New(Options{Name: "x", Version: "1", StateKey: []byte("0123456789abcdef0123456789abcdef"),
		Tools: []Tool{
			// Asks for a tool-enabled sampling request.
			NewTool(ToolInfo{Name: "sample_with_tools"}, func(ctx context.Context, _ struct{}) (string, error) {
				_, err := Ask(ctx, "s", &mcp.CreateMessageRequest{Params: mcp.CreateMessageRequestParams{MaxTokens: 5,
					Messages: []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: &mcp.TextContent{Text: "weather?"}}},
					Tools:    []mcp.Tool{{Name: "get_weather", InputSchema: json.RawMessage(`{"type":"object"}`)}}}})
				return "sampled", err
			}),
			// Asks for sampling with the deprecated includeContext.
			NewTool(ToolInfo{Name: "sample_this_server"}, func(ctx context.Context, _ struct{}) (string, error) {
				_, err := Ask(ctx, "s", &mcp.CreateMessageRequest{Params: mcp.CreateMessageRequestParams{MaxTokens: 5,
					Messages:       []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: &mcp.TextContent{Text: "summarize"}}},
					IncludeContext: "thisServer"}})
				return "sampled", err
			}),
			// Returns its own InputRequiredError, as taskTools' confirm_two
			// does, here for roots.
			NewTool(ToolInfo{Name: "own_roots_request"}, func(ctx context.Context, _ struct{}) (string, error) {
				return "", &InputRequiredError{Requests: map[string]mcp.InputRequest{"r": &mcp.ListRootsRequest{}}}
			}),
			// Asks for a name; answers with the action the client gave.
			NewTool(ToolInfo{Name: "elicit"}, func(ctx context.Context, _ struct{}) (string, error) {
				r, err := Ask(ctx, "e", elicitName("Name?"))
				if err != nil {
					return "", err
				}
				return string(r.(*mcp.ElicitResult).Action), nil
			}),
		}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

const samplingOnlyMeta = `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"sampling":{},"elicitation":{}}}`

// TestAskToolSamplingNeedsSamplingTools: client/sampling.mdx "Servers
// MUST NOT send tool-enabled sampling requests to Clients that have not
// declared support for tool use via the sampling.tools capability"
// (SERVER-CHECKLIST R4); the Ask doc: "A request of a kind the client did
// not declare ... is a -32021 error". A client that declared only
// "sampling":{} gets -32021 naming sampling.tools.
func TestAskToolSamplingNeedsSamplingTools(t *testing.T) {
	s := mrtrInputServer(t)
	r, _ := rpcMeta(t, s, "tools/call", `{"name":"sample_with_tools"}`, samplingOnlyMeta, nil)
	if r.Error == nil {
		t.Fatalf("tool-enabled sampling sent to a client without sampling.tools: %s; want -32021", r.Result)
	}
	if r.Error.Code != -32021 || !strings.Contains(string(r.Error.Data), `"tools"`) {
		t.Errorf("error %d %q %s; want -32021 naming sampling.tools", r.Error.Code, r.Error.Message, r.Error.Data)
	}
	// Control: a client that declares sampling.tools gets the request.
	withTools := `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"sampling":{"tools":{}}}}`
	r, _ = rpcMeta(t, s, "tools/call", `{"name":"sample_with_tools"}`, withTools, nil)
	if r.Error != nil || r.field(t, "resultType") != "input_required" {
		t.Errorf("with sampling.tools: %s %v", r.Result, r.Error)
	}
}

// TestAskIncludeContextNeedsSamplingContext: client/sampling.mdx:
// servers "SHOULD NOT use [includeContext thisServer/allServers] unless the
// client declares sampling.context capability" (SERVER-CHECKLIST R9): Ask
// answers -32021 naming sampling.context instead.
func TestAskIncludeContextNeedsSamplingContext(t *testing.T) {
	s := mrtrInputServer(t)
	r, _ := rpcMeta(t, s, "tools/call", `{"name":"sample_this_server"}`, samplingOnlyMeta, nil)
	if r.Error == nil {
		t.Fatalf("includeContext thisServer sent to a client without sampling.context: %s; want -32021", r.Result)
	}
	if r.Error.Code != -32021 || !strings.Contains(string(r.Error.Data), `"context"`) {
		t.Errorf("error %d %q %s; want -32021 naming sampling.context", r.Error.Code, r.Error.Message, r.Error.Data)
	}
}

// TestOwnInputRequiredErrorNeedsDeclaredCapability: mrtr.mdx "Servers MUST
// NOT send an inputRequests that the client has not declared support for in
// its capabilities" (R4). The requests of an InputRequiredError a handler
// returns itself (as the confirm_two task fixture does) get the capability
// check Ask makes: a roots/list request for a client that declared no
// roots is -32021, not an InputRequiredResult.
func TestOwnInputRequiredErrorNeedsDeclaredCapability(t *testing.T) {
	s := mrtrInputServer(t)
	r, _ := rpcMeta(t, s, "tools/call", `{"name":"own_roots_request"}`, samplingOnlyMeta, nil)
	if r.Error == nil {
		t.Fatalf("roots/list input request sent to a client without roots: %s; want an error (-32021)", r.Result)
	}
}

// TestLegacyOwnInputRequiredErrorNeedsDeclaredCapability: the same in a
// legacy session (2025-11-25 lifecycle: both parties "only use
// capabilities that were successfully negotiated"; the Ask doc: a request
// of a kind the client did not declare is -32021): a session whose client
// declared only elicitation gets an error for the tool call, not a real
// roots/list request it would hang on.
func TestLegacyOwnInputRequiredErrorNeedsDeclaredCapability(t *testing.T) {
	s := mrtrInputServer(t)
	p := startLegacyStdio(t, s)
	p.initialize("2025-11-25", `{"elicitation":{}}`)
	p.call("5", "tools/call", `{"name":"own_roots_request"}`)
	line := p.nextRaw()
	var m map[string]any
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatalf("output %q", line)
	}
	if m["method"] != nil {
		t.Fatalf("server sent %s to a client that declared no roots; want an error response to id 5", line)
	}
	if m["error"] == nil {
		t.Errorf("answer %s; want an error", line)
	}
}
