package server

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestLegacyInitializeRefusedDuringDrain: once Shutdown began,
// "requests that arrive from now on are refused with -32603 and data
// {"reason":"shutdown"} (HTTP: 503 with Retry-After)" (Server.Shutdown,
// README "Limits and shutdown"). A legacy initialize POST is one of them:
// 503 with Retry-After and reason shutdown, and no session is opened.
func TestLegacyInitializeRefusedDuringDrain(t *testing.T) {
	f := newFixture(t)
	srv := httptest.NewServer(f.s.HTTPHandler(HTTPOptions{}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = f.s.Shutdown(ctx)
	c := &lgHTTP{t: t, url: srv.URL}
	resp := c.post(lgBody("1", "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}`),
		"MCP-Protocol-Version", "2025-11-25")
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" ||
		resp.Header.Get("Mcp-Session-Id") != "" || !strings.Contains(string(b), `"reason":"shutdown"`) {
		t.Errorf("legacy initialize after Shutdown: %d, Mcp-Session-Id %q, Retry-After %q, %s; want 503 with Retry-After, reason shutdown and no session",
			resp.StatusCode, resp.Header.Get("Mcp-Session-Id"), resp.Header.Get("Retry-After"), b)
	}
}

// TestLegacyInitializeIsRateLimited: Limits.Rate gives every client
// a token bucket, "Burst requests at once, PerSecond on average, on stdio
// and HTTP alike" and a request over the rate gets HTTP 429 (README, Rate
// limits). A legacy initialize POST takes a token too, so one client
// cannot open any number of sessions at once (each of which could evict
// another client's idle session at MaxLegacySessions).
func TestLegacyInitializeIsRateLimited(t *testing.T) {
	f := newFixture(t, func(o *Options) { o.Limits.Rate = RateLimit{PerSecond: 0.01, Burst: 1} })
	srv := httptest.NewServer(f.s.HTTPHandler(HTTPOptions{}))
	defer srv.Close()
	var codes []int
	for i := 0; i < 3; i++ {
		c := &lgHTTP{t: t, url: srv.URL}
		resp := c.post(lgBody("1", "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}`),
			"MCP-Protocol-Version", "2025-11-25")
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		codes = append(codes, resp.StatusCode)
	}
	if codes[1] != http.StatusTooManyRequests || codes[2] != http.StatusTooManyRequests {
		t.Errorf("three initialize POSTs from one client with Burst 1 and 0.01/s: statuses %v, want 200 then 429s", codes)
	}
}
