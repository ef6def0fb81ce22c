package server

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"sync"
	"testing"
)

// ProtocolVersion's doc: "the protocol version the current request declared
// (in a legacy session, the version initialize negotiated)"; README
// (Visibility): Options.Visible is "decided per request, by principal,
// client capabilities or anything in the context; a hidden ... resource is
// ... answered as unknown when called ... a legacy resources/subscribe
// hear[s] no update of a hidden resource". A Visible that hides
// file:///modern from clients of the legacy revisions (ProtocolVersion(ctx)
// before 2026-07-28) hides it from a 2025-11-25 session's resources/read
// (-32602 Resource not found, the negotiated version seen), but the same
// session's resources/subscribe asks Visible with legacySession.callerCtx,
// whose synthetic request claims protocolVersion 2026-07-28 and carries no
// legacy call: Visible sees "2026-07-28" and the subscription to the
// hidden resource is accepted.
func TestLegacySubscribeVisibleSeesTheNegotiatedVersion(t *testing.T) {
	read := func(ctx context.Context) (string, error) { return "x", nil }
	var mu sync.Mutex
	seen := map[string]bool{}
	s, err := New(Options{Name: "v", Version: "1", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Resources: []Resource{NewResource(ResourceInfo{URI: "file:///modern", Name: "modern"}, read)},
		Visible: func(ctx context.Context, it Item) bool {
			if it.Kind != ItemResource || it.Name != "file:///modern" {
				return true
			}
			v := ProtocolVersion(ctx)
			mu.Lock()
			seen[v] = true
			mu.Unlock()
			return v >= "2026-07-28"
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Shutdown(context.Background()) })
	srv := httptest.NewServer(s.HTTPHandler(HTTPOptions{}))
	t.Cleanup(srv.Close)
	sess := &lgHTTP{t: t, url: srv.URL + "/mcp"}
	resp := sess.post(lgBody("1", "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}`))
	resp.Body.Close()
	if sess.sid = resp.Header.Get("Mcp-Session-Id"); resp.StatusCode != 200 || sess.sid == "" {
		t.Fatalf("initialize: %d sid %q", resp.StatusCode, sess.sid)
	}
	if _, m, raw := sess.rpc("2", "resources/read", `{"uri":"file:///modern"}`); m["error"] == nil {
		t.Fatalf("precondition: the 2025-11-25 session reads file:///modern, which Visible hides from it: %s", raw)
	}
	if _, m, raw := sess.rpc("3", "resources/subscribe", `{"uri":"file:///modern"}`); m["error"] == nil {
		mu.Lock()
		defer mu.Unlock()
		t.Errorf("resources/subscribe of file:///modern, hidden from this 2025-11-25 session's read, was accepted (Visible saw versions %v): %s", seen, raw)
	}
}
