package server

import (
	"context"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"
)

// Attacks on initialize-era (2025-03-26 … 2025-11-25) sessions over
// Streamable HTTP.

// lsaDo sends one HTTP request and returns its status, the start of its
// body and its headers; a stream response is cut off after its headers.
func lsaDo(t *testing.T, method, url, body string, hdr ...string) (int, string, http.Header) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Add(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	defer resp.Body.Close()
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		return resp.StatusCode, "", resp.Header // a stream: do not wait for its end
	}
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header
}

// openSessionVersion initializes a session at version and returns its id.
func openSessionVersion(t *testing.T, url, version string) string {
	t.Helper()
	st, b, h := lsaDo(t, http.MethodPost, url,
		lgBody("1", "initialize", `{"protocolVersion":"`+version+`","capabilities":{},"clientInfo":{"name":"attack","version":"1"}}`),
		"Content-Type", "application/json", "Accept", "application/json, text/event-stream")
	sid := h.Get("Mcp-Session-Id")
	if st != http.StatusOK || sid == "" || !strings.Contains(b, `"protocolVersion":"`+version+`"`) {
		t.Fatalf("initialize at %s: %d %s (session %q)", version, st, b, sid)
	}
	return sid
}

// TestAttackLegacyGETUnsupportedProtocolVersion: a session's GET stream
// request with an MCP-Protocol-Version the server does not support is
// served (200, an SSE stream). Streamable HTTP 2025-06-18 and 2025-11-25,
// "Protocol Version Header": "If the server receives a request with an
// invalid or unsupported MCP-Protocol-Version, it MUST respond with 400 Bad
// Request." POSTs of the same session get that 400 (legacy_http.go), GET
// does not check the header at all.
func TestAttackLegacyGETUnsupportedProtocolVersion(t *testing.T) {
	_, srv := startLegacyHTTP(t)
	sid := openSessionVersion(t, srv.URL, "2025-11-25")
	for _, v := range []string{"1999-01-01", "2026-07-28", "garbage"} {
		st, b, h := lsaDo(t, http.MethodGet, srv.URL, "",
			"Accept", "text/event-stream", "Mcp-Session-Id", sid, "MCP-Protocol-Version", v)
		if st != http.StatusBadRequest {
			t.Errorf("GET stream with MCP-Protocol-Version %q: %d %q (Content-Type %q), want 400", v, st, b, h.Get("Content-Type"))
		}
	}
}

// TestAttackLegacyDELETEUnsupportedProtocolVersion: DELETE with an
// unsupported MCP-Protocol-Version ends the session (200) instead of being
// refused with 400 (same spec sentence as above); the session, which a
// valid request never ended, is then gone (404).
func TestAttackLegacyDELETEUnsupportedProtocolVersion(t *testing.T) {
	_, srv := startLegacyHTTP(t)
	sid := openSessionVersion(t, srv.URL, "2025-11-25")
	st, b, _ := lsaDo(t, http.MethodDelete, srv.URL, "", "Mcp-Session-Id", sid, "MCP-Protocol-Version", "1999-01-01")
	if st != http.StatusBadRequest {
		t.Errorf("DELETE with MCP-Protocol-Version 1999-01-01: %d %q, want 400", st, b)
	}
	st, b, _ = lsaDo(t, http.MethodPost, srv.URL, lgBody("2", "ping", ""),
		"Content-Type", "application/json", "Accept", "application/json, text/event-stream",
		"Mcp-Session-Id", sid, "MCP-Protocol-Version", "2025-11-25")
	if st != http.StatusOK {
		t.Errorf("ping after a refused DELETE: %d %s, want 200 (the session must survive a request refused with 400)", st, b)
	}
}

// TestAttackLegacyInitializeUnsupportedProtocolVersionHeader: an
// initialize POST carrying MCP-Protocol-Version: 1999-01-01 opens a
// session (200 with Mcp-Session-Id). The same spec sentence ("a request
// with an invalid or unsupported MCP-Protocol-Version ... MUST respond with
// 400 Bad Request") names no exception for initialize, and the server
// already reads that header on initialize (an initialize sent with
// 2026-07-28 is routed to the modern core).
func TestAttackLegacyInitializeUnsupportedProtocolVersionHeader(t *testing.T) {
	_, srv := startLegacyHTTP(t)
	st, b, h := lsaDo(t, http.MethodPost, srv.URL,
		lgBody("1", "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"attack","version":"1"}}`),
		"Content-Type", "application/json", "Accept", "application/json, text/event-stream", "MCP-Protocol-Version", "1999-01-01")
	if st != http.StatusBadRequest || h.Get("Mcp-Session-Id") != "" {
		t.Errorf("initialize with MCP-Protocol-Version 1999-01-01: %d %s, session %q; want 400 and no session", st, b, h.Get("Mcp-Session-Id"))
	}
}

// TestAttackLegacyRepeatedProtocolVersionHeader: a session POST with two
// MCP-Protocol-Version headers, the second unsupported, is served (the
// legacy path reads only the first value with Header.Get). The modern path
// refuses a repeated MCP-Protocol-Version (httpwire.singleValue, 400
// -32020); here the request carries an unsupported value and must get 400
// (the spec sentence above).
func TestAttackLegacyRepeatedProtocolVersionHeader(t *testing.T) {
	_, srv := startLegacyHTTP(t)
	sid := openSessionVersion(t, srv.URL, "2025-11-25")
	st, b, _ := lsaDo(t, http.MethodPost, srv.URL, lgBody("2", "ping", ""),
		"Content-Type", "application/json", "Accept", "application/json, text/event-stream",
		"Mcp-Session-Id", sid, "MCP-Protocol-Version", "2025-11-25", "MCP-Protocol-Version", "1999-01-01")
	if st != http.StatusBadRequest {
		t.Errorf("ping with MCP-Protocol-Version 2025-11-25 and 1999-01-01: %d %s, want 400", st, b)
	}
}

// TestAttackLegacyBatchOverCapAllocation: a 2025-03-26 session's batch is
// capped at 64 messages (README, Compatibility), but the cap is checked
// after json.Unmarshal has split the whole body into a []json.RawMessage:
// a 4 MiB body of two million tiny elements ("[0,0,...]") makes the
// server allocate about 240 MB (≈60× the body) before answering -32600.
// Any client can open such a session, and this runs before admission
// (serveLimited), so the in-flight cap does not bound it either. The same
// body without a session costs about 20 MB (both sides' copies of it).
// README, Limits: "Every bound is explicit"; a refused batch must not cost
// a multiple of MaxBodyBytes.
func TestAttackLegacyBatchOverCapAllocation(t *testing.T) {
	_, srv := startLegacyHTTP(t)
	sid := openSessionVersion(t, srv.URL, "2025-03-26")
	body := "[" + strings.Repeat("0,", 2<<20-2) + "0]" // just under 4 MiB
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	st, b, _ := lsaDo(t, http.MethodPost, srv.URL, body,
		"Content-Type", "application/json", "Accept", "application/json, text/event-stream", "Mcp-Session-Id", sid)
	runtime.ReadMemStats(&m1)
	if st != http.StatusBadRequest || !strings.Contains(b, "-32600") {
		t.Fatalf("oversized batch: %d %s, want 400 -32600", st, b)
	}
	if got := (m1.TotalAlloc - m0.TotalAlloc) >> 20; got > 80 {
		t.Errorf("refusing a %d-byte batch of %d messages allocated %d MiB (client and server together); want well under 80 MiB", len(body), 2<<20-1, got)
	}
}

// TestAttackLegacyIdleSessionNotEnded: legacy_http.go documents "Sessions
// idle for legacySessionIdle (no request in flight, no open GET stream)
// are ended" (30 minutes), and an ended session's id must then get 404
// (Streamable HTTP 2025-11-25, Session Management: "The server MAY
// terminate the session at any time, after which it MUST respond to
// requests containing that session ID with HTTP 404 Not Found"). The
// expiry is only applied by a sweep inside another client's initialize
// (at most once a minute): a session idle for 31 minutes on a server
// where nobody else initialized since is still served.
func TestAttackLegacyIdleSessionNotEnded(t *testing.T) {
	f, srv := startLegacyHTTP(t)
	sid := openSessionVersion(t, srv.URL, "2025-11-25")
	f.s.sessions.mu.Lock()
	hs := f.s.sessions.m[sid]
	f.s.sessions.mu.Unlock()
	if hs == nil {
		t.Fatal("session not registered")
	}
	hs.lastUsed.Store(time.Now().Add(-legacySessionIdle - time.Minute).UnixNano())
	st, b, _ := lsaDo(t, http.MethodPost, srv.URL, lgBody("2", "ping", ""),
		"Content-Type", "application/json", "Accept", "application/json, text/event-stream",
		"Mcp-Session-Id", sid, "MCP-Protocol-Version", "2025-11-25")
	if st != http.StatusNotFound {
		t.Errorf("ping on a session idle for %v: %d %s, want 404 (idle sessions are ended)", legacySessionIdle+time.Minute, st, b)
	}
}

// TestAttackLegacySecondGETStreamConflict: a second GET stream on a session
// is answered 409 Conflict. Streamable HTTP 2025-11-25 (and 2025-06-18,
// 2025-03-26), "Listening for Messages from the Server": "The server MUST
// either return Content-Type: text/event-stream in response to this HTTP
// GET, or else return HTTP 405 Method Not Allowed", and "Multiple
// Connections": "The client MAY remain connected to multiple SSE streams
// simultaneously" (the server then sends each message on only one of
// them). 409 is neither answer. (TestLegacyHTTPSession asserts the 409 as
// designed; the TypeScript SDK does the same; this holds the code to the
// spec's letter.)
func TestAttackLegacySecondGETStreamConflict(t *testing.T) {
	_, srv := startLegacyHTTP(t)
	sid := openSessionVersion(t, srv.URL, "2025-11-25")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", sid)
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	first, err := http.DefaultClient.Do(req)
	if err != nil || first.StatusCode != http.StatusOK {
		t.Fatalf("first GET stream: %v %v", err, first)
	}
	defer first.Body.Close()
	st, b, h := lsaDo(t, http.MethodGet, srv.URL, "",
		"Accept", "text/event-stream", "Mcp-Session-Id", sid, "MCP-Protocol-Version", "2025-11-25")
	if !(st == http.StatusOK && strings.HasPrefix(h.Get("Content-Type"), "text/event-stream")) && st != http.StatusMethodNotAllowed {
		t.Errorf("second GET stream: %d %s, want text/event-stream or 405", st, b)
	}
}

// TestAttackLegacyParamsNotObjectMessage: in a session, logging/setLevel
// (and initialize, resources/subscribe) with params [] is answered
// "Invalid params: params.expected an object, got []": the decoder's
// message is glued to "params." as if it were a member name (legacy.go,
// legacyParamsError). tools/call in the same session says "params must be
// an object". The error must name where it is (README: errors give the
// place, a JSON pointer / member path).
func TestAttackLegacyParamsNotObjectMessage(t *testing.T) {
	_, srv := startLegacyHTTP(t)
	sid := openSessionVersion(t, srv.URL, "2025-11-25")
	for _, m := range []string{"logging/setLevel", "resources/subscribe"} {
		_, b, _ := lsaDo(t, http.MethodPost, srv.URL, lgBody("2", m, "[]"),
			"Content-Type", "application/json", "Accept", "application/json, text/event-stream",
			"Mcp-Session-Id", sid, "MCP-Protocol-Version", "2025-11-25")
		if !strings.Contains(b, "-32602") || strings.Contains(b, "params.expected") {
			t.Errorf("%s with params []: %s; want -32602 naming params, not \"params.expected ...\"", m, b)
		}
	}
}

// TestAttackLegacySessionPinsHugeClientInfo: initialize keeps the raw
// clientInfo (and capabilities) for the session's life, whatever their
// size up to MaxBodyBytes (an extra member is accepted), and every request
// the session forwards to the core carries a copy of them (modernParams).
// Ten sessions whose clientInfo holds a 3 MiB member keep ~28 MiB live; at
// the default MaxLegacySessions (1024) one anonymous client pins ~4 GiB,
// and each 60-byte tools/list in such a session allocates ~3 MiB. The
// README bounds what a session holds (Limits and shutdown: "each
// subscribes to 1024 URIs and 256 KiB of them at most") and says "Every
// bound is explicit"; this per-session memory has no bound but the body
// size. Either refusing such an initialize or keeping only what is read
// passes.
func TestAttackLegacySessionPinsHugeClientInfo(t *testing.T) {
	_, srv := startLegacyHTTP(t)
	pad := strings.Repeat("a", 3<<20)
	var m0, m1, m2 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	var sids []string
	for range 10 {
		st, b, h := lsaDo(t, http.MethodPost, srv.URL,
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
		st, b, _ := lsaDo(t, http.MethodPost, srv.URL, lgBody("2", "tools/list", ""),
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
