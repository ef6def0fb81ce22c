package server

import (
	"context"
	"testing"
)

// basic/index.mdx (Notifications): "The receiver MUST NOT send a response."
// basic/patterns/cancellation.mdx: "Invalid cancellation notifications
// SHOULD be ignored: ... Malformed notifications". A message with a method
// and no id member is a notification even when its params are a string,
// number or boolean: HandleBytes and stdio answer nothing. On HTTP the POST
// of a notification the server cannot accept is refused with an HTTP error
// status, its body a JSON-RPC error without an id (transports/
// streamable-http.mdx, "Sending Messages": "If the server cannot accept it,
// it MUST return an HTTP error status code (e.g., 400 Bad Request). The
// HTTP response body MAY comprise a JSON-RPC error response that has no
// id"), and that stays.
func TestMalformedNotificationGetsNoResponse(t *testing.T) {
	f := newFixture(t)
	msgs := []string{
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":"x"}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":42}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized","params":true}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized","result":{}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{},"params":{}}`,
	}
	for _, msg := range msgs {
		if resp := f.s.HandleBytes(context.Background(), []byte(msg), nil); resp.Body != nil {
			t.Errorf("HandleBytes answered the notification %s with %s", msg, resp.Body)
		}
	}
	// A request with such params is still answered (with its id).
	if _, resp := rawRPC(t, f.s, `{"jsonrpc":"2.0","id":7,"method":"tools/list","params":"x"}`, nil); resp.Body == nil {
		t.Error("a request with string params got no response")
	}

	// On stdio: the first line out must be the answer to the request that
	// follows the notifications.
	p := startStdio(t, f.s, 0)
	for _, msg := range msgs {
		p.send(msg)
	}
	p.request(`"after"`, "server/discover", `{}`)
	if m := p.next(); m["id"] != "after" {
		t.Errorf("stdio answered the notification: %v", m)
	}

	// On HTTP: 400, a JSON-RPC error without an id.
	h := f.s.HTTPHandler(HTTPOptions{})
	w := serveOnce(t, h, msgs[0], []string{"Accept", "application/json, text/event-stream", "Content-Type", "application/json"})
	if w.Code != 400 {
		t.Fatalf("HTTP status %d, want 400: %s", w.Code, w.Body)
	}
	if r := decodeReply(t, w.Body.Bytes()); r.Error == nil || r.Error.Code != -32602 || r.ID != nil {
		t.Errorf("HTTP body %s, want a -32602 error without an id", w.Body)
	}
}
