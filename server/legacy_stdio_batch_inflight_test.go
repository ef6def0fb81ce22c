package server

import (
	"strings"
	"testing"
	"time"
)

// README (legacy era): "On stdio a batched request whose id is that of a
// request in flight — a single line's, another batch's, or an earlier one
// of the same batch — is refused with -32600 as a single line is"; and
// dispatchBatch's own rule for a repeated id: "Its answer is not out yet
// (the batch response carries it): a request of this id is still in
// flight." A batched request whose handler has returned but whose answer
// waits in the batch response for a slower request of the batch is still
// in flight to the client (basic/index.mdx: an id "MUST NOT match the ID of
// any other request the sender has issued and not yet received a response
// for"). Yet a later single line (or batch) with its id is served, so the
// client gets two answers of id 1 — the single line's, then the batch
// array's — and cannot tell which request each answers.
func TestStdioBatchedIDStaysInFlightUntilTheBatchResponseIsWritten(t *testing.T) {
	f, p, next := startBatchSession(t)
	p.send(`[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"batched"}}},` +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{"tag":"a"}}}]`)
	select {
	case <-f.gate.started:
	case <-time.After(3 * time.Second):
		t.Fatal("slow tool did not start")
	}
	time.Sleep(200 * time.Millisecond) // the batched echo (id 1) has returned; its answer waits for id 2
	p.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"single"}}}`)
	l := next("the single line of id 1")
	close(f.gate.release)
	if !strings.Contains(l, "-32600") {
		t.Errorf("a single line with the id of a batched request whose answer is not out yet was served: %s", l)
	}
}
