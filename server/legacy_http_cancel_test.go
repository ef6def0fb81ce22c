package server

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestLegacyHTTPCancelledRequestGetsNoResponse: in an
// initialize-era HTTP session notifications/cancelled is how the client
// cancels (the session answers it: the handler's context is cancelled).
// Servers receiving it SHOULD "Not send a response for the cancelled
// request" (basic/patterns/cancellation.mdx, Behavior Requirements; the
// same text in 2025-11-25). A POSTed request is answered with one JSON
// response object or an SSE stream (Streamable HTTP, 2025-03-26 to
// 2025-11-25; 202 is for notifications and responses only), so the POST
// of the cancelled request gets an SSE stream that ends without a
// response for its id.
func TestLegacyHTTPCancelledRequestGetsNoResponse(t *testing.T) {
	f, srv := startLegacyHTTP(t)
	a := openSession(t, srv.URL, fullCaps)
	done := make(chan string, 1)
	go func() {
		resp := a.post(lgBody("2", "tools/call", `{"name":"slow","arguments":{"tag":"c"}}`))
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		done <- resp.Status + " " + resp.Header.Get("Content-Type") + "\n" + string(b)
	}()
	select {
	case <-f.gate.started:
	case <-time.After(3 * time.Second):
		t.Fatal("the slow tool did not start")
	}
	r := a.post(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"user"}}`)
	r.Body.Close()
	if r.StatusCode != http.StatusAccepted {
		t.Fatalf("notifications/cancelled: %d", r.StatusCode)
	}
	select {
	case <-f.gate.cancelled:
	case <-time.After(3 * time.Second):
		t.Fatal("the handler was not cancelled")
	}
	select {
	case body := <-done:
		if strings.Contains(body, `"id":2`) {
			t.Errorf("the cancelled request was answered: %s; want no response for it", body)
		}
		if !strings.HasPrefix(body, "200 OK text/event-stream") {
			t.Errorf("the cancelled request's POST: %s; want 200 and an SSE stream that ends without a response", body)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("the cancelled request's POST did not end")
	}
}
