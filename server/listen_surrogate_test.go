package server

import (
	"bytes"
	"context"
	"testing"
	"time"
)

// schema 2026-07-28 SubscriptionsListenResultMetaObject
// "io.modelcontextprotocol/subscriptionId": "The value is the JSON-RPC ID
// of the subscriptions/listen request that opened the stream (and equals
// this response's id)", "mirroring the same key on the stream's
// notifications". jsonrpc.ID keeps a lone-surrogate string id "\ud800"
// apart from "\ufffd" and echoes it as sent (id.go; the ack carries
// "\ud800"), but the graceful end's result (listenResult) builds its
// subscriptionId from id.Str(), which turns the lone surrogate into U+FFFD:
// the response's id is "\ud800", its subscriptionId "\ufffd" — another
// JSON value, and the id of another possible stream.
func TestListenResultSubscriptionIDEchoesTheLoneSurrogateID(t *testing.T) {
	f := newFixture(t)
	l := startListen(t, f.s, `"\ud800"`, `{"toolsListChanged":true}`)
	if ack := l.next(t); subID(t, ack) != `"\ud800"` {
		t.Fatalf("ack subscriptionId %s (the reference changed)", subID(t, ack))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := f.s.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	var resp Response
	select {
	case resp = <-l.done:
	case <-time.After(2 * time.Second):
		t.Fatal("listen did not end")
	}
	if !bytes.Contains(resp.Body, []byte(`"id":"\ud800"`)) {
		t.Fatalf("listen result %s: id not echoed (the reference changed)", resp.Body)
	}
	if !bytes.Contains(resp.Body, []byte(`"io.modelcontextprotocol/subscriptionId":"\ud800"`)) {
		t.Errorf("listen result %s: its subscriptionId is not the listen request's id \"\\ud800\"", resp.Body)
	}
}
