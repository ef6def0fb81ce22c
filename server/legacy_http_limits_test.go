package server

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
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

// TestLegacyEvictionSparesSessionWithRequestInFlight: at
// MaxLegacySessions a new session evicts "the one idle the longest"
// (README, Limits and shutdown). Session A has a tools/call in flight
// (waiting for the client's elicitation answer); session B has been idle
// since its last ping. A session with a request in flight is not idle
// (Limits.MaxLegacySessions): the third initialize evicts B, and A's
// elicitation answer is accepted and its tool call completes.
func TestLegacyEvictionSparesSessionWithRequestInFlight(t *testing.T) {
	f := newFixture(t, func(o *Options) { o.Limits.MaxLegacySessions = 2 })
	srv := httptest.NewServer(f.s.HTTPHandler(HTTPOptions{}))
	defer srv.Close()
	a := openSession(t, srv.URL, fullCaps)
	b := openSession(t, srv.URL, fullCaps)
	resp := a.post(lgBody("2", "tools/call", `{"name":"ask_name"}`))
	defer resp.Body.Close()
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("ask_name answered %s, want SSE", resp.Header.Get("Content-Type"))
	}
	ev := newLgSSE(resp.Body)
	req, _ := ev.next(t)
	if req["method"] != "elicitation/create" {
		t.Fatalf("server request %v", req)
	}
	time.Sleep(5 * time.Millisecond) // B's last use is strictly later than A's
	if st, _, raw := b.rpc("3", "ping", ""); st != 200 {
		t.Fatalf("ping on B: %d %s", st, raw)
	}
	openSession(t, srv.URL, fullCaps) // at the cap: one session is evicted

	answer := a.post(`{"jsonrpc":"2.0","id":` + idOf(req) + `,"result":{"action":"accept","content":{"name":"Lin"}}}`)
	ab, _ := io.ReadAll(answer.Body)
	answer.Body.Close()
	if answer.StatusCode != http.StatusAccepted {
		t.Errorf("answering A's elicitation: %d %s; A had a request in flight and was evicted before idle B", answer.StatusCode, ab)
	}
	res, raw := ev.next(t)
	if idOf(res) != "2" || res["result"] == nil || lgText(t, resultOf(t, res)) != "Hello, Lin!" {
		t.Errorf("A's tool call: %s, want Hello, Lin!", raw)
	}
	if st, _, raw := b.rpc("4", "ping", ""); st != http.StatusNotFound {
		t.Errorf("ping on B, the session idle the longest: %d %s, want 404 (evicted)", st, raw)
	}
}

// A session idle for longer than legacySessionIdle is ended when it is
// next named: 404 (Streamable HTTP 2025-11-25, Session Management: "The
// server MAY terminate the session at any time, after which it MUST
// respond to requests containing that session ID with HTTP 404 Not
// Found"), whether or not another client's initialize swept since.
func TestLegacyIdleSessionIsEnded(t *testing.T) {
	f, srv := startLegacyHTTP(t)
	sid := openSessionVersion(t, srv.URL, "2025-11-25")
	f.s.sessions.mu.Lock()
	hs := f.s.sessions.m[sid]
	f.s.sessions.mu.Unlock()
	if hs == nil {
		t.Fatal("session not registered")
	}
	hs.lastUsed.Store(time.Now().Add(-legacySessionIdle - time.Minute).UnixNano())
	st, b, _ := lgDo(t, http.MethodPost, srv.URL, lgBody("2", "ping", ""),
		"Content-Type", "application/json", "Accept", "application/json, text/event-stream",
		"Mcp-Session-Id", sid, "MCP-Protocol-Version", "2025-11-25")
	if st != http.StatusNotFound {
		t.Errorf("ping on a session idle for %v: %d %s, want 404 (idle sessions are ended)", legacySessionIdle+time.Minute, st, b)
	}
}

// A session does not keep a client-sized clientInfo: an initialize whose
// capabilities and clientInfo exceed maxLegacyClientDescription (64 KiB)
// is refused, so ten initializes with a 3 MiB clientInfo member pin
// nothing, and a session's requests (which carry both to the core in the
// modern _meta) never copy more than that bound.
func TestLegacyInitializeBoundsClientDescription(t *testing.T) {
	_, srv := startLegacyHTTP(t)
	pad := strings.Repeat("a", 3<<20)
	var m0, m1, m2 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	var sids []string
	for range 10 {
		st, b, h := lgDo(t, http.MethodPost, srv.URL,
			lgBody("1", "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"attack","version":"1","pad":"`+pad+`"}}`),
			"Content-Type", "application/json", "Accept", "application/json, text/event-stream")
		if st == http.StatusOK {
			sids = append(sids, h.Get("Mcp-Session-Id"))
		} else if st >= 500 {
			t.Fatalf("initialize: %d %.200s", st, b)
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&m1)
	if held := (int64(m1.HeapAlloc) - int64(m0.HeapAlloc)) >> 20; held > 10 {
		t.Errorf("%d sessions opened with a 3 MiB clientInfo member hold %d MiB; want under 10 MiB (a session's size must not be the client's choice)", len(sids), held)
	}
	if len(sids) == 0 {
		return
	}
	for range 10 {
		st, b, _ := lgDo(t, http.MethodPost, srv.URL, lgBody("2", "tools/list", ""),
			"Content-Type", "application/json", "Accept", "application/json, text/event-stream",
			"Mcp-Session-Id", sids[0], "MCP-Protocol-Version", "2025-11-25")
		if st != http.StatusOK {
			t.Fatalf("tools/list: %d %.300s", st, b)
		}
	}
	runtime.ReadMemStats(&m2)
	if got := (m2.TotalAlloc - m1.TotalAlloc) >> 20; got > 10 {
		t.Errorf("10 tools/list requests (60 bytes each) in that session allocated %d MiB; want under 10 MiB", got)
	}
}
