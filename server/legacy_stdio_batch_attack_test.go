package server

import (
	"strings"
	"testing"
	"time"
)

// README (legacy era): "a batched request is in flight until the batch
// response is written" and "notifications/cancelled reaches a batched
// request, which then has no element in the array". A batch whose only
// request the client cancelled has no response at all (legacyBatch.response
// is nil, no empty array is sent), so dispatchBatch/startBatched never call
// batchSent: the batch stays in stdioConn.batches for the connection's life
// and its id is refused as "still in flight" for ever, although the request
// has ended and nothing will ever be written for it (basic/index.mdx: an id
// must only be unique among requests not yet answered; a cancelled request
// is over for the client).
func TestAttackStdioCancelledBatchIDNotInFlightForever(t *testing.T) {
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
