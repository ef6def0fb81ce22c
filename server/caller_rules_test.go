package server

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// One _meta.progressToken is judged by one rule on every method: an
// integer beyond int64 (1e400, 99999999999999999999), which the generated
// mcp.ProgressToken cannot hold, is refused by the core's _meta check as
// it is by subscriptions/listen's and completion/complete's decoding, not
// answered on some methods and refused on others.
func TestProgressTokenOneRuleForEveryMethod(t *testing.T) {
	for _, tok := range []string{`1e400`, `99999999999999999999`} {
		f := newFixture(t)
		meta := `{"progressToken":` + tok + `,"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
		r, _ := rpcMeta(t, f.s, "tools/call", `{"name":"echo","arguments":{"text":"x"}}`, meta, newRecorder())
		toolsOK := r.Error == nil
		r, _ = rpcMeta(t, f.s, "completion/complete", `{"ref":{"type":"ref/prompt","name":"greet"},"argument":{"name":"name","value":"a"}}`, meta, newRecorder())
		if complOK := r.Error == nil || !strings.Contains(r.Error.Message, "progressToken"); complOK != toolsOK {
			t.Errorf("progressToken %s: tools/call accepted=%v but completion/complete accepted=%v (%v)", tok, toolsOK, complOK, r.Error)
		}

		msg := `{"jsonrpc":"2.0","id":7,"method":"subscriptions/listen","params":` + withMeta(`{"notifications":{"toolsListChanged":true}}`, meta) + `}`
		w := newRecorder()
		done := make(chan Response, 1)
		go func() { done <- f.s.HandleBytes(context.Background(), []byte(msg), w) }()
		listenOK := false
		select {
		case resp := <-done:
			listenOK = !strings.Contains(string(resp.Body), "progressToken")
			if listenOK != toolsOK {
				t.Errorf("progressToken %s: tools/call accepted=%v but subscriptions/listen answered %s", tok, toolsOK, resp.Body)
			}
			continue
		case <-w.ch:
			listenOK = true
		case <-time.After(3 * time.Second):
			t.Fatal("listen: neither acknowledged nor answered")
		}
		if listenOK != toolsOK {
			t.Errorf("progressToken %s: tools/call accepted=%v but subscriptions/listen acknowledged", tok, toolsOK)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_ = f.s.Shutdown(ctx)
		cancel()
		<-done
	}
}

// vipServer serves file:///open and, when registered, file:///vip, which
// Options.Visible shows only to a client whose clientInfo names
// "vip-client" (options.go: Visible decides "by Principal,
// ClientCapabilities, ClientInfo, …"), and opens a legacy 2025-11-25
// session as that client.
func vipServer(t *testing.T, withVIP bool) (*Server, *lgHTTP) {
	read := func(ctx context.Context) (string, error) { return "x", nil }
	res := []Resource{NewResource(ResourceInfo{URI: "file:///open", Name: "open"}, read)}
	if withVIP {
		res = append(res, NewResource(ResourceInfo{URI: "file:///vip", Name: "vip"}, read))
	}
	s, err := New(Options{Name: "v", Version: "1", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Resources: res,
		Visible: func(ctx context.Context, it Item) bool {
			if it.Kind != ItemResource || it.Name != "file:///vip" {
				return true
			}
			ci := ClientInfo(ctx)
			return ci != nil && ci.Name == "vip-client"
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Shutdown(context.Background()) })
	srv := httptest.NewServer(s.HTTPHandler(HTTPOptions{}))
	t.Cleanup(srv.Close)
	sess := &lgHTTP{t: t, url: srv.URL + "/mcp"}
	resp := sess.post(lgBody("1", "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"vip-client","version":"1"}}`))
	resp.Body.Close()
	if sess.sid = resp.Header.Get("Mcp-Session-Id"); resp.StatusCode != 200 || sess.sid == "" {
		t.Fatalf("initialize: %d sid %q", resp.StatusCode, sess.sid)
	}
	return s, sess
}

// A legacy resources/subscribe asks Options.Visible for the session's
// client: a resource Visible shows to the client initialize named (and
// which that client can read) is subscribed to, not refused as not found.
func TestLegacySubscribeVisibleSeesTheClient(t *testing.T) {
	_, sess := vipServer(t, true)
	if _, m, raw := sess.rpc("2", "resources/read", `{"uri":"file:///vip"}`); m["result"] == nil {
		t.Fatalf("precondition: the vip client cannot read file:///vip: %s", raw)
	}
	if _, m, raw := sess.rpc("3", "resources/subscribe", `{"uri":"file:///vip"}`); m["result"] == nil {
		t.Fatalf("resources/subscribe of file:///vip, which the same session just read: %s", raw)
	}
}

// A legacy session's resources/updated is decided by Options.Visible for
// the client that subscribed, as initialize named it: the vip client,
// subscribed to file:///vip before it was served, hears of its updates once
// it is registered and shown to that client.
func TestLegacyUpdatesVisibleSeesTheSubscriber(t *testing.T) {
	s, sess := vipServer(t, false)
	for i, uri := range []string{"file:///vip", "file:///open"} {
		if _, m, raw := sess.rpc(string(rune('3'+i)), "resources/subscribe", `{"uri":"`+uri+`"}`); m["result"] == nil {
			t.Fatalf("subscribe %s: %s", uri, raw)
		}
	}
	if err := s.AddResources(NewResource(ResourceInfo{URI: "file:///vip", Name: "vip"},
		func(ctx context.Context) (string, error) { return "x", nil })); err != nil {
		t.Fatal(err)
	}
	if _, m, raw := sess.rpc("6", "resources/read", `{"uri":"file:///vip"}`); m["result"] == nil {
		t.Fatalf("precondition: the vip client cannot read file:///vip: %s", raw)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	greq, _ := http.NewRequestWithContext(ctx, http.MethodGet, sess.url, nil)
	greq.Header.Set("Accept", "text/event-stream")
	greq.Header.Set("Mcp-Session-Id", sess.sid)
	gresp, err := http.DefaultClient.Do(greq)
	if err != nil || gresp.StatusCode != 200 {
		t.Fatalf("GET stream: %v %v", err, gresp)
	}
	defer gresp.Body.Close()
	stream := newLgSSE(gresp.Body)
	time.Sleep(50 * time.Millisecond) // the stream is attached
	s.ResourceUpdated("file:///vip")
	s.ResourceUpdated("file:///open")
	for {
		m, raw := stream.next(t)
		if m["method"] != "notifications/resources/updated" {
			continue
		}
		if uri := m["params"].(map[string]any)["uri"]; uri != "file:///vip" {
			t.Fatalf("first update %s: the update of file:///vip, which Visible shows this client and it reads, was dropped", raw)
		}
		return
	}
}
