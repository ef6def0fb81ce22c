package client_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/client"
	"github.com/mcpgen/mcpgen/generated/mcp"
)

// replayTransport answers discover properly and every other request with
// the same raw result.
type replayTransport struct{ result []byte }

func (t replayTransport) RoundTrip(ctx context.Context, req *client.Request) (json.RawMessage, error) {
	if req.Method == mcp.MethodServerDiscover {
		return json.RawMessage(discoverResult), nil
	}
	return json.RawMessage(t.result), nil
}
func (replayTransport) Notify(context.Context, *client.Request) error { return nil }
func (replayTransport) Close() error                                  { return nil }
func (replayTransport) MirrorsHeaders() bool                          { return true }

// FuzzServerResults feeds arbitrary bytes as the server's result to every
// path that reads one: typed decoding, the multi round-trip loop (with
// handlers, bounded rounds), the tools/list filter on HTTP and CallToolAs's
// schema check. It must end with a result or an error, never a panic or a
// hang.
func FuzzServerResults(f *testing.F) {
	f.Add([]byte(`{"content":[{"type":"text","text":"hi"}],"structuredContent":{"sum":1}}`))
	f.Add([]byte(`{"resultType":"input_required","requestState":"s","inputRequests":{"a":{"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object","properties":{}}}},"b":{"method":"roots/list"},"c":{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":1}}}}`))
	f.Add([]byte(`{"resultType":"complete","ttlMs":0,"cacheScope":"private","tools":[{"name":"add","inputSchema":{"type":"object","properties":{"r":{"type":"string","x-mcp-header":"R"}}},"outputSchema":{"type":"object","required":["sum"]}}]}`))
	f.Add([]byte(`{"resultType":"input_required"}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"a":1,"a":2}`))
	opts := &client.Options{
		MaxRounds:      3,
		RequestTimeout: time.Second,
		Elicit: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "decline"}, nil
		},
		Roots: func(context.Context, *mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
			return &mcp.ListRootsResult{Roots: []mcp.Root{}}, nil
		},
		Sample: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return &mcp.CreateMessageResult{Role: "assistant", Model: "m", Content: &mcp.TextContent{Text: "x"}}, nil
		},
	}
	f.Fuzz(func(t *testing.T, result []byte) {
		ctx := context.Background()
		c, err := client.Connect(ctx, replayTransport{result}, opts)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = c.CallTool(ctx, &mcp.CallToolRequestParams{Name: "add", Arguments: []byte(`{"r":"x"}`)})
		_, _ = c.GetPrompt(ctx, &mcp.GetPromptRequestParams{Name: "p"})
		_, _ = c.ReadResource(ctx, &mcp.ReadResourceRequestParams{URI: "test://x"})
		_, _ = c.ListTools(ctx, &mcp.PaginatedRequestParams{})
		_, _, _ = client.CallToolAs[map[string]any](ctx, c, "add", nil)
	})
}
