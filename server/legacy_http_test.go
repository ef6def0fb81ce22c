package server

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// Legacy sessions over Streamable HTTP, as a 2025-era client drives them.

type lgHTTP struct {
	t   *testing.T
	url string
	sid string
}

func (c *lgHTTP) post(body string, hdr ...string) *http.Response {
	c.t.Helper()
	req, err := http.NewRequest(http.MethodPost, c.url, strings.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if c.sid != "" {
		req.Header.Set("Mcp-Session-Id", c.sid)
		req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	return resp
}

// rpc posts a request and returns the decoded JSON response body.
func (c *lgHTTP) rpc(id, method, params string) (int, map[string]any, string) {
	c.t.Helper()
	resp := c.post(lgBody(id, method, params))
	defer resp.Body.Close()
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		ev := newLgSSE(resp.Body)
		for {
			m, raw := ev.next(c.t)
			if m["id"] != nil && m["method"] == nil {
				return resp.StatusCode, m, raw
			}
		}
	}
	b, _ := io.ReadAll(resp.Body)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	return resp.StatusCode, m, string(b)
}

func lgBody(id, method, params string) string {
	s := `{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `"`
	if params != "" {
		s += `,"params":` + params
	}
	return s + "}"
}

type lgSSE struct {
	events chan string
}

// newLgSSE parses the data of SSE events in the background.
func newLgSSE(r io.Reader) *lgSSE {
	ev := &lgSSE{events: make(chan string, 100)}
	go func() {
		defer close(ev.events)
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<20), 1<<22)
		var data strings.Builder
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "data:"):
				data.WriteString(strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
			case line == "" && data.Len() > 0:
				ev.events <- data.String()
				data.Reset()
			}
		}
	}()
	return ev
}

// mergeLgSSE reads the events of a and b as one stream, which ends when
// both have.
func mergeLgSSE(a, b *lgSSE) *lgSSE {
	ev := &lgSSE{events: make(chan string, 100)}
	var wg sync.WaitGroup
	for _, in := range []*lgSSE{a, b} {
		wg.Go(func() {
			for e := range in.events {
				ev.events <- e
			}
		})
	}
	go func() {
		wg.Wait()
		close(ev.events)
	}()
	return ev
}

func (ev *lgSSE) next(t *testing.T) (map[string]any, string) {
	t.Helper()
	select {
	case raw, ok := <-ev.events:
		if !ok {
			t.Fatal("SSE stream ended")
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(raw), &m); err != nil {
			t.Fatalf("SSE data is not JSON: %q", raw)
		}
		return m, raw
	case <-time.After(3 * time.Second):
		t.Fatal("no SSE event")
		return nil, ""
	}
}

func startLegacyHTTP(t *testing.T) (*fixture, *httptest.Server) {
	f := newFixture(t)
	srv := httptest.NewServer(f.s.HTTPHandler(HTTPOptions{}))
	t.Cleanup(srv.Close)
	return f, srv
}

// openSession initializes a session and returns its client.
func openSession(t *testing.T, url, caps string) *lgHTTP {
	t.Helper()
	c := &lgHTTP{t: t, url: url}
	resp := c.post(lgBody("1", "initialize", `{"protocolVersion":"2025-11-25","capabilities":`+caps+`,"clientInfo":{"name":"legacy-http","version":"1"}}`),
		"MCP-Protocol-Version", "2025-11-25")
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("initialize: %d %s", resp.StatusCode, b)
	}
	c.sid = resp.Header.Get("Mcp-Session-Id")
	if !regexp.MustCompile(`^[\x21-\x7e]+$`).MatchString(c.sid) {
		t.Fatalf("Mcp-Session-Id %q is not visible ASCII", c.sid)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil || resultOf(t, m)["protocolVersion"] != "2025-11-25" {
		t.Fatalf("initialize result %s", b)
	}
	r := c.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	r.Body.Close()
	if r.StatusCode != http.StatusAccepted {
		t.Fatalf("notifications/initialized: %d", r.StatusCode)
	}
	return c
}

func TestLegacyHTTPSession(t *testing.T) {
	f, srv := startLegacyHTTP(t)
	c := openSession(t, srv.URL, fullCaps)

	if st, _, raw := c.rpc("2", "ping", ""); st != 200 || raw != `{"jsonrpc":"2.0","id":2,"result":{}}` {
		t.Errorf("ping: %d %s", st, raw)
	}
	st, m, _ := c.rpc("3", "tools/list", "")
	noModernFields(t, "tools/list", resultOf(t, m))
	if st != 200 {
		t.Errorf("tools/list status %d", st)
	}
	// JSON-RPC errors keep HTTP 200 in a legacy session.
	if st, m, _ := c.rpc("4", "tools/call", `{"name":"no_such_tool"}`); st != 200 || m["error"] == nil {
		t.Errorf("unknown tool: %d %v", st, m)
	}

	// The session's GET stream carries unsolicited notifications.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	greq, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
	greq.Header.Set("Accept", "text/event-stream")
	greq.Header.Set("Mcp-Session-Id", c.sid)
	gresp, err := http.DefaultClient.Do(greq)
	if err != nil || gresp.StatusCode != 200 || !strings.HasPrefix(gresp.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("GET stream: %v %v", err, gresp)
	}
	// A second GET stream on the session is served too; each message
	// comes on one of the two (read here as one).
	greq2, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
	greq2.Header.Set("Accept", "text/event-stream")
	greq2.Header.Set("Mcp-Session-Id", c.sid)
	r2, err := http.DefaultClient.Do(greq2)
	if err != nil || r2.StatusCode != http.StatusOK || !strings.HasPrefix(r2.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("second GET stream: %v %v", err, r2)
	}
	defer r2.Body.Close()
	stream := mergeLgSSE(newLgSSE(gresp.Body), newLgSSE(r2.Body))
	if err := f.s.AddPrompts(NewPrompt(PromptInfo{Name: "later", Description: "Added later"}, func(ctx context.Context, in noArgs) (string, error) { return "x", nil })); err != nil {
		t.Fatal(err)
	}
	if n, _ := stream.next(t); n["method"] != "notifications/prompts/list_changed" {
		t.Errorf("GET stream after AddPrompts: %v", n)
	}
	if _, _, raw := c.rpc("5", "resources/subscribe", `{"uri":"test://static-text"}`); raw != `{"jsonrpc":"2.0","id":5,"result":{}}` {
		t.Errorf("resources/subscribe: %s", raw)
	}
	f.s.ResourceUpdated("test://static-text")
	if n, _ := stream.next(t); n["method"] != "notifications/resources/updated" {
		t.Errorf("GET stream after ResourceUpdated: %v", n)
	}

	// logging/setLevel, then the call's logs come on its own SSE response.
	if _, _, raw := c.rpc("6", "logging/setLevel", `{"level":"warning"}`); raw != `{"jsonrpc":"2.0","id":6,"result":{}}` {
		t.Errorf("logging/setLevel: %s", raw)
	}
	resp := c.post(lgBody("7", "tools/call", `{"name":"logs"}`))
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("logging call answered %s, want SSE", resp.Header.Get("Content-Type"))
	}
	ev := newLgSSE(resp.Body)
	if n, _ := ev.next(t); n["method"] != "notifications/message" || n["params"].(map[string]any)["level"] != "error" {
		t.Errorf("log event %v, want the error-level message only", n)
	}
	if r, _ := ev.next(t); idOf(r) != "7" || r["result"] == nil {
		t.Errorf("logging call result %v", r)
	}
	resp.Body.Close()

	// DELETE ends the session; its id is then unknown (404) and the GET
	// stream ends.
	req, _ := http.NewRequest(http.MethodDelete, srv.URL, nil)
	req.Header.Set("Mcp-Session-Id", c.sid)
	if r, err := http.DefaultClient.Do(req); err != nil || r.StatusCode != 200 {
		t.Fatalf("DELETE: %v %v", err, r)
	}
	if st, _, raw := c.rpc("8", "tools/list", ""); st != http.StatusNotFound {
		t.Errorf("after DELETE: %d %s, want 404", st, raw)
	}
	select {
	case _, ok := <-stream.events:
		if ok {
			t.Error("GET stream got an event after DELETE")
		}
	case <-time.After(3 * time.Second):
		t.Error("GET stream still open after DELETE")
	}
	gresp.Body.Close()
}

func TestLegacyHTTPUnknownSession(t *testing.T) {
	_, srv := startLegacyHTTP(t)
	c := &lgHTTP{t: t, url: srv.URL, sid: "no-such-session"}
	if st, _, raw := c.rpc("1", "tools/list", ""); st != http.StatusNotFound {
		t.Errorf("POST with an unknown session: %d %s", st, raw)
	}
	for _, method := range []string{http.MethodGet, http.MethodDelete} {
		req, _ := http.NewRequest(method, srv.URL, nil)
		req.Header.Set("Accept", "text/event-stream")
		req.Header.Set("Mcp-Session-Id", "no-such-session")
		if r, err := http.DefaultClient.Do(req); err != nil || r.StatusCode != http.StatusNotFound {
			t.Errorf("%s with an unknown session: %v %v", method, err, r)
		}
	}
	// Without a session, GET is still 405 and a legacy request that is not
	// initialize fails the modern validation (400).
	req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
	req.Header.Set("Accept", "text/event-stream")
	if r, err := http.DefaultClient.Do(req); err != nil || r.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET without a session: %v %v", err, r)
	}
	c.sid = ""
	if st, _, raw := c.rpc("2", "tools/list", ""); st != http.StatusBadRequest {
		t.Errorf("legacy tools/list without a session: %d %s", st, raw)
	}
	// A bad initialize opens no session.
	resp := c.post(lgBody("3", "initialize", `{"protocolVersion":"2025-11-25"}`))
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || resp.Header.Get("Mcp-Session-Id") != "" {
		t.Errorf("bad initialize: %d, session %q", resp.StatusCode, resp.Header.Get("Mcp-Session-Id"))
	}
}

// TestLegacyHTTPAskAlongsideModern runs a legacy tool call that waits for the
// client's elicitation answer while a modern stateless request is served.
func TestLegacyHTTPAskAlongsideModern(t *testing.T) {
	_, srv := startLegacyHTTP(t)
	c := openSession(t, srv.URL, fullCaps)

	resp := c.post(lgBody("2", "tools/call", `{"name":"ask_name"}`))
	defer resp.Body.Close()
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("ask_name answered %s, want SSE", resp.Header.Get("Content-Type"))
	}
	ev := newLgSSE(resp.Body)
	req, _ := ev.next(t)
	if req["method"] != "elicitation/create" || req["id"] == nil {
		t.Fatalf("server request %v", req)
	}

	// Meanwhile, modern stateless requests are served by the same handler.
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			modern := &lgHTTP{t: t, url: srv.URL}
			r := modern.post(`{"jsonrpc":"2.0","id":`+itoa(100+i)+`,"method":"tools/call","params":`+withMeta(`{"name":"echo","arguments":{"text":"modern"}}`, defaultMeta)+`}`,
				"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "echo")
			b, _ := io.ReadAll(r.Body)
			r.Body.Close()
			if r.StatusCode != 200 || !strings.Contains(string(b), `"resultType":"complete"`) || !strings.Contains(string(b), "modern") {
				t.Errorf("modern call during a legacy session: %d %s", r.StatusCode, b)
			}
		}()
	}
	wg.Wait()

	answer := c.post(`{"jsonrpc":"2.0","id":` + idOf(req) + `,"result":{"action":"accept","content":{"name":"Lin"}}}`)
	answer.Body.Close()
	if answer.StatusCode != http.StatusAccepted {
		t.Fatalf("posting the answer: %d", answer.StatusCode)
	}
	res, _ := ev.next(t)
	if idOf(res) != "2" || lgText(t, resultOf(t, res)) != "Hello, Lin!" {
		t.Errorf("ask_name result %v", res)
	}

	// server/discover lists every version, modern and legacy.
	modern := &lgHTTP{t: t, url: srv.URL}
	r := modern.post(`{"jsonrpc":"2.0","id":9,"method":"server/discover","params":`+withMeta(`{}`, defaultMeta)+`}`,
		"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "server/discover")
	b, _ := io.ReadAll(r.Body)
	r.Body.Close()
	if !strings.Contains(string(b), `"supportedVersions":["2026-07-28","2025-11-25","2025-06-18","2025-03-26","2024-11-05"]`) {
		t.Errorf("discover: %s", b)
	}
}

// TestLegacyHTTPModernInitialize keeps the modern answer for an initialize
// that carries the modern _meta (a 2026-07-28 client probing a removed
// method): 404 with -32601, and no session.
func TestLegacyHTTPModernInitialize(t *testing.T) {
	_, srv := startLegacyHTTP(t)
	c := &lgHTTP{t: t, url: srv.URL}
	r := c.post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":`+withMeta(`{}`, defaultMeta)+`}`,
		"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "initialize")
	b, _ := io.ReadAll(r.Body)
	r.Body.Close()
	if r.StatusCode != http.StatusNotFound || !strings.Contains(string(b), "-32601") || r.Header.Get("Mcp-Session-Id") != "" {
		t.Errorf("modern initialize: %d %s", r.StatusCode, b)
	}
}

// lgDo sends one HTTP request and returns its status, the start of its
// body and its headers; a stream response is cut off after its headers.
func lgDo(t *testing.T, method, url, body string, hdr ...string) (int, string, http.Header) {
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
	st, b, h := lgDo(t, http.MethodPost, url,
		lgBody("1", "initialize", `{"protocolVersion":"`+version+`","capabilities":{},"clientInfo":{"name":"attack","version":"1"}}`),
		"Content-Type", "application/json", "Accept", "application/json, text/event-stream")
	sid := h.Get("Mcp-Session-Id")
	if st != http.StatusOK || sid == "" || !strings.Contains(b, `"protocolVersion":"`+version+`"`) {
		t.Fatalf("initialize at %s: %d %s (session %q)", version, st, b, sid)
	}
	return sid
}

// In a session, logging/setLevel and resources/subscribe with params []
// are answered with a -32602 that says params must be an object, as
// tools/call's does, not the decoder's message glued to "params." as if
// it were a member name.
func TestLegacyParamsNotObjectSaysSo(t *testing.T) {
	_, srv := startLegacyHTTP(t)
	sid := openSessionVersion(t, srv.URL, "2025-11-25")
	for _, m := range []string{"logging/setLevel", "resources/subscribe"} {
		_, b, _ := lgDo(t, http.MethodPost, srv.URL, lgBody("2", m, "[]"),
			"Content-Type", "application/json", "Accept", "application/json, text/event-stream",
			"Mcp-Session-Id", sid, "MCP-Protocol-Version", "2025-11-25")
		if !strings.Contains(b, "-32602") || strings.Contains(b, "params.expected") {
			t.Errorf("%s with params []: %s; want -32602 naming params, not \"params.expected ...\"", m, b)
		}
	}
}
