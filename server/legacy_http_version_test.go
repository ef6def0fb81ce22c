package server

import (
	"net/http"
	"testing"
)

// A session's GET stream request with an MCP-Protocol-Version the server
// does not support for a session is refused with 400, as its POSTs are
// (Streamable HTTP 2025-06-18 and 2025-11-25, "Protocol Version Header":
// "If the server receives a request with an invalid or unsupported
// MCP-Protocol-Version, it MUST respond with 400 Bad Request").
func TestLegacyGETStreamRefusesUnsupportedProtocolVersion(t *testing.T) {
	_, srv := startLegacyHTTP(t)
	sid := openSessionVersion(t, srv.URL, "2025-11-25")
	for _, v := range []string{"1999-01-01", "2026-07-28", "garbage"} {
		st, b, h := lgDo(t, http.MethodGet, srv.URL, "",
			"Accept", "text/event-stream", "Mcp-Session-Id", sid, "MCP-Protocol-Version", v)
		if st != http.StatusBadRequest {
			t.Errorf("GET stream with MCP-Protocol-Version %q: %d %q (Content-Type %q), want 400", v, st, b, h.Get("Content-Type"))
		}
	}
}

// DELETE with an unsupported MCP-Protocol-Version is refused with 400 and
// the session survives it.
func TestLegacyDELETERefusesUnsupportedProtocolVersion(t *testing.T) {
	_, srv := startLegacyHTTP(t)
	sid := openSessionVersion(t, srv.URL, "2025-11-25")
	st, b, _ := lgDo(t, http.MethodDelete, srv.URL, "", "Mcp-Session-Id", sid, "MCP-Protocol-Version", "1999-01-01")
	if st != http.StatusBadRequest {
		t.Errorf("DELETE with MCP-Protocol-Version 1999-01-01: %d %q, want 400", st, b)
	}
	st, b, _ = lgDo(t, http.MethodPost, srv.URL, lgBody("2", "ping", ""),
		"Content-Type", "application/json", "Accept", "application/json, text/event-stream",
		"Mcp-Session-Id", sid, "MCP-Protocol-Version", "2025-11-25")
	if st != http.StatusOK {
		t.Errorf("ping after a refused DELETE: %d %s, want 200 (the session must survive a request refused with 400)", st, b)
	}
}

// An initialize POST carrying an unsupported MCP-Protocol-Version gets 400
// and opens no session (the spec sentence names no exception for
// initialize; a supported modern value routes it to the modern core).
func TestLegacyInitializeRefusesUnsupportedProtocolVersionHeader(t *testing.T) {
	_, srv := startLegacyHTTP(t)
	st, b, h := lgDo(t, http.MethodPost, srv.URL,
		lgBody("1", "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"attack","version":"1"}}`),
		"Content-Type", "application/json", "Accept", "application/json, text/event-stream", "MCP-Protocol-Version", "1999-01-01")
	if st != http.StatusBadRequest || h.Get("Mcp-Session-Id") != "" {
		t.Errorf("initialize with MCP-Protocol-Version 1999-01-01: %d %s, session %q; want 400 and no session", st, b, h.Get("Mcp-Session-Id"))
	}
}

// A session POST with two MCP-Protocol-Version headers is refused with 400,
// as the modern path refuses a repeated one: no path serves a request by
// the first of several values.
func TestLegacySessionRefusesRepeatedProtocolVersionHeader(t *testing.T) {
	_, srv := startLegacyHTTP(t)
	sid := openSessionVersion(t, srv.URL, "2025-11-25")
	st, b, _ := lgDo(t, http.MethodPost, srv.URL, lgBody("2", "ping", ""),
		"Content-Type", "application/json", "Accept", "application/json, text/event-stream",
		"Mcp-Session-Id", sid, "MCP-Protocol-Version", "2025-11-25", "MCP-Protocol-Version", "1999-01-01")
	if st != http.StatusBadRequest {
		t.Errorf("ping with MCP-Protocol-Version 2025-11-25 and 1999-01-01: %d %s, want 400", st, b)
	}
}
