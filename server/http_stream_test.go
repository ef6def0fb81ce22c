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
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/jsonrpc"
)

func TestHTTPProgressSwitchesToSSE(t *testing.T) {
	h := newHTTPHandler(newFakeCore(), HTTPOptions{})
	w := serveOnce(t, h, callBody(`"c1"`, "progress", `{}`), stdHeaders("tools/call", "progress"))
	if w.Code != 200 || w.Header().Get("Content-Type") != "text/event-stream" || w.Header().Get("X-Accel-Buffering") != "no" {
		t.Fatalf("status %d headers %v", w.Code, w.Header())
	}
	events := sseEvents(t, w.Body.Bytes())
	if len(events) != 4 {
		t.Fatalf("%d events: %q", len(events), w.Body)
	}
	for i, ev := range events[:3] {
		r := decodeReply(t, ev)
		var p struct {
			ProgressToken string  `json:"progressToken"`
			Progress      float64 `json:"progress"`
		}
		_ = json.Unmarshal(r.Params, &p)
		if r.Method != "notifications/progress" || r.ID != nil || p.ProgressToken != "p" || p.Progress != float64(i+1) {
			t.Errorf("event %d: %s", i, ev)
		}
	}
	if r := decodeReply(t, events[3]); string(r.ID) != `"c1"` || r.Result == nil {
		t.Errorf("final event %s", events[3])
	}
}

func TestHTTPErrorAfterProgressStaysInStream(t *testing.T) {
	h := newHTTPHandler(newFakeCore(), HTTPOptions{})
	w := serveOnce(t, h, callBody("5", "fail_after_progress", `{}`), stdHeaders("tools/call", "fail_after_progress"))
	events := sseEvents(t, w.Body.Bytes())
	if w.Code != 200 || len(events) != 2 {
		t.Fatalf("status %d body %q", w.Code, w.Body)
	}
	if r := decodeReply(t, events[1]); string(r.ID) != "5" || r.Error == nil || r.Error.Code != -32602 {
		t.Errorf("final event %s", events[1])
	}
}

func TestHTTPStreamFinish(t *testing.T) {
	ok := Response{Body: jsonrpc.AppendResult(nil, jsonrpc.IntID(1), []byte(`{}`))}
	bad := fakeFailure(jsonrpc.IntID(1), jsonrpc.CodeInvalidParams, "no filter")
	for _, tt := range []struct {
		name   string
		listen bool
		resp   Response
		status int
		ctype  string
	}{
		{"listen result is SSE", true, ok, 200, "text/event-stream"},
		{"listen error is JSON", true, bad, 400, "application/json"},
		{"request result is JSON", false, ok, 200, "application/json"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			st := newHTTPStream(context.Background(), w, tt.listen, time.Hour)
			st.finish(jsonrpc.IntID(1), tt.resp)
			if w.Code != tt.status || w.Header().Get("Content-Type") != tt.ctype {
				t.Fatalf("status %d type %q", w.Code, w.Header().Get("Content-Type"))
			}
			if err := st.Notify("notifications/progress", nil); !errors.Is(err, errStreamDone) {
				t.Errorf("Notify after finish: %v", err)
			}
		})
	}
}

func TestEncodeParams(t *testing.T) {
	for _, tt := range []struct {
		in   any
		want string
		err  bool
	}{
		{nil, "", false},
		{json.RawMessage(`null`), "", false},
		{json.RawMessage(" {\"a\":1}\n"), `{"a":1}`, false},
		{[]byte(`{"b":2}`), `{"b":2}`, false},
		{map[string]int{"c": 3}, `{"c":3}`, false},
		{json.RawMessage(`{`), "", true},
		{func() {}, "", true},
	} {
		got, err := encodeParams(tt.in)
		if string(got) != tt.want || (err != nil) != tt.err {
			t.Errorf("encodeParams(%v) = %q, %v", tt.in, got, err)
		}
	}
}

// httpPost sends a POST through a real server and returns the response.
func httpPost(t *testing.T, ctx context.Context, c *http.Client, url, body string, hdrs []string) *http.Response {
	t.Helper()
	r := newPost(t, url, body, hdrs).WithContext(ctx)
	resp, err := c.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// nextWithin reads the next SSE event or fails after d.
func nextWithin(t *testing.T, r *sseReader, d time.Duration) rpcReply {
	t.Helper()
	type res struct {
		b   []byte
		err error
	}
	ch := make(chan res, 1)
	go func() { b, err := r.next(); ch <- res{b, err} }()
	select {
	case x := <-ch:
		if x.err != nil {
			t.Fatalf("reading event: %v", x.err)
		}
		return decodeReply(t, x.b)
	case <-time.After(d):
		t.Fatalf("no event within %v", d)
	}
	return rpcReply{}
}

func subscriptionID(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatalf("params/result %s: %v", raw, err)
	}
	return string(p.Meta["io.modelcontextprotocol/subscriptionId"])
}

func TestHTTPListenStream(t *testing.T) {
	core := newFakeCore()
	srv := httptest.NewServer(newHTTPHandler(core, HTTPOptions{}))
	defer srv.Close()
	resp := httpPost(t, context.Background(), srv.Client(), srv.URL, reqBody("77", methodListen, `"notifications":{"toolsListChanged":true}`), stdHeaders(methodListen, ""))
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" || resp.Header.Get("X-Accel-Buffering") != "no" {
		t.Fatalf("status %d headers %v", resp.StatusCode, resp.Header)
	}
	r := newSSEReader(resp.Body)
	// The ack arrives while the handler is still running: it was flushed.
	ack := nextWithin(t, r, 2*time.Second)
	if ack.Method != "notifications/subscriptions/acknowledged" || subscriptionID(t, ack.Params) != "77" {
		t.Fatalf("ack %+v", ack)
	}
	core.broadcast("notifications/tools/list_changed")
	ev := nextWithin(t, r, 2*time.Second)
	if ev.Method != "notifications/tools/list_changed" || subscriptionID(t, ev.Params) != "77" {
		t.Fatalf("event %+v", ev)
	}
	core.stop()
	end := nextWithin(t, r, 2*time.Second)
	if string(end.ID) != "77" || end.Result == nil || subscriptionID(t, end.Result) != "77" {
		t.Fatalf("closing result %+v", end)
	}
	if _, err := r.next(); err != io.EOF {
		t.Errorf("stream continues after the result: %v", err)
	}
}

func TestHTTPListenKeepAlive(t *testing.T) {
	h := newHTTPHandler(newFakeCore(), HTTPOptions{})
	h.keepAlive = 10 * time.Millisecond
	srv := httptest.NewServer(h)
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp := httpPost(t, ctx, srv.Client(), srv.URL, reqBody("1", methodListen, ""), stdHeaders(methodListen, ""))
	defer resp.Body.Close()
	buf := make([]byte, 0, 4096)
	deadline := time.Now().Add(2 * time.Second)
	for !strings.Contains(string(buf), "\n:\n") && time.Now().Before(deadline) {
		p := make([]byte, 512)
		n, err := resp.Body.Read(p)
		buf = append(buf, p[:n]...)
		if err != nil {
			break
		}
	}
	if !strings.Contains(string(buf), "\n:\n") {
		t.Fatalf("no keep-alive comment in %q", buf)
	}
}

// countingHandler tracks how many ServeHTTP calls are running.
type countingHandler struct {
	h       http.Handler
	mu      sync.Mutex
	running int
}

func (c *countingHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	c.running++
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.running--
		c.mu.Unlock()
	}()
	c.h.ServeHTTP(w, r)
}

func (c *countingHandler) idle() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.running == 0
}

func httpWaitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestHTTPClientDisconnectCancels(t *testing.T) {
	for _, tt := range []struct {
		name, method, tool, id string
		sse                    bool
	}{
		{"SSE tool call", "tools/call", "slow", "42", true},
		{"JSON tool call", "tools/call", "slow_quiet", "43", false},
		{"listen stream", methodListen, "", "44", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			core := newFakeCore()
			ch := &countingHandler{h: newHTTPHandler(core, HTTPOptions{})}
			srv := httptest.NewServer(ch)
			defer srv.Close()
			client := &http.Client{Transport: &http.Transport{}}
			before := runtime.NumGoroutine()

			body := reqBody(tt.id, tt.method, "")
			if tt.tool != "" {
				body = callBody(tt.id, tt.tool, `{}`)
			}
			ctx, cancel := context.WithCancel(context.Background())
			respc := make(chan *http.Response, 1)
			go func() {
				r := newPost(t, srv.URL, body, stdHeaders(tt.method, tt.tool)).WithContext(ctx)
				resp, err := client.Do(r)
				if err == nil {
					respc <- resp
				}
				close(respc)
			}()
			if tt.sse {
				resp := <-respc
				if resp == nil {
					t.Fatal("no response")
				}
				nextWithin(t, newSSEReader(resp.Body), 2*time.Second) // progress or ack
				cancel()
				resp.Body.Close()
			} else {
				select {
				case <-core.started:
				case <-time.After(2 * time.Second):
					t.Fatal("handler did not start")
				}
				cancel()
				if resp := <-respc; resp != nil {
					resp.Body.Close()
					t.Fatalf("got a response %d after cancelling", resp.StatusCode)
				}
			}
			select {
			case id := <-core.cancelled:
				if id != tt.id {
					t.Errorf("cancelled %s, want %s", id, tt.id)
				}
			case <-time.After(3 * time.Second):
				t.Fatal("handler context was not cancelled")
			}
			httpWaitFor(t, "ServeHTTP to return", ch.idle)
			if n := core.lateWrites.Load(); n != 0 {
				t.Errorf("%d notifications written after the disconnect", n)
			}
			if n := core.listenerCount(); n != 0 {
				t.Errorf("%d listen streams still registered", n)
			}
			client.CloseIdleConnections()
			httpWaitFor(t, fmt.Sprintf("goroutines to return to %d", before), func() bool { return runtime.NumGoroutine() <= before })
		})
	}
}

func TestHTTPConcurrentClients(t *testing.T) {
	srv := httptest.NewServer(newHTTPHandler(newFakeCore(), HTTPOptions{}))
	defer srv.Close()
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 40 {
		wg.Go(func() {
			id := fmt.Sprint(1000 + i)
			tool := []string{"echo", "progress"}[i%2]
			r := newPost(t, srv.URL, callBody(id, tool, `{}`), stdHeaders("tools/call", tool))
			resp, err := srv.Client().Do(r)
			if err != nil {
				errs <- err
				return
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			var final []byte
			switch ct := resp.Header.Get("Content-Type"); {
			case tool == "echo" && ct == "application/json":
				final = b
			case tool == "progress" && ct == "text/event-stream":
				events := sseEvents(t, b)
				if len(events) != 4 {
					errs <- fmt.Errorf("id %s: %d events", id, len(events))
					return
				}
				final = events[3]
			default:
				errs <- fmt.Errorf("id %s: %s content type %q", id, tool, ct)
				return
			}
			var m struct{ ID json.RawMessage }
			if json.Unmarshal(final, &m) != nil || string(m.ID) != id {
				errs <- fmt.Errorf("id %s: final %s", id, final)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestHTTPGracefulShutdown serves the handler from an http.Server: the
// core's shutdown ends the listen streams with their result and
// http.Server.Shutdown then completes.
func TestHTTPGracefulShutdown(t *testing.T) {
	core := newFakeCore()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: newHTTPHandler(core, HTTPOptions{}), ReadHeaderTimeout: 5 * time.Second, WriteTimeout: 50 * time.Millisecond}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	url := "http://" + ln.Addr().String() + "/mcp"

	var readers []*sseReader
	for i := range 2 {
		resp := httpPost(t, context.Background(), http.DefaultClient, url, reqBody(fmt.Sprint(i+1), methodListen, ""), stdHeaders(methodListen, ""))
		defer resp.Body.Close()
		r := newSSEReader(resp.Body)
		nextWithin(t, r, 2*time.Second)
		readers = append(readers, r)
	}
	// The streams outlive the server's WriteTimeout: it is cleared for SSE.
	time.Sleep(100 * time.Millisecond)
	core.broadcast("notifications/tools/list_changed")
	for _, r := range readers {
		nextWithin(t, r, 2*time.Second)
	}

	core.stop()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	for i, r := range readers {
		end := nextWithin(t, r, 2*time.Second)
		if string(end.ID) != fmt.Sprint(i+1) || end.Result == nil {
			t.Errorf("stream %d ended with %+v", i+1, end)
		}
		if _, err := r.next(); err != io.EOF {
			t.Errorf("stream %d: %v after the result", i+1, err)
		}
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		t.Errorf("Serve: %v", err)
	}
}

// TestHTTPStreamConcurrentNotify: notifications from many goroutines and the
// final response never interleave, and nothing follows the response.
func TestHTTPStreamConcurrentNotify(t *testing.T) {
	w := httptest.NewRecorder()
	st := newHTTPStream(context.Background(), w, false, time.Hour)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for g := range 8 {
		wg.Go(func() {
			<-start
			for i := range 50 {
				if err := st.Notify("notifications/message", map[string]any{"level": "info", "data": fmt.Sprint(g, "-", i)}); err != nil {
					return // after finish
				}
			}
		})
	}
	close(start)
	time.Sleep(time.Millisecond)
	st.finish(jsonrpc.IntID(9), Response{Body: jsonrpc.AppendResult(nil, jsonrpc.IntID(9), []byte(`{"resultType":"complete"}`))})
	wg.Wait()
	events := sseEvents(t, w.Body.Bytes())
	if len(events) == 0 {
		t.Fatalf("no events: %q", w.Body)
	}
	for i, ev := range events {
		r := decodeReply(t, ev)
		if last := i == len(events)-1; last != (string(r.ID) == "9") || (!last && r.Method != "notifications/message") {
			t.Fatalf("event %d of %d: %s", i, len(events), ev)
		}
	}
}
