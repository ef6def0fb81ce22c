package client_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// The same hostile server messages, the same verdict on every transport.
// On stdio (TestStdioMalformedNotificationSparesPendingCall) "a malformed
// notification of the server concerns no call of the client: it is dropped
// with a warning, and the call it arrived during succeeds" — and JSON-RPC
// notifications are never answered, malformed or not (README, "How a
// request flows"). On a Streamable HTTP response stream the very same
// notification, followed by the call's valid response, is dropped the same
// way and the call succeeds.
func TestHTTPStreamMalformedNotificationSparesCall(t *testing.T) {
	for _, note := range []string{
		`{"jsonrpc":"2.0","method":"notifications/message","params":"not an object"}`,
		`{"jsonrpc":"1.0","method":"notifications/progress","params":{}}`,
		`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info"},"params":{"level":"info"}}`,
	} {
		t.Run(note, func(t *testing.T) {
			tr := fakeHTTP(t, func(req wireRequest, w http.ResponseWriter) {
				w.Header().Set("Content-Type", "text/event-stream")
				fmt.Fprintf(w, "data: %s\n\n", note)
				fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"content\":[]}}\n\n", req.ID)
			})
			c := connect(t, tr, nil)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if _, err := c.CallTool(ctx, &mcp.CallToolRequestParams{Name: "x"}); err != nil {
				t.Errorf("a malformed notification on the response stream failed the call (stdio drops it): %v", err)
			}
		})
	}
}
