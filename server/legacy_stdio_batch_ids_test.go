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
// request inside a batch line of a 2025-03-26 session gets the same
// verdict: same message, same verdict whatever the framing (else two
// requests of one id would be in flight and notifications/cancelled for
// that id ambiguous).
func TestStdioBatchDuplicateInFlightIDRefused(t *testing.T) {
	f, p, next := startBatchSession(t)
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

// startBatchSession starts a stdio connection of a 2025-03-26 session (one
// that takes batches); next returns its next output line.
func startBatchSession(t *testing.T) (f *fixture, p *stdioPeer, next func(what string) string) {
	t.Helper()
	f = newFixture(t)
	p = startStdio(t, f.s, 0)
	next = func(what string) string {
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
	return f, p, next
}

// Two requests of one id inside one batch: the second is refused as a
// request of an id in flight (the first's answer is not out before the
// batch response), whether or not the first has finished.
func TestStdioBatchRepeatedIDRefused(t *testing.T) {
	_, p, next := startBatchSession(t)
	p.send(`[{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"first"}}},` +
		`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"second"}}}]`)
	l := next("the batch")
	if !strings.Contains(l, "first") || strings.Contains(l, "second") || !strings.Contains(l, "-32600") {
		t.Errorf("a batch repeating id 7: want the first served and the second refused, got %s", l)
	}
}

// notifications/cancelled reaches a batched request as any other: its
// handler's context is cancelled.
func TestStdioCancelReachesBatchedRequest(t *testing.T) {
	f, p, _ := startBatchSession(t)
	p.send(`[{"jsonrpc":"2.0","id":"b1","method":"tools/call","params":{"name":"slow","arguments":{"tag":"batched"}}}]`)
	select {
	case <-f.gate.started:
	case <-time.After(3 * time.Second):
		t.Fatal("slow tool did not start")
	}
	defer close(f.gate.release)
	p.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"b1"}}`)
	select {
	case tag := <-f.gate.cancelled:
		if tag != "batched" {
			t.Errorf("cancelled %q", tag)
		}
	case <-time.After(3 * time.Second):
		t.Error("notifications/cancelled did not reach the batched request")
	}
}
