package server

import (
	"context"
	"testing"
)

type uriParams struct {
	URI string `json:"uri"`
}

type uriResult struct {
	Read string `json:"read"`
}

// Request.Name: "for another method the first of them [name, uri, taskId]
// the params hold, else """. An extension method acting on params.uri
// (skills/get, resources/directory/read, a user's notes/get) with params
// {"uri":"secret://x","name":"harmless"} holds uri first. A legacy session
// reports Name "secret://x" (the first member in order), while the
// stateless core reports "harmless" (it prefers name whatever the order):
// one message, two readings, and in the stateless era an interceptor that
// refuses by Name lets the read of secret://x through.
func TestAttackInterceptorNameOfExtensionMethodIsTheFirstMember(t *testing.T) {
	var rec seen
	read := NewMethod(MethodInfo{Name: "notes/get"}, func(ctx context.Context, p uriParams) (*uriResult, error) {
		return &uriResult{Read: p.URI}, nil
	})
	f := newFixture(t, func(o *Options) {
		o.Interceptors = []Interceptor{rec.interceptor()}
		o.Extensions = append(o.Extensions, Extension{ID: "com.example/notes", Legacy: true, Methods: []ExtensionMethod{read}})
	})
	const params = `{"uri":"secret://x","name":"harmless"`
	rec.take()
	f.s.HandleBytes(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"notes/get","params":`+params+`,"_meta":`+metaFor("2026-07-28")+`}}`), nil)
	stateless := rec.take()

	peer := startStdio(t, f.s, 0)
	peer.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"old","version":"1"}}}`)
	peer.next()
	peer.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	rec.take()
	peer.send(`{"jsonrpc":"2.0","id":2,"method":"notes/get","params":` + params + `}}`)
	peer.next()
	legacy := rec.take()
	if len(legacy) > 0 && legacy[0].Method == "initialize" {
		legacy = legacy[1:]
	}
	if len(stateless) != 1 || len(legacy) != 1 {
		t.Fatalf("the chain saw %+v (stateless) and %+v (legacy)", stateless, legacy)
	}
	if stateless[0].Result == "" || legacy[0].Result == "" {
		t.Fatalf("notes/get did not run: %+v / %+v", stateless[0], legacy[0])
	}
	if stateless[0].Name != "secret://x" || legacy[0].Name != "secret://x" {
		t.Errorf("Name of notes/get %s}: stateless %q, legacy %q; want the first member held, \"secret://x\", which the handler read (%s)", params, stateless[0].Name, legacy[0].Name, stateless[0].Result)
	}
}
