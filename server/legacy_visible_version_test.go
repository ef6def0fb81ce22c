package server

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"sync"
	"testing"
)

// Options.Visible sees a legacy session's resources/subscribe with the
// version initialize negotiated (ProtocolVersion(ctx)), as it sees the
// session's resources/read: a resource hidden from clients before
// 2026-07-28 is refused to a 2025-11-25 session's subscribe as unknown.
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
