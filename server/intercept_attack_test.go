package server

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"testing"
)

// TestAttackInterceptorsMissNonObjectParams: README "Middleware and
// observability": "Interceptors ... see every request the server answers"
// (and so LogRequests logs one record per request, and the otel module
// counts its errors by error.type). A request whose params are a number
// is answered -32602 by the envelope decoder without entering the chain,
// while the same request with a repeated params member (also -32602) and
// one of an unknown method (-32601) go through it: a client can send
// invalid-params requests no interceptor ever records.
func TestAttackInterceptorsMissNonObjectParams(t *testing.T) {
	var seen []string
	ic := func(next Handler) Handler {
		return func(ctx context.Context, req *Request) (json.RawMessage, error) {
			seen = append(seen, req.ID.String())
			return next(ctx, req)
		}
	}
	s, err := New(Options{Name: "p", Version: "1", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Tools: []Tool{weatherTool()}, Interceptors: []Interceptor{ic}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Shutdown(t.Context()) })
	const meta = `"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}`
	for _, c := range []struct{ id, msg string }{
		{"1", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","name":"b","_meta":{` + meta + `}}}`},
		{"2", `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":5}`},
		{"3", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":"weather_current"}`},
	} {
		before := len(seen)
		var m map[string]any
		r := s.HandleBytes(context.Background(), []byte(c.msg), nil)
		if err := json.Unmarshal(r.Body, &m); err != nil || errorCode(m) != -32602 || idOf(m) != c.id {
			t.Fatalf("request %s: %s, want -32602 with its id", c.id, r.Body)
		}
		if len(seen) == before {
			t.Errorf("request %s was answered -32602 (%s) without passing the interceptors", c.id, r.Body)
		}
	}
}
