package server

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

type otherKey struct{}

// The request's context, held in the request, is its parent's with the
// request as a value: other values, deadlines, cancellation and causes come
// from the parent, and contexts derived from it are cancelled with it.
func TestRequestContextIsTheParentsWithTheRequest(t *testing.T) {
	cause := errors.New("the client went away")
	parent, cancel := context.WithCancelCause(context.WithValue(context.Background(), otherKey{}, "v"))
	deadline := time.Now().Add(time.Hour)
	parent, stop := context.WithDeadline(parent, deadline)
	defer stop()
	r := &request{}
	ctx := withRequestIn(parent, r)
	if requestFrom(ctx) != r {
		t.Fatal("requestFrom does not find the request")
	}
	if got := ctx.Value(otherKey{}); got != "v" {
		t.Fatalf("parent's value: %v", got)
	}
	if d, ok := ctx.Deadline(); !ok || !d.Equal(deadline) {
		t.Fatalf("deadline %v %v, want %v", d, ok, deadline)
	}
	child, cancelChild := context.WithCancel(ctx)
	defer cancelChild()
	inner := withRequestIn(child, &request{}) // a nested request sees its own
	if requestFrom(inner) == r {
		t.Fatal("a nested request context gives the outer request")
	}
	if ctx.Err() != nil || child.Err() != nil {
		t.Fatal("done before the parent")
	}
	cancel(cause)
	select {
	case <-child.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("a context derived from the request's is not cancelled with its parent")
	}
	if !errors.Is(ctx.Err(), context.Canceled) || context.Cause(ctx) != cause || context.Cause(child) != cause {
		t.Fatalf("err %v, causes %v %v; want Canceled and %v", ctx.Err(), context.Cause(ctx), context.Cause(child), cause)
	}
}

// A tool middleware may call next more than once, at the same time: each
// call gets its own result (the registry lends its output buffer only to a
// tool it runs itself).
func TestToolMiddlewareCallingNextConcurrently(t *testing.T) {
	echo := NewTool(ToolInfo{Name: "echo_each"}, func(ctx context.Context, in struct {
		Text string `json:"text" jsonschema:"required"`
	}) (string, error) {
		return in.Text, nil
	})
	both := func(next ToolHandler) ToolHandler {
		return func(ctx context.Context, call *ToolCall) (*mcp.CallToolResult, error) {
			var wg sync.WaitGroup
			res := make([]*mcp.CallToolResult, 8)
			errs := make([]error, len(res))
			for i := range res {
				wg.Go(func() {
					args := []byte(`{"text":"` + string(rune('a'+i)) + `"}`)
					res[i], errs[i] = next(ctx, &ToolCall{Name: call.Name, Arguments: args})
				})
			}
			wg.Wait()
			text := ""
			for i, r := range res {
				if errs[i] != nil {
					return nil, errs[i]
				}
				text += r.Content[0].(*mcp.TextContent).Text
			}
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{&mcp.TextContent{Text: text}}}, nil
		}
	}
	f := newFixture(t, func(o *Options) { o.Tools = append(o.Tools, WrapTool(echo, both)) })
	for range 20 {
		if text, isErr := callText(t, rpc(t, f.s, "tools/call", `{"name":"echo_each","arguments":{"text":"x"}}`)); text != "abcdefgh" || isErr {
			t.Fatalf("got %q (isError %v), want abcdefgh", text, isErr)
		}
	}
}
