package server

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A second GET stream on a session is served (Streamable HTTP, "Listening
// for Messages from the Server": "The server MUST either return
// Content-Type: text/event-stream in response to this HTTP GET, or else
// return HTTP 405"; "Multiple Connections": "The client MAY remain
// connected to multiple SSE streams simultaneously").
func TestLegacySessionServesSeveralGETStreams(t *testing.T) {
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
	st, b, h := lgDo(t, http.MethodGet, srv.URL, "",
		"Accept", "text/event-stream", "Mcp-Session-Id", sid, "MCP-Protocol-Version", "2025-11-25")
	if !(st == http.StatusOK && strings.HasPrefix(h.Get("Content-Type"), "text/event-stream")) && st != http.StatusMethodNotAllowed {
		t.Errorf("second GET stream: %d %s, want text/event-stream or 405", st, b)
	}
}

// A session holds at most maxSessionStreams GET streams (one more is 429,
// the others stay open), and each message the server sends the session is
// written on exactly one of them (Streamable HTTP, Multiple Connections:
// "The server MUST send each of its JSON-RPC messages on only one of the
// connected streams").
func TestLegacyGETStreamsBoundedEachMessageOnce(t *testing.T) {
	f, srv := startLegacyHTTP(t)
	c := openSession(t, srv.URL, fullCaps)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	streams := make([]*lgSSE, maxSessionStreams)
	for i := range streams {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
		req.Header.Set("Accept", "text/event-stream")
		req.Header.Set("Mcp-Session-Id", c.sid)
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET stream %d: %v %v", i+1, err, resp)
		}
		defer resp.Body.Close()
		streams[i] = newLgSSE(resp.Body)
	}
	st, b, _ := lgDo(t, http.MethodGet, srv.URL, "", "Accept", "text/event-stream", "Mcp-Session-Id", c.sid)
	if st != http.StatusTooManyRequests || !strings.Contains(b, strconv.Itoa(maxSessionStreams)+" open SSE streams") {
		t.Errorf("GET stream %d: %d %s, want 429 naming the bound", maxSessionStreams+1, st, b)
	}
	if _, _, raw := c.rpc("5", "resources/subscribe", `{"uri":"test://static-text"}`); raw != `{"jsonrpc":"2.0","id":5,"result":{}}` {
		t.Fatalf("resources/subscribe: %s", raw)
	}
	for _, send := range []func(){
		func() { f.s.ResourceUpdated("test://static-text") },
		func() {
			_ = f.s.AddPrompts(NewPrompt(PromptInfo{Name: "later"}, func(ctx context.Context, in noArgs) (string, error) { return "x", nil }))
		},
	} {
		send()
		got := 0
		deadline := time.After(500 * time.Millisecond)
	collect:
		for {
			for _, s := range streams {
				select {
				case <-s.events:
					got++
				default:
				}
			}
			select {
			case <-deadline:
				break collect
			case <-time.After(10 * time.Millisecond):
			}
		}
		if got != 1 {
			t.Errorf("one notification arrived %d times on the session's %d streams, want once", got, len(streams))
		}
	}
}
