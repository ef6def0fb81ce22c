package client_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mcpgen/mcpgen/client"
	"github.com/mcpgen/mcpgen/server"
)

// foldedOut is a result with a member whose name differs from "sum" only
// in case: json.Unmarshal would fill sum.Sum from it.
type foldedOut struct {
	Sum    int `json:"sum"`
	Folded int `json:"SUM"`
}

// TestCallToolAsExactNames: CallToolAs decodes exactly what the
// outputSchema validated. A server that sends {"sum":5,"SUM":99}, where the
// schema bounds "sum" only, yields Sum 5, not the unvalidated 99 that a
// case-folding decoder would take.
func TestCallToolAsExactNames(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"sum":{"type":"integer","maximum":10}},"required":["sum"]}`)
	srv, err := server.New(server.Options{
		Name: "typed-exact", Version: "1.0.0",
		Tools: []server.Tool{
			server.NewTool(server.ToolInfo{Name: "folded", OutputSchema: schema}, func(ctx context.Context, in struct{}) (foldedOut, error) {
				return foldedOut{Sum: 5, Folded: 99}, nil
			}),
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	c := connect(t, client.InMemory(srv), nil)
	ctx := context.Background()
	got, res, err := client.CallToolAs[sum](ctx, c, "folded", nil)
	if err != nil || res == nil {
		t.Fatalf("CallToolAs folded: %v", err)
	}
	if got.Sum != 5 {
		t.Fatalf("Sum = %d, want 5 (the validated member, not \"SUM\")", got.Sum)
	}
}
