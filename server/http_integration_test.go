package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// Integration tests: the Streamable HTTP handler in front of the real core
// (the fixture server of core_fixture_test.go).

// coreHTTP serves a fixture server's HTTPHandler from an httptest.Server.
func coreHTTP(t *testing.T) (*fixture, *httptest.Server) {
	t.Helper()
	f := newFixture(t)
	srv := httptest.NewServer(f.s.HTTPHandler(HTTPOptions{}))
	t.Cleanup(srv.Close)
	return f, srv
}

// roundTrip sends one POST and returns status, Content-Type and body.
func roundTrip(t *testing.T, srv *httptest.Server, body string, hdrs []string) (int, string, []byte) {
	t.Helper()
	resp, err := srv.Client().Do(newPost(t, srv.URL, body, hdrs))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Header.Get("Mcp-Session-Id") != "" {
		t.Errorf("response mints Mcp-Session-Id")
	}
	return resp.StatusCode, resp.Header.Get("Content-Type"), b
}

// metaWith returns a request body whose _meta is given verbatim.
func metaWith(id, method, params, meta string) string {
	if params != "" {
		params += ","
	}
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `","params":{` + params + `"_meta":` + meta + `}}`
}

// TestHTTPCoreProbes runs the server-stateless probes of the conformance
// suite (FIXTURES.md 4.1) and the HTTP probes of SERVER-CHECKLIST.md
// against the real core.
func TestHTTPCoreProbes(t *testing.T) {
	_, srv := coreHTTP(t)
	const (
		noCaps = `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}`
		noPV   = `{"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`
		v999   = `{"io.modelcontextprotocol/protocolVersion":"v999.0.0","io.modelcontextprotocol/clientCapabilities":{}}`
	)
	type probe struct {
		name   string
		body   string
		hdrs   []string
		status int
		code   int64
		id     string
	}
	probes := []probe{
		{"101 no _meta", `{"jsonrpc":"2.0","id":101,"method":"server/discover","params":{}}`, stdHeaders("server/discover", ""), 400, -32602, "101"},
		{"102 no protocolVersion", metaWith("102", "server/discover", "", noPV), stdHeaders("server/discover", ""), 400, -32602, "102"},
		{"104 no clientCapabilities", metaWith("104", "server/discover", "", noCaps), stdHeaders("server/discover", ""), 400, -32602, "104"},
		{"105 clientInfo optional", reqBody("105", "server/discover", ""), stdHeaders("server/discover", ""), 200, 0, "105"},
		{"201 discover", metaWith("201", "server/discover", "", defaultMeta), stdHeaders("server/discover", ""), 200, 0, "201"},
		{"301 unsupported version", metaWith("301", "server/discover", "", v999), stdHeaders("server/discover", "", "MCP-Protocol-Version", "v999.0.0"), 400, -32022, "301"},
		{"302 header mismatch", metaWith("302", "server/discover", "", v999), stdHeaders("server/discover", ""), 400, -32020, "302"},
		{"401 missing capability", callBody("401", "needs_sampling", `{}`), stdHeaders("tools/call", "needs_sampling"), 400, -32021, "401"},
		{"601 unknown method", reqBody("601", "unknown/method", ""), stdHeaders("unknown/method", ""), 404, -32601, "601"},
		{"Q03 no params", `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`, stdHeaders("tools/list", ""), 400, -32602, "3"},
		{"Q07 parse error", `{"jsonrpc":"2.0","id":1,"method":`, stdHeaders("tools/list", ""), 400, -32700, ""},
		{"Q09 batch", `[` + reqBody("1", "tools/list", "") + `]`, stdHeaders("tools/list", ""), 400, -32600, ""},
		{"Q12 big id echoed", reqBody("9007199254740993", "tools/list", ""), stdHeaders("tools/list", ""), 200, 0, "9007199254740993"},
		{"Q15 notification method with id", reqBody("7", "notifications/cancelled", `"requestId":99`), stdHeaders("notifications/cancelled", ""), 404, -32601, "7"},
		// Q17 (legacy initialize) opens a legacy session: legacy_http_test.go.
		{"Q22 unknown tool", callBody("22", "no_such_tool", `{}`), stdHeaders("tools/call", "no_such_tool"), 400, -32602, "22"},
		{"Q37 header 2025-11-25", reqBody("37", "tools/list", ""), stdHeaders("tools/list", "", "MCP-Protocol-Version", "2025-11-25"), 400, -32020, "37"},
		{"Q38 Mcp-Method case", reqBody("38", "tools/list", ""), stdHeaders("TOOLS/LIST", ""), 400, -32020, "38"},
		{"Q39 Mcp-Name other", callBody("39", "echo", `{"text":"a"}`), stdHeaders("tools/call", "other"), 400, -32020, "39"},
		{"Q39 Mcp-Name base64", callBody("39", "echo", `{"text":"a"}`), stdHeaders("tools/call", "=?base64?ZWNobw==?="), 200, 0, "39"},
		{"Mcp-Param match", callBody("40", "schema_verbatim", `{"region":"us-west1"}`), stdHeaders("tools/call", "schema_verbatim", "Mcp-Param-Region", "us-west1"), 200, 0, "40"},
		{"Mcp-Param mismatch", callBody("40", "schema_verbatim", `{"region":"us-west1"}`), stdHeaders("tools/call", "schema_verbatim", "Mcp-Param-Region", "eu"), 400, -32020, "40"},
		{"Mcp-Param missing", callBody("40", "schema_verbatim", `{"region":"us-west1"}`), stdHeaders("tools/call", "schema_verbatim"), 400, -32020, "40"},
		{"Mcp-Param absent value", callBody("40", "schema_verbatim", `{}`), stdHeaders("tools/call", "schema_verbatim"), 200, 0, "40"},
		{"resources/read Mcp-Name", reqBody("41", "resources/read", `"uri":"test://static-text"`), stdHeaders("resources/read", "test://static-text"), 200, 0, "41"},
		{"handler panic", callBody("42", "boom", `{}`), stdHeaders("tools/call", "boom"), 200, -32603, "42"},
		{"Q40 evil origin", reqBody("1", "tools/list", ""), stdHeaders("tools/list", "", "Origin", "https://evil.example"), 403, -32600, ""},
		{"dns rebinding", reqBody("1", "server/discover", ""), stdHeaders("server/discover", "", "Host", "evil.example.com", "Origin", "http://evil.example.com"), 403, -32600, ""},
	}
	for _, m := range []string{"initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"} {
		probes = append(probes, probe{"500 " + m, reqBody("500", m, ""), stdHeaders(m, ""), 404, -32601, "500"})
	}
	var discover rpcReply
	for _, p := range probes {
		t.Run(p.name, func(t *testing.T) {
			status, ctype, b := roundTrip(t, srv, p.body, p.hdrs)
			if status != p.status || ctype != "application/json" {
				t.Fatalf("status %d %q, want %d; body %s", status, ctype, p.status, b)
			}
			r := decodeReply(t, b)
			if string(r.ID) != p.id {
				t.Errorf("id %s, want %q", r.ID, p.id)
			}
			switch {
			case p.code == 0 && (r.Error != nil || r.Result == nil):
				t.Fatalf("want a result: %s", b)
			case p.code != 0 && (r.Error == nil || r.Error.Code != p.code):
				t.Fatalf("want error %d: %s", p.code, b)
			}
			switch p.id {
			case "201":
				discover = r
			case "301":
				var d struct {
					Supported []string
					Requested string
				}
				if err := json.Unmarshal(r.Error.Data, &d); err != nil || d.Requested != "v999.0.0" || !slices.Contains(d.Supported, "2026-07-28") {
					t.Errorf("data %s", r.Error.Data)
				}
			case "401":
				var d struct {
					RequiredCapabilities map[string]json.RawMessage
				}
				if err := json.Unmarshal(r.Error.Data, &d); err != nil || !strings.HasPrefix(string(d.RequiredCapabilities["sampling"]), "{") {
					t.Errorf("data %s", r.Error.Data)
				}
			case "1":
				if p.code == -32601 && !strings.Contains(string(b), "2026-07-28") {
					t.Errorf("legacy initialize error does not name the supported versions: %s", b)
				}
			}
		})
	}
	var d struct {
		SupportedVersions []string
	}
	if err := json.Unmarshal(discover.Result, &d); err != nil || !slices.Contains(d.SupportedVersions, "2026-07-28") {
		t.Errorf("discover %s", discover.Result)
	}
}

func TestHTTPCoreProgressAndLogs(t *testing.T) {
	_, srv := coreHTTP(t)
	progressMeta := `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":"p"}`
	logMeta := `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"info"}`

	status, ctype, b := roundTrip(t, srv, metaWith("1", "tools/call", `"name":"progress","arguments":{}`, progressMeta), stdHeaders("tools/call", "progress"))
	events := sseEvents(t, b)
	if status != 200 || ctype != "text/event-stream" || len(events) < 4 {
		t.Fatalf("progress: %d %q %s", status, ctype, b)
	}
	last := -1.0
	for _, ev := range events[:len(events)-1] {
		r := decodeReply(t, ev)
		var p struct {
			ProgressToken string  `json:"progressToken"`
			Progress      float64 `json:"progress"`
		}
		if err := json.Unmarshal(r.Params, &p); err != nil || r.Method != "notifications/progress" || p.ProgressToken != "p" || p.Progress <= last {
			t.Errorf("progress event %s", ev)
		}
		last = p.Progress
	}
	if r := decodeReply(t, events[len(events)-1]); string(r.ID) != "1" || r.Result == nil {
		t.Errorf("final event %s", events[len(events)-1])
	}

	status, ctype, b = roundTrip(t, srv, metaWith("2", "tools/call", `"name":"logs","arguments":{}`, logMeta), stdHeaders("tools/call", "logs"))
	events = sseEvents(t, b)
	if status != 200 || ctype != "text/event-stream" || len(events) != 3 {
		t.Fatalf("logs: %d %q %s", status, ctype, b)
	}
	for _, ev := range events[:2] {
		if r := decodeReply(t, ev); r.Method != "notifications/message" {
			t.Errorf("log event %s", ev)
		}
	}

	// Without logLevel no notification is sent, and the answer is plain JSON.
	status, ctype, b = roundTrip(t, srv, callBody("3", "logs", `{}`), stdHeaders("tools/call", "logs"))
	if status != 200 || ctype != "application/json" || strings.Contains(string(b), "notifications/message") {
		t.Fatalf("logs without level: %d %q %s", status, ctype, b)
	}
}

// openListen opens a listen stream and returns its reader after the ack.
func openListen(t *testing.T, ctx context.Context, url, id, filter string) (*sseReader, *http.Response) {
	t.Helper()
	resp := httpPost(t, ctx, http.DefaultClient, url, reqBody(id, methodListen, `"notifications":`+filter), stdHeaders(methodListen, ""))
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		t.Fatalf("listen: %d %s", resp.StatusCode, b)
	}
	r := newSSEReader(resp.Body)
	ack := nextWithin(t, r, 2*time.Second)
	if ack.Method != "notifications/subscriptions/acknowledged" || subscriptionID(t, ack.Params) != id {
		t.Fatalf("ack %+v", ack)
	}
	return r, resp
}

func noteTool(name string) Tool {
	return NewTool(ToolInfo{Name: name, Description: "added at run time"}, func(ctx context.Context, in noArgs) (string, error) { return "", nil })
}

// TestHTTPCoreListenAndShutdown: acks are flushed at once, notifications
// are tagged and filtered, and shutting down (Server.Shutdown, then
// http.Server.Shutdown) ends each stream with its result.
func TestHTTPCoreListenAndShutdown(t *testing.T) {
	f := newFixture(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: f.s.HTTPHandler(HTTPOptions{}), ReadHeaderTimeout: 5 * time.Second}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	url := "http://" + ln.Addr().String() + "/mcp"

	tools, r1 := openListen(t, context.Background(), url, `"L1"`, `{"toolsListChanged":true}`)
	defer r1.Body.Close()
	prompts, r2 := openListen(t, context.Background(), url, "5", `{"promptsListChanged":true}`)
	defer r2.Body.Close()

	if err := f.s.AddTools(noteTool("added_tool")); err != nil {
		t.Fatal(err)
	}
	ev := nextWithin(t, tools, 2*time.Second)
	if ev.Method != "notifications/tools/list_changed" || subscriptionID(t, ev.Params) != `"L1"` {
		t.Fatalf("tools stream got %+v", ev)
	}
	if err := f.s.AddPrompts(NewPrompt(PromptInfo{Name: "added_prompt", Description: "added"}, func(ctx context.Context, in noArgs) (string, error) { return "x", nil })); err != nil {
		t.Fatal(err)
	}
	// The prompts stream's first notification is the prompt change: the
	// tool change was filtered out.
	ev = nextWithin(t, prompts, 2*time.Second)
	if ev.Method != "notifications/prompts/list_changed" || subscriptionID(t, ev.Params) != "5" {
		t.Fatalf("prompts stream got %+v", ev)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := f.s.Shutdown(ctx); err != nil {
		t.Fatalf("Server.Shutdown: %v", err)
	}
	if err := hs.Shutdown(ctx); err != nil {
		t.Fatalf("http.Server.Shutdown: %v", err)
	}
	for id, r := range map[string]*sseReader{`"L1"`: tools, "5": prompts} {
		end := nextWithin(t, r, 2*time.Second)
		if string(end.ID) != id || end.Result == nil || subscriptionID(t, end.Result) != id {
			t.Errorf("stream %s ended with %+v", id, end)
		}
		if _, err := r.next(); err != io.EOF {
			t.Errorf("stream %s: %v after the result", id, err)
		}
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		t.Errorf("Serve: %v", err)
	}
}

// TestHTTPCoreRunClosesListen: Run's shutdown ends an open listen stream
// with its result and returns.
func TestHTTPCoreRunClosesListen(t *testing.T) {
	f := newFixture(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- f.s.Run(ctx, addr) }()
	url := "http://" + addr + "/mcp"
	httpWaitFor(t, "Run to listen", func() bool {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
		}
		return err == nil
	})
	r, resp := openListen(t, context.Background(), url, "9", `{"toolsListChanged":true}`)
	defer resp.Body.Close()
	cancel()
	end := nextWithin(t, r, 5*time.Second)
	if string(end.ID) != "9" || end.Result == nil {
		t.Fatalf("stream ended with %+v", end)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(6 * time.Second):
		t.Fatal("Run did not return")
	}
}

func TestHTTPCoreDisconnect(t *testing.T) {
	f := newFixture(t)
	ch := &countingHandler{h: f.s.HTTPHandler(HTTPOptions{})}
	srv := httptest.NewServer(ch)
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{}}
	before := runtime.NumGoroutine()

	// A tool call answered as JSON: cancelled before anything was written.
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		r := newPost(t, srv.URL, callBody("1", "slow", `{"tag":"a"}`), stdHeaders("tools/call", "slow")).WithContext(ctx)
		resp, err := client.Do(r)
		if err == nil {
			resp.Body.Close()
			err = fmt.Errorf("got a response %d", resp.StatusCode)
		}
		errc <- err
	}()
	select {
	case tag := <-f.gate.started:
		if tag != "a" {
			t.Fatalf("started %q", tag)
		}
	case <-time.After(30 * time.Second): // hang guard
		t.Fatal("the tool did not start")
	}
	cancel()
	select {
	case tag := <-f.gate.cancelled:
		if tag != "a" {
			t.Fatalf("cancelled %q", tag)
		}
	case <-time.After(30 * time.Second): // hang guard
		t.Fatal("the tool's context was not cancelled")
	}
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("client: %v", err)
	}

	// A listen stream: closing it ends the subscription.
	lctx, lcancel := context.WithCancel(context.Background())
	_, resp := openListen(t, lctx, srv.URL, "2", `{"toolsListChanged":true}`)
	lcancel()
	resp.Body.Close()
	waitUntil(t, "handlers to return", ch.idle)
	// The stream's handler runs on a worker (serveLimitedIn), which may
	// still be leaving it (its deferred remove) when ServeHTTP, which
	// stopped waiting for it once the client went away, has returned.
	waitUntil(t, "the subscription to end", func() bool {
		f.s.subs.mu.Lock()
		defer f.s.subs.mu.Unlock()
		return len(f.s.subs.set) == 0
	})
	// The server keeps serving.
	if status, _, b := roundTrip(t, srv, reqBody("3", "tools/list", ""), stdHeaders("tools/list", "")); status != 200 {
		t.Fatalf("after disconnects: %d %s", status, b)
	}
	client.CloseIdleConnections()
	srv.Client().CloseIdleConnections()
	// Parked handler workers wait handlerWorkerIdle for more work before
	// they exit, and a loaded machine runs them late: poll, with a deadline
	// that only guards a leak.
	waitUntil(t, fmt.Sprintf("goroutines to return to %d", before), func() bool { return runtime.NumGoroutine() <= before })
}

func TestHTTPCoreConcurrentClients(t *testing.T) {
	_, srv := coreHTTP(t)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 30 {
		wg.Go(func() {
			id := fmt.Sprint(1000 + i)
			body, hdrs := reqBody(id, "tools/list", ""), stdHeaders("tools/list", "")
			if i%2 == 1 {
				body = callBody(id, "weather_current", `{"location":"Paris"}`)
				hdrs = stdHeaders("tools/call", "weather_current")
			}
			resp, err := srv.Client().Do(newPost(t, srv.URL, body, hdrs))
			if err != nil {
				errs <- err
				return
			}
			defer resp.Body.Close()
			var r struct {
				ID     json.RawMessage
				Result json.RawMessage
			}
			if err := json.NewDecoder(resp.Body).Decode(&r); err != nil || resp.StatusCode != 200 || string(r.ID) != id || r.Result == nil {
				errs <- fmt.Errorf("id %s: status %d id %s err %v", id, resp.StatusCode, r.ID, err)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
