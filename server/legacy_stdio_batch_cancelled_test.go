package server

import (
	"strings"
	"testing"
	"time"
)

// A batch whose only request the client cancelled has no response (no
// empty array is sent), yet its request has ended: its id is free again,
// not refused as still in flight for the rest of the connection, and the
// batch is not kept (README, legacy era: a batched request is in flight
// until the batch response is written; a cancelled one has no element).
func TestStdioCancelledBatchIDIsFreed(t *testing.T) {
	f, p, next := startBatchSession(t)
	p.send(`[{"jsonrpc":"2.0","id":"b1","method":"tools/call","params":{"name":"slow","arguments":{"tag":"batched"}}}]`)
	select {
	case <-f.gate.started:
	case <-time.After(3 * time.Second):
		t.Fatal("slow tool did not start")
	}
	defer close(f.gate.release)
	p.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"b1"}}`)
	select {
	case <-f.gate.cancelled:
	case <-time.After(3 * time.Second):
		t.Fatal("notifications/cancelled did not reach the batched request")
	}
	time.Sleep(300 * time.Millisecond) // the cancelled handler has returned
	p.send(`{"jsonrpc":"2.0","id":"b1","method":"tools/call","params":{"name":"echo","arguments":{"text":"again"}}}`)
	l := next("the single line reusing the cancelled batched id")
	if strings.Contains(l, "-32600") || !strings.Contains(l, "again") {
		t.Errorf("id of a cancelled batched request (no batch response is ever written) still refused as in flight: %s", l)
	}
}
