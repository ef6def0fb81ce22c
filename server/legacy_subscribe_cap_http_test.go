package server

import (
	"io"
	"strconv"
	"strings"
	"testing"
)

// A legacy HTTP session at its resources/subscribe cap is refused until it
// unsubscribes: waiting does not help, so the refusal is a JSON-RPC error
// in HTTP 200 like the session's others, not 503 with Retry-After (RFC
// 9110 §15.6.4: a temporary overload).
func TestLegacySubscriptionCapIsNot503(t *testing.T) {
	_, srv := startLegacyHTTP(t)
	c := openBatchSession(t, srv.URL, "2025-03-26")
	uri := func(i int) string { return "test://items/" + strconv.Itoa(i) + "/data" }
	for start := 0; start < maxSessionSubscriptions; start += maxLegacyBatch {
		var msgs []string
		for i := start; i < start+maxLegacyBatch && i < maxSessionSubscriptions; i++ {
			msgs = append(msgs, lgBody(strconv.Itoa(i+10), "resources/subscribe", `{"uri":"`+uri(i)+`"}`))
		}
		resp := c.post("["+strings.Join(msgs, ",")+"]", "MCP-Protocol-Version", "2025-03-26")
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || strings.Contains(string(b), `"error"`) {
			t.Fatalf("subscribing %d..: %d %s", start, resp.StatusCode, b)
		}
	}
	resp := c.post(lgBody("99999", "resources/subscribe", `{"uri":"`+uri(maxSessionSubscriptions)+`"}`), "MCP-Protocol-Version", "2025-03-26")
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `"code":-32602`) {
		t.Fatalf("subscription past the cap: %d %s, want -32602", resp.StatusCode, b)
	}
	if resp.StatusCode == 503 || resp.Header.Get("Retry-After") != "" {
		t.Fatalf("subscription past the session's cap: HTTP %d Retry-After %q; a refusal that waiting cannot lift must not be 503 + Retry-After (want 200, as other JSON-RPC errors of a legacy session)",
			resp.StatusCode, resp.Header.Get("Retry-After"))
	}
}
