package server

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

// clientStreams is the count of open streams the limiter holds for client.
func clientStreams(s *Server, client string) int {
	s.lim.mu.Lock()
	defer s.lim.mu.Unlock()
	return s.lim.perClient[client]
}

// waitClientStreams waits until client holds n open streams.
func waitClientStreams(t *testing.T, s *Server, client string, n int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); clientStreams(s, client) != n; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("client %q holds %d streams, want %d", client, clientStreams(s, client), n)
		}
	}
}

// testClientKey carries the X-Client header of a test request, which
// headerClientID returns as Limits.ClientID.
type testClientKey struct{}

func withClientHeader(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), testClientKey{}, r.Header.Get("X-Client"))))
	})
}

func headerClientID(ctx context.Context) string {
	id, _ := ctx.Value(testClientKey{}).(string)
	return id
}

// TestListenStreamsPerClientOverStdio: a stdio connection (one client) at
// Limits.MaxListenStreamsPerClient gets its next listen refused with
// -32603 reason busy and a message naming the per-client limit, while
// another connection still opens a stream; cancelling one of the first
// client's streams frees its slot.
func TestListenStreamsPerClientOverStdio(t *testing.T) {
	k := limitServer(t, Limits{MaxListenStreamsPerClient: 2})
	a := startFaultStdio(t, k.s, 0)
	b := startFaultStdio(t, k.s, 0)
	listen := func(id string) string {
		return `{"jsonrpc":"2.0","id":"` + id + `","method":"subscriptions/listen","params":` + withMeta(`{"notifications":{"toolsListChanged":true}}`, defaultMeta) + `}`
	}
	acked := func(f *faultStdio, id string) {
		t.Helper()
		f.send(listen(id))
		if m := f.reply(); m["method"] != "notifications/subscriptions/acknowledged" {
			t.Fatalf("stream %s: %v, want it acknowledged", id, m)
		}
	}
	acked(a, "a1")
	acked(a, "a2")
	a.send(listen("a3"))
	m := a.reply()
	e, _ := m["error"].(map[string]any)
	if msg, _ := e["message"].(string); idOf(m) != `"a3"` || reasonOf(m) != reasonBusy || !strings.Contains(msg, "MaxListenStreamsPerClient") {
		t.Fatalf("a third stream of one client: %v, want -32603 reason busy naming MaxListenStreamsPerClient", m)
	}
	acked(b, "b1") // another client is not starved
	a.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a1"}}`)
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		k.s.lim.mu.Lock()
		n := k.s.lim.streams
		k.s.lim.mu.Unlock()
		if n == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d streams after one was cancelled, want 2", n)
		}
	}
	acked(a, "a4")
	a.closeIn(5 * time.Second)
	b.closeIn(5 * time.Second)
	k.s.lim.mu.Lock()
	left := len(k.s.lim.perClient)
	k.s.lim.mu.Unlock()
	if left != 0 {
		t.Errorf("%d clients still counted after their connections closed, want 0", left)
	}
}

// TestListenStreamsPerClientOverHTTP: the same bound on 2026-07-28 HTTP
// listen streams, the client named by Limits.ClientID: past it 503 with
// Retry-After, reason busy and the limit named; another client still
// opens one; a stream whose client goes away frees its slot.
func TestListenStreamsPerClientOverHTTP(t *testing.T) {
	k := limitServer(t, Limits{MaxListenStreamsPerClient: 1, ClientID: headerClientID})
	srv := httptest.NewServer(withClientHeader(k.s.HTTPHandler(HTTPOptions{})))
	defer srv.Close()
	open := func(ctx context.Context, client string) *http.Response {
		t.Helper()
		r := newPost(t, srv.URL, reqBody(`"l"`, methodListen, `"notifications":{"toolsListChanged":true}`), stdHeaders(methodListen, "", "X-Client", client))
		resp, err := http.DefaultClient.Do(r.WithContext(ctx))
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	first := open(ctx, "alice")
	defer first.Body.Close()
	if m, _ := newLgSSE(first.Body).next(t); first.StatusCode != 200 || m["method"] != "notifications/subscriptions/acknowledged" {
		t.Fatalf("alice's first stream: %d %v", first.StatusCode, m)
	}
	tctx, tcancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer tcancel()
	second := open(tctx, "alice")
	b, _ := io.ReadAll(second.Body)
	second.Body.Close()
	if second.StatusCode != http.StatusServiceUnavailable || second.Header.Get("Retry-After") == "" ||
		!strings.Contains(string(b), `"reason":"busy"`) || !strings.Contains(string(b), "MaxListenStreamsPerClient") {
		t.Fatalf("alice's second stream: %d %s, want 503 with Retry-After, reason busy, naming MaxListenStreamsPerClient", second.StatusCode, b)
	}
	bctx, bcancel := context.WithCancel(context.Background())
	defer bcancel()
	bob := open(bctx, "bob")
	defer bob.Body.Close()
	if m, _ := newLgSSE(bob.Body).next(t); bob.StatusCode != 200 || m["method"] != "notifications/subscriptions/acknowledged" {
		t.Fatalf("bob's stream while alice is at her bound: %d %v", bob.StatusCode, m)
	}
	cancel() // alice goes away
	waitClientStreams(t, k.s, "alice", 0)
	again := open(bctx, "alice")
	defer again.Body.Close()
	if m, _ := newLgSSE(again.Body).next(t); again.StatusCode != 200 || m["method"] != "notifications/subscriptions/acknowledged" {
		t.Fatalf("alice's stream after hers closed: %d %v", again.StatusCode, m)
	}
}

// TestLegacyGETStreamsCountPerClient: a legacy session's GET streams count
// against the client that opened the session, whoever sends the GET and
// across its sessions: past the bound 503 naming the per-client limit,
// while another client's session still opens one; a stream closed by its
// client or by DELETE of its session frees the slot.
func TestLegacyGETStreamsCountPerClient(t *testing.T) {
	f := newFixture(t, func(o *Options) {
		o.Limits.MaxListenStreamsPerClient = 2
		o.Limits.ClientID = headerClientID
	})
	srv := httptest.NewServer(withClientHeader(f.s.HTTPHandler(HTTPOptions{})))
	defer srv.Close()
	session := func(client string) *lgHTTP {
		t.Helper()
		c := &lgHTTP{t: t, url: srv.URL}
		resp := c.post(lgBody("1", "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}`),
			"MCP-Protocol-Version", "2025-11-25", "X-Client", client)
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if c.sid = resp.Header.Get("Mcp-Session-Id"); resp.StatusCode != 200 || c.sid == "" {
			t.Fatalf("initialize as %s: %d", client, resp.StatusCode)
		}
		return c
	}
	get := func(ctx context.Context, c *lgHTTP, sender string) *http.Response {
		t.Helper()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
		req.Header.Set("Accept", "text/event-stream")
		req.Header.Set("Mcp-Session-Id", c.sid)
		req.Header.Set("X-Client", sender)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	a1, a2, b1 := session("alice"), session("alice"), session("bob")
	ctx1, cancel1 := context.WithCancel(context.Background())
	defer cancel1()
	r1 := get(ctx1, a1, "alice")
	defer r1.Body.Close()
	r2 := get(context.Background(), a2, "alice")
	defer r2.Body.Close()
	if r1.StatusCode != 200 || r2.StatusCode != 200 {
		t.Fatalf("alice's two GET streams: %d %d", r1.StatusCode, r2.StatusCode)
	}
	waitClientStreams(t, f.s, "alice", 2)
	// Sent by "bob", but on alice's session: it counts against alice.
	st, b, hdr := lgDo(t, http.MethodGet, srv.URL, "", "Accept", "text/event-stream", "Mcp-Session-Id", a1.sid, "X-Client", "bob")
	if st != http.StatusServiceUnavailable || hdr.Get("Retry-After") == "" || !strings.Contains(b, "MaxListenStreamsPerClient") {
		t.Fatalf("a third GET stream on alice's sessions: %d %s, want 503 naming MaxListenStreamsPerClient", st, b)
	}
	bctx, bcancel := context.WithCancel(context.Background())
	defer bcancel()
	rb := get(bctx, b1, "bob")
	defer rb.Body.Close()
	if rb.StatusCode != 200 {
		t.Fatalf("bob's GET stream while alice is at her bound: %d", rb.StatusCode)
	}
	cancel1() // alice closes one stream
	waitClientStreams(t, f.s, "alice", 1)
	r3 := get(context.Background(), a1, "alice")
	defer r3.Body.Close()
	if r3.StatusCode != 200 {
		t.Fatalf("alice's GET stream after one closed: %d", r3.StatusCode)
	}
	waitClientStreams(t, f.s, "alice", 2)
	if st, b, _ := lgDo(t, http.MethodDelete, srv.URL, "", "Mcp-Session-Id", a2.sid, "MCP-Protocol-Version", "2025-11-25"); st != 200 {
		t.Fatalf("DELETE alice's second session: %d %s", st, b)
	}
	waitClientStreams(t, f.s, "alice", 1)
}

// TestListenStreamsPerClientOff: the zero MaxListenStreamsPerClient is the
// default of 64 (the 65th stream of one stdio connection is refused,
// naming the limit); a negative one turns the per-client bound off, and
// one client may then open as many as MaxListenStreams allows.
func TestListenStreamsPerClientOff(t *testing.T) {
	listen := func(id string) string {
		return `{"jsonrpc":"2.0","id":"` + id + `","method":"subscriptions/listen","params":` + withMeta(`{"notifications":{"toolsListChanged":true}}`, defaultMeta) + `}`
	}
	for _, tc := range []struct {
		perClient int
		refused   bool
	}{{0, true}, {-1, false}} {
		k := limitServer(t, Limits{MaxListenStreamsPerClient: tc.perClient})
		f := startFaultStdio(t, k.s, 0)
		for i := range 64 {
			id := strconv.Itoa(i)
			f.send(listen(id))
			if m := f.reply(); m["method"] != "notifications/subscriptions/acknowledged" {
				t.Fatalf("MaxListenStreamsPerClient %d: stream %s: %v", tc.perClient, id, m)
			}
		}
		f.send(listen("65th"))
		m := f.reply()
		e, _ := m["error"].(map[string]any)
		msg, _ := e["message"].(string)
		switch {
		case tc.refused && (reasonOf(m) != reasonBusy || !strings.Contains(msg, "MaxListenStreamsPerClient")):
			t.Errorf("the default bound: the 65th stream got %v, want -32603 reason busy naming MaxListenStreamsPerClient", m)
		case !tc.refused && m["method"] != "notifications/subscriptions/acknowledged":
			t.Errorf("the bound off: the 65th stream got %v, want it acknowledged", m)
		}
		k.s.lim.mu.Lock()
		counted := len(k.s.lim.perClient)
		k.s.lim.mu.Unlock()
		if !tc.refused && counted != 0 {
			t.Errorf("the bound off: %d clients counted, want none", counted)
		}
		f.closeIn(5 * time.Second)
	}
}
