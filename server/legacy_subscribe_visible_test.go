package server

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// TestLegacyUpdatesHonourVisible: a legacy session subscribed to a URI
// nothing served yet does not hear resources/updated of a resource later
// registered there that Options.Visible hides from its caller (reading it
// is "Resource not found" for them), as a 2026-07-28 listen stream does
// not: both ask the same rule (resourceRegistry.readable) at delivery.
//
// README (Authorization): "a listen stream (or legacy
// resources/subscribe) is granted updates only of the resources its caller
// may read"; options.go: Visible decides "which registered ... resources
// ... exist for its caller".
func TestLegacyUpdatesHonourVisible(t *testing.T) {
	s, err := New(Options{Name: "authsrv", Version: "1", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Resources: []Resource{NewResource(ResourceInfo{URI: "file:///seed", Name: "seed"}, func(ctx context.Context) (string, error) { return "x", nil })},
		Visible: func(ctx context.Context, it Item) bool {
			return it.Kind != ItemResource || it.Name != "file:///hidden" || Principal(ctx).HasScope("admin")
		}})
	if err != nil {
		t.Fatal(err)
	}
	srv := protect(t, s, authTokens)

	sess := &lgHTTP{t: t, url: srv.URL + "/mcp"}
	resp := sess.post(lgBody("1", "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}`), bearer("alice-read")...)
	resp.Body.Close()
	if sess.sid = resp.Header.Get("Mcp-Session-Id"); resp.StatusCode != 200 || sess.sid == "" {
		t.Fatalf("initialize: %d sid %q", resp.StatusCode, sess.sid)
	}
	for i, uri := range []string{"file:///hidden", "file:///open"} {
		resp = sess.post(lgBody(strconv.Itoa(i+2), "resources/subscribe", `{"uri":"`+uri+`"}`), bearer("alice-read")...)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("subscribe %s: %d", uri, resp.StatusCode)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	greq, _ := http.NewRequestWithContext(ctx, http.MethodGet, sess.url, nil)
	greq.Header.Set("Accept", "text/event-stream")
	greq.Header.Set("Mcp-Session-Id", sess.sid)
	greq.Header.Set("Authorization", "Bearer alice-read")
	gresp, err := http.DefaultClient.Do(greq)
	if err != nil || gresp.StatusCode != 200 {
		t.Fatalf("GET stream: %v %v", err, gresp)
	}
	defer gresp.Body.Close()
	stream := newLgSSE(gresp.Body)
	read := func(ctx context.Context) (string, error) { return "x", nil }
	if err := s.AddResources(
		NewResource(ResourceInfo{URI: "file:///hidden", Name: "hidden"}, read),
		NewResource(ResourceInfo{URI: "file:///open", Name: "open"}, read)); err != nil {
		t.Fatal(err)
	}
	// The caller cannot read it: Visible hides it from alice-read.
	resp = sess.post(lgBody("9", "resources/read", `{"uri":"file:///hidden"}`), bearer("alice-read")...)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if strings.Contains(string(b), `"contents"`) {
		t.Fatalf("alice-read read the hidden resource: %s", b)
	}
	s.ResourceUpdated("file:///hidden")
	s.ResourceUpdated("file:///open")
	for {
		m, raw := stream.next(t)
		if m["method"] != "notifications/resources/updated" {
			continue // the list change
		}
		if uri := m["params"].(map[string]any)["uri"]; uri != "file:///open" {
			t.Fatalf("alice-read heard of a resource Options.Visible hides from her: %s", raw)
		}
		return
	}
}
