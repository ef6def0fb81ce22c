package server

import (
	"io"
	"net/http"
	"testing"
)

// TestLegacyBatchOfMalformedNotificationsNotAccepted: the fix "a malformed
// notification keeps its kind, so it is not answered" made readBatch skip a
// notification that fails to decode, silently; a batch left with no
// answer is then "a batch of notifications and responses only" and gets
// 202 Accepted. Streamable HTTP (2025-03-26, the revision with batches,
// and streamable-http.mdx "Sending Messages" now): for input that is only
// notifications, 202 Accepted is "If the server accepts" it; "If the
// server cannot accept it, it MUST return an HTTP error status code (e.g.,
// 400 Bad Request)". The server did not accept these (params "x" is not an
// object, the message carries "result"): nothing was delivered. The same
// notification POSTed alone is 400 (the commit keeps that on purpose), so
// wrapping it in a batch turns a refusal into a claim of acceptance.
func TestLegacyBatchOfMalformedNotificationsNotAccepted(t *testing.T) {
	_, srv := startLegacyHTTP(t)
	c := openBatchSession(t, srv.URL, "2025-03-26")
	status := func(body string) (int, string) {
		resp := c.post(body, "MCP-Protocol-Version", "2025-03-26")
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp.StatusCode, string(b)
	}
	bad := `{"jsonrpc":"2.0","method":"notifications/roots/list_changed","params":"x"}`
	if st, b := status(bad); st != http.StatusBadRequest {
		t.Fatalf("the malformed notification alone: %d %s (reference: want 400)", st, b)
	}
	for _, body := range []string{
		"[" + bad + "]",
		`[{"jsonrpc":"2.0","method":"notifications/roots/list_changed","result":{}}]`,
	} {
		if st, b := status(body); st == http.StatusAccepted {
			t.Errorf("batch %s of a notification the server cannot accept: 202 Accepted %q; want an HTTP error status (400), as for the same notification alone", body, b)
		}
	}
}
