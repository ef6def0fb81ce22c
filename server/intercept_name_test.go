package server

import (
	"context"
	"testing"
)

// TestInterceptorNameIsTheTarget: Request.Name is the member the method's
// handler acts on (params.name of tools/call and prompts/get, params.uri of
// resources/read, params.taskId of tasks/*), not whichever of name, uri and
// taskId the params happen to hold first: an interceptor that allows
// resources/read by Name must not see "echo" while the handler reads
// "test://static-text", in the stateless core and in a legacy session.
func TestInterceptorNameIsTheTarget(t *testing.T) {
	var rec seen
	f := newFixture(t, func(o *Options) { o.Interceptors = []Interceptor{rec.interceptor()} })
	meta := `,"_meta":` + metaFor("2026-07-28")
	cases := []struct{ method, params, want string }{
		{"resources/read", `{"name":"echo","uri":"test://static-text"`, "test://static-text"},
		{"resources/read", `{"taskId":"t1","uri":"test://static-text"`, "test://static-text"},
		{"tools/call", `{"uri":"test://static-text","name":"echo","arguments":{"text":"x"}`, "echo"},
		{"tools/call", `{"taskId":"t1","name":"echo","arguments":{"text":"x"}`, "echo"},
		{"prompts/get", `{"uri":"test://static-text","name":"simple"`, "simple"},
		{"tasks/get", `{"name":"echo","taskId":"t1"`, "t1"},
		{"tasks/cancel", `{"uri":"test://static-text","taskId":"t1"`, "t1"},
	}
	for _, c := range cases {
		rec.take()
		f.s.HandleBytes(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"`+c.method+`","params":`+c.params+meta+`}}`), nil)
		if got := rec.take(); len(got) != 1 || got[0].Name != c.want {
			t.Errorf("stateless %s %s}: the chain saw %+v, want Name %q", c.method, c.params, got, c.want)
		}
	}

	peer := startStdio(t, f.s, 0)
	peer.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"old","version":"1"}}}`)
	peer.next()
	peer.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for _, c := range cases {
		if c.method == "tasks/get" || c.method == "tasks/cancel" {
			continue // not a method of that revision
		}
		rec.take()
		peer.send(`{"jsonrpc":"2.0","id":2,"method":"` + c.method + `","params":` + c.params + `}}`)
		peer.next()
		got := rec.take()
		if len(got) == 2 && got[0].Method == "initialize" {
			got = got[1:]
		}
		if len(got) != 1 || got[0].Name != c.want {
			t.Errorf("legacy %s %s}: the chain saw %+v, want Name %q", c.method, c.params, got, c.want)
		}
	}
}
