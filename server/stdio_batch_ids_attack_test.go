package server

import (
	"strings"
	"testing"
	"time"
)

// On a stdio connection a request whose id is that of a request still in
// flight is refused with -32600 "a request with this id is still in
// flight" (stdio.go; basic/index.mdx: "The request ID MUST NOT match the ID
// of any other request the sender has issued and not yet received a
// response for"). The same
// request inside a batch line of a 2025-03-26 session is not checked: it
// runs beside the first one and is answered with a result, so two requests
// of one id are in flight and notifications/cancelled for that id is
// ambiguous. Same message, different verdict by framing.
func TestAttackStdioBatchDuplicateInFlightIDRefused(t *testing.T) {
	f := newFixture(t)
	p := startStdio(t, f.s, 0)
	next := func(what string) string {
		t.Helper()
		select {
		case l := <-p.lines:
			return l
		case <-time.After(3 * time.Second):
			t.Fatalf("no answer to %s", what)
			return ""
		}
	}
	p.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"old","version":"1"}}}`)
	if l := next("initialize"); !strings.Contains(l, `"result"`) {
		t.Fatalf("initialize: %s", l)
	}
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	p.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","arguments":{"tag":"a"}}}`)
	select {
	case <-f.gate.started:
	case <-time.After(3 * time.Second):
		t.Fatal("slow tool did not start")
	}
	defer close(f.gate.release)
	// The single-line verdict, for reference.
	p.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"single"}}}`)
	if l := next("the single duplicate"); !strings.Contains(l, "-32600") {
		t.Fatalf("single-line duplicate id: %s (the reference verdict changed)", l)
	}
	p.send(`[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"batched"}}}]`)
	if l := next("the batched duplicate"); !strings.Contains(l, "-32600") {
		t.Errorf("a batched request with the id of a request in flight was served: %s", l)
	}
}
