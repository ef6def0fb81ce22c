package server

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// openClientSession opens a legacy HTTP session as client (X-Client,
// read by headerClientID) and returns it with the status and body of the
// initialize.
func openClientSession(t *testing.T, url, client string) (*lgHTTP, int, string) {
	t.Helper()
	c := &lgHTTP{t: t, url: url}
	resp := c.post(lgBody("1", "initialize", `{"protocolVersion":"2025-11-25","capabilities":`+fullCaps+`,"clientInfo":{"name":"x","version":"1"}}`),
		"MCP-Protocol-Version", "2025-11-25", "X-Client", client)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	c.sid = resp.Header.Get("Mcp-Session-Id")
	return c, resp.StatusCode, string(b)
}

// pingStatus pings session c and returns the HTTP status.
func pingStatus(c *lgHTTP, id string) int {
	st, _, _ := c.rpc(id, "ping", "")
	return st
}

func legacyPerClientServer(t *testing.T, l Limits) string {
	t.Helper()
	l.ClientID = headerClientID
	f := newFixture(t, func(o *Options) { o.Limits = l })
	srv := httptest.NewServer(withClientHeader(f.s.HTTPHandler(HTTPOptions{})))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestLegacyClientAtItsSessionCapEndsItsOwnIdlest: one client holds at most
// Limits.MaxLegacySessionsPerClient sessions; its next initialize ends its
// own session idle the longest (that id is then 404), and another
// client's session, idle longer still, is untouched.
func TestLegacyClientAtItsSessionCapEndsItsOwnIdlest(t *testing.T) {
	url := legacyPerClientServer(t, Limits{MaxLegacySessionsPerClient: 2, MaxLegacySessions: 100})
	bob, _, _ := openClientSession(t, url, "bob")
	time.Sleep(2 * time.Millisecond)
	a1, _, _ := openClientSession(t, url, "alice")
	time.Sleep(2 * time.Millisecond)
	a2, _, _ := openClientSession(t, url, "alice")
	time.Sleep(2 * time.Millisecond)
	a3, st, b := openClientSession(t, url, "alice")
	if st != http.StatusOK || a3.sid == "" {
		t.Fatalf("alice's third initialize: %d %s, want a session (her idlest one ended)", st, b)
	}
	if got := pingStatus(a1, "2"); got != http.StatusNotFound {
		t.Errorf("alice's first session after her third initialize: %d, want 404 (ended: the idlest of hers)", got)
	}
	for name, c := range map[string]*lgHTTP{"alice's second": a2, "alice's third": a3, "bob's": bob} {
		if got := pingStatus(c, "3"); got != http.StatusOK {
			t.Errorf("%s session: %d, want 200", name, got)
		}
	}
}

// TestLegacyFullServerEvictsFromTheClientHoldingMost: at
// Limits.MaxLegacySessions a new session ends an idle session of the
// client holding the most, not the idlest session of a client with one:
// one client opening sessions cannot push out everyone else's.
func TestLegacyFullServerEvictsFromTheClientHoldingMost(t *testing.T) {
	url := legacyPerClientServer(t, Limits{MaxLegacySessions: 3})
	bob, _, _ := openClientSession(t, url, "bob") // idle the longest
	time.Sleep(2 * time.Millisecond)
	a1, _, _ := openClientSession(t, url, "alice")
	time.Sleep(2 * time.Millisecond)
	a2, _, _ := openClientSession(t, url, "alice")
	time.Sleep(2 * time.Millisecond)
	a3, st, b := openClientSession(t, url, "alice")
	if st != http.StatusOK {
		t.Fatalf("alice's third initialize on a full server: %d %s", st, b)
	}
	if got := pingStatus(bob, "2"); got != http.StatusOK {
		t.Errorf("bob's only session after alice filled the server: %d, want 200 (alice holds the most; hers goes)", got)
	}
	if got := pingStatus(a1, "3"); got != http.StatusNotFound {
		t.Errorf("alice's idlest session: %d, want 404", got)
	}
	for _, c := range []*lgHTTP{a2, a3} {
		if got := pingStatus(c, "4"); got != http.StatusOK {
			t.Errorf("alice's newer session: %d, want 200", got)
		}
	}
}

// TestLegacyClientAtItsSessionCapAllInUseIsRefused: when every session
// of a client at its cap is in use (a tool call waiting for the client's
// elicitation answer), its next initialize gets 503 with Retry-After,
// reason busy, naming Limits.MaxLegacySessionsPerClient, and no session;
// another client still opens one.
func TestLegacyClientAtItsSessionCapAllInUseIsRefused(t *testing.T) {
	url := legacyPerClientServer(t, Limits{MaxLegacySessionsPerClient: 1})
	a, _, _ := openClientSession(t, url, "alice")
	resp := a.post(lgBody("2", "tools/call", `{"name":"ask_name"}`))
	defer resp.Body.Close()
	if req, _ := newLgSSE(resp.Body).next(t); req["method"] != "elicitation/create" {
		t.Fatalf("ask_name: %v", req)
	}
	c, st, b := openClientSession(t, url, "alice")
	if st != http.StatusServiceUnavailable || c.sid != "" || !strings.Contains(b, `"reason":"busy"`) ||
		!strings.Contains(b, "MaxLegacySessionsPerClient") {
		t.Errorf("alice's second initialize with her one session in use: %d %s (session %q), want 503, reason busy, naming MaxLegacySessionsPerClient, no session", st, b, c.sid)
	}
	if _, st, b := openClientSession(t, url, "bob"); st != http.StatusOK {
		t.Errorf("bob's initialize: %d %s, want 200", st, b)
	}
}
