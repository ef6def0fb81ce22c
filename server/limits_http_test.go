package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// limitedHTTP serves s the way Run does (limited listener, Run's
// http.Server, HTTPHandler at /mcp) on a loopback port.
type limitedHTTP struct {
	s    *Server
	srv  *http.Server
	addr string
	url  string
	done chan error
}

func startLimitedHTTP(t *testing.T, s *Server, wrap ...func(http.Handler) http.Handler) *limitedHTTP {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var handler http.Handler = s.HTTPHandler(HTTPOptions{})
	for _, w := range wrap {
		handler = w(handler)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", handler)
	h := &limitedHTTP{s: s, srv: s.newHTTPServer(mux), addr: ln.Addr().String(), url: "http://" + ln.Addr().String() + "/mcp", done: make(chan error, 1)}
	go func() { h.done <- h.srv.Serve(s.limitListener(ln)) }()
	t.Cleanup(func() { h.srv.Close() })
	return h
}

// rawPost is the head of a tools/call POST with its Content-Length, for
// clients that then misbehave on the wire.
func rawPost(body string, extraHeaders string) string {
	return "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
		"Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\n" +
		"Mcp-Name: weather_current\r\n" + extraHeaders + fmt.Sprintf("Content-Length: %d\r\n\r\n", len(body))
}

// TestHTTPStalledBodiesAreClosed: clients that send headers and part of a
// body, then stall, are cut off after ReadTimeout; their file descriptors
// are released, and other clients are served meanwhile.
func TestHTTPStalledBodiesAreClosed(t *testing.T) {
	k := limitServer(t, Limits{ReadTimeout: 200 * time.Millisecond})
	h := startLimitedHTTP(t, k.s)
	before := resNow()
	body := faultCall("1", "weather_current", `{"location":"Paris"}`, defaultMeta)
	var conns []net.Conn
	for range 50 {
		c, err := net.Dial("tcp", h.addr)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		if _, err := io.WriteString(c, rawPost(body, "")+body[:10]); err != nil {
			t.Fatal(err)
		}
	}
	checkWeatherHTTP(t, h.url)
	deadline := time.Now().Add(3 * time.Second)
	for i, c := range conns {
		_ = c.SetReadDeadline(deadline)
		b, err := io.ReadAll(c)
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			t.Fatalf("stalled connection %d still open after %v (read %q)", i, 3*time.Second, b)
		}
		c.Close()
	}
	http.DefaultTransport.(*http.Transport).CloseIdleConnections()
	resNoLeak(t, before, 2)
}

// TestHTTPListenOutlivesTimeouts: a listen stream stays open past
// ReadTimeout and WriteTimeout (they bound a body and each write, not the
// stream), carries its notifications, and ends with its result on Shutdown.
func TestHTTPListenOutlivesTimeouts(t *testing.T) {
	k := limitServer(t, Limits{ReadTimeout: 100 * time.Millisecond, WriteTimeout: 100 * time.Millisecond})
	h := startLimitedHTTP(t, k.s)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r, resp := openListen(t, ctx, h.url, "7", `{"toolsListChanged":true}`)
	defer resp.Body.Close()
	time.Sleep(400 * time.Millisecond)
	k.s.RemoveTools("boom")
	if ev := nextWithin(t, r, 2*time.Second); ev.Method != "notifications/tools/list_changed" {
		t.Fatalf("after the timeouts: %+v", ev)
	}
	go func() {
		sctx, scancel := context.WithTimeout(context.Background(), time.Second)
		defer scancel()
		_ = k.s.Shutdown(sctx)
	}()
	if ev := nextWithin(t, r, 2*time.Second); ev.ID == nil || ev.Result == nil {
		t.Fatalf("end of the stream: %+v, want the listen result", ev)
	}
}

// TestHTTPMaxConnections: at MaxConnections the server stops accepting; a
// waiting client is served once a connection closes.
func TestHTTPMaxConnections(t *testing.T) {
	k := limitServer(t, Limits{MaxConnections: 3})
	h := startLimitedHTTP(t, k.s)
	var conns []net.Conn
	for range 3 {
		c, err := net.Dial("tcp", h.addr)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	time.Sleep(50 * time.Millisecond) // accepted
	client := &http.Client{Timeout: 300 * time.Millisecond, Transport: &http.Transport{}}
	req, _ := http.NewRequest(http.MethodPost, h.url, strings.NewReader(faultCall("1", "weather_current", `{"location":"Paris"}`, defaultMeta)))
	setFaultHeaders(req)
	if resp, err := client.Do(req); err == nil {
		resp.Body.Close()
		t.Fatalf("a 4th connection was served (status %d) with MaxConnections 3", resp.StatusCode)
	}
	conns[0].Close()
	time.Sleep(50 * time.Millisecond)
	client.Timeout = 3 * time.Second
	req, _ = http.NewRequest(http.MethodPost, h.url, strings.NewReader(faultCall("1", "weather_current", `{"location":"Paris"}`, defaultMeta)))
	setFaultHeaders(req)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("after a connection closed: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("after a connection closed: status %d", resp.StatusCode)
	}
	for _, c := range conns[1:] {
		c.Close()
	}
}

func setFaultHeaders(req *http.Request) {
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", "weather_current")
}

// TestHTTPMaxHeaderBytes: a header block over MaxHeaderBytes is 431.
func TestHTTPMaxHeaderBytes(t *testing.T) {
	k := limitServer(t, Limits{MaxHeaderBytes: 4 << 10})
	h := startLimitedHTTP(t, k.s)
	req, _ := http.NewRequest(http.MethodPost, h.url, strings.NewReader(faultCall("1", "weather_current", `{"location":"Paris"}`, defaultMeta)))
	setFaultHeaders(req)
	req.Header.Set("X-Padding", strings.Repeat("a", 16<<10))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Fatalf("status %d, want 431", resp.StatusCode)
	}
	checkWeatherHTTP(t, h.url)
}

// TestHTTPBusyIs503: over MaxInFlight an HTTP request gets 503 with
// Retry-After and the -32603 busy error as body.
func TestHTTPBusyIs503(t *testing.T) {
	k := limitServer(t, Limits{MaxInFlight: 1})
	h := startLimitedHTTP(t, k.s)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, h.url, strings.NewReader(faultCall("1", "until_cancel", `{}`, defaultMeta)))
		setFaultHeaders(req)
		req.Header.Set("Mcp-Name", "until_cancel")
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	k.waitFor(t, k.started, "until_cancel")
	resp, err := faultPost(t, h.url, faultCall("2", "weather_current", `{"location":"Paris"}`, defaultMeta))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || errorCode(m) != -32603 || reasonOf(m) != reasonBusy || idOf(m) != "2" {
		t.Fatalf("over MaxInFlight: %d Retry-After %q %s", resp.StatusCode, resp.Header.Get("Retry-After"), b)
	}
	cancel()
	k.waitFor(t, k.cancelled, "until_cancel")
	waitInFlight(t, k.s, 0)
	checkWeatherHTTP(t, h.url)
}

// waitInFlight waits until s has n requests in flight.
func waitInFlight(t testing.TB, s *Server, n int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		s.lim.mu.Lock()
		got := s.lim.inflight
		s.lim.mu.Unlock()
		if got == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d requests in flight, want %d", got, n)
		}
	}
}

// TestHTTPDrainLosesNothing: Run's drain on HTTP. In-flight requests are
// answered with their result within the grace; a request arriving during
// the drain, on an open connection or a new one (the listener stays open
// while the drain has work: a legacy client's answer must get in), gets
// 503 with Retry-After (never 200 with an error, which a load balancer
// cannot retry); a request still running at the end of the grace is
// answered with the shutdown error; then the listener closes.
func TestHTTPDrainLosesNothing(t *testing.T) {
	k := limitServer(t, Limits{DrainGrace: 3 * time.Second}) // generous: the 200 ms calls must end within it under -race on a loaded machine
	// The late request's handler signals once net/http has read its header:
	// a request is received when its header is (before that, net/http's
	// Shutdown closes the connection unanswered, see the commit message).
	lateReceived := make(chan struct{})
	h := startLimitedHTTP(t, k.s, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("X-Test-Late") != "" {
				close(lateReceived)
			}
			next.ServeHTTP(w, r)
		})
	})
	// A request whose body is still arriving when the drain begins.
	late, err := net.Dial("tcp", h.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer late.Close()
	body := faultCall("9", "weather_current", `{"location":"Paris"}`, defaultMeta)
	if _, err := io.WriteString(late, rawPost(body, "X-Test-Late: 1\r\n")+body[:10]); err != nil {
		t.Fatal(err)
	}
	select {
	case <-lateReceived:
	case <-time.After(10 * time.Second): // hang guard
		t.Fatal("the server never read the late request's header")
	}

	const n = 20
	var wg sync.WaitGroup
	results := make([]string, n+1)
	for i := 0; i <= n; i++ {
		tool, args := "wait_ms", `{"ms":200}`
		if i == n {
			tool, args = "until_cancel", `{}`
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest(http.MethodPost, h.url, strings.NewReader(faultCall(fmt.Sprint(i), tool, args, defaultMeta)))
			setFaultHeaders(req)
			req.Header.Set("Mcp-Name", tool)
			resp, err := (&http.Client{Transport: &http.Transport{}}).Do(req)
			if err != nil {
				results[i] = "error: " + err.Error()
				return
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			results[i] = fmt.Sprintf("%d %s", resp.StatusCode, b)
		}()
	}
	k.waitAll(t, k.started, map[string]int{"wait_ms": n, "until_cancel": 1})
	drained := make(chan struct{})
	go func() {
		k.s.drainHTTP(h.srv)
		close(drained)
	}()
	waitUntil(t, "the limiter to refuse new requests", k.s.lim.isClosing)
	// During the drain: the late request gets 503; the listener stays open
	// (a legacy client's answer, a balancer's probe) but a request on a new
	// connection gets 503 with Retry-After too, and its connection closes.
	if _, err := io.WriteString(late, body[10:]); err != nil {
		t.Fatal(err)
	}
	_ = late.SetReadDeadline(time.Now().Add(5 * time.Second))
	raw, _ := io.ReadAll(late)
	if resp, err := http.ReadResponse(bufio.NewReader(strings.NewReader(string(raw))), nil); err != nil {
		t.Errorf("request completed during the drain: %v (%q), want 503", err, raw)
	} else {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || !strings.Contains(string(b), `"reason":"shutdown"`) {
			t.Errorf("request completed during the drain: %d %q, want 503 with Retry-After", resp.StatusCode, b)
		}
	}
	req, _ := http.NewRequest(http.MethodPost, h.url, strings.NewReader(faultCall("99", "weather_current", `{"location":"Paris"}`, defaultMeta)))
	setFaultHeaders(req)
	req.Header.Set("Mcp-Name", "weather_current")
	if resp, err := (&http.Client{Transport: &http.Transport{}}).Do(req); err != nil {
		t.Errorf("a new connection during the drain: %v, want it accepted and its request refused with 503", err)
	} else {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || !strings.Contains(string(b), `"reason":"shutdown"`) || !resp.Close {
			t.Errorf("a request on a new connection during the drain: %d close=%v %q, want 503 with Retry-After and the connection closed", resp.StatusCode, resp.Close, b)
		}
	}
	select {
	case err := <-h.done:
		t.Errorf("Serve returned %v while the drain still had a request running; want the listener open until the drain's work is done", err)
	default:
	}
	wg.Wait()
	<-drained
	// Once the drain's work is done the listener is closed.
	select {
	case err := <-h.done:
		if err != http.ErrServerClosed {
			t.Errorf("Serve returned %v, want http.ErrServerClosed", err)
		}
	case <-time.After(10 * time.Second): // hang guard
		t.Fatal("the drain did not close the listener")
	}
	if c, err := net.DialTimeout("tcp", h.addr, 200*time.Millisecond); err == nil {
		c.Close()
		t.Errorf("a new connection was accepted after the drain")
	}
	for i := 0; i < n; i++ {
		if !strings.HasPrefix(results[i], "200 ") || !strings.Contains(results[i], `"result"`) {
			t.Errorf("in-flight request %d: %s, want its result", i, results[i])
		}
	}
	if r := results[n]; !strings.HasPrefix(r, "200 ") || !strings.Contains(r, `"reason":"shutdown"`) {
		t.Errorf("request cancelled at the end of the grace: %s, want the shutdown error", r)
	}
}

// isClosing reports whether the drain began (new requests are refused).
func (l *limiter) isClosing() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.closing
}

// waitUntil polls cond until it holds; the deadline only guards a hang (a
// loaded CI machine can be seconds late).
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestLegacySessionsCapped: at MaxLegacySessions a new session evicts the
// one idle the longest; the others go on.
func TestLegacySessionsCapped(t *testing.T) {
	k := limitServer(t, Limits{MaxLegacySessions: 2})
	h := startLimitedHTTP(t, k.s)
	a := openSession(t, h.url, `{}`)
	time.Sleep(5 * time.Millisecond)
	b := openSession(t, h.url, `{}`)
	time.Sleep(5 * time.Millisecond)
	if code, _, raw := a.rpc("2", "tools/list", ""); code != 200 { // a is now the most recent
		t.Fatalf("session a: %d %s", code, raw)
	}
	c := openSession(t, h.url, `{}`)
	if code, _, raw := b.rpc("3", "tools/list", ""); code != http.StatusNotFound {
		t.Fatalf("the session idle the longest after the cap: %d %s, want 404", code, raw)
	}
	for name, s := range map[string]*lgHTTP{"a": a, "c": c} {
		if code, _, raw := s.rpc("4", "tools/list", ""); code != 200 {
			t.Fatalf("session %s after the eviction: %d %s", name, code, raw)
		}
	}
	if n := len(k.s.sessions.m); n != 2 {
		t.Fatalf("%d sessions, want 2", n)
	}
}

// TestHTTPDrainAnswersStuckHandler: a handler that ignores its context is
// still answered with the shutdown error at the end of the drain's grace:
// it runs on its own goroutine, and the response does not wait for it.
func TestHTTPDrainAnswersStuckHandler(t *testing.T) {
	k := limitServer(t, Limits{DrainGrace: 300 * time.Millisecond})
	h := startLimitedHTTP(t, k.s)
	got := make(chan string, 1)
	go func() {
		resp, err := faultPost(t, h.url, faultCall("1", "stubborn", `{}`, defaultMeta))
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		got <- fmt.Sprintf("%d %s", resp.StatusCode, b)
	}()
	k.waitFor(t, k.started, "stubborn")
	start := time.Now()
	k.s.drainHTTP(h.srv)
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("the drain took %v with grace 300 ms", d)
	}
	if r := <-got; !strings.HasPrefix(r, "200 ") || !strings.Contains(r, `"reason":"shutdown"`) {
		t.Errorf("stuck handler at the end of the grace: %s, want the shutdown error", r)
	}
	close(k.release)
}

// TestHTTPWriteTimeoutCutsStalledReader: a client that stops reading an SSE
// response is cut off after WriteTimeout, and its handler's context ends.
func TestHTTPWriteTimeoutCutsStalledReader(t *testing.T) {
	k := limitServer(t, Limits{WriteTimeout: 300 * time.Millisecond})
	h := startLimitedHTTP(t, k.s)
	conn, err := net.Dial("tcp", h.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.(*net.TCPConn).SetReadBuffer(4 << 10)
	body := faultCall("1", "flood", `{}`, progressMeta)
	head := strings.Replace(rawPost(body, ""), "Mcp-Name: weather_current", "Mcp-Name: flood", 1)
	if _, err := io.WriteString(conn, head+body); err != nil {
		t.Fatal(err)
	}
	k.waitFor(t, k.started, "flood")
	// Never reads: once the loopback buffers are full (they grow first, so
	// that takes a while on a loaded machine) the server's writes block,
	// then time out.
	select {
	case name := <-k.cancelled:
		if name != "flood" {
			t.Fatalf("cancelled %s", name)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("a client that stopped reading was not cut off (%d notifications sent)", k.flooded.Load())
	}
	checkWeatherHTTP(t, h.url)
}

// TestHTTPAbruptDisconnectsLeakNothing: clients that vanish at every stage
// (before the headers end, in the body, before the answer, after a listen
// acknowledgement) leave no goroutine and no file descriptor behind, and
// other clients are served meanwhile.
func TestHTTPAbruptDisconnectsLeakNothing(t *testing.T) {
	k := limitServer(t, Limits{})
	h := startLimitedHTTP(t, k.s)
	checkWeatherHTTP(t, h.url)
	http.DefaultTransport.(*http.Transport).CloseIdleConnections()
	before := resNow()
	slow := faultCall("1", "wait_ms", `{"ms":100}`, defaultMeta)
	slowHead := strings.Replace(rawPost(slow, ""), "Mcp-Name: weather_current", "Mcp-Name: wait_ms", 1)
	listenBody := `{"jsonrpc":"2.0","id":"s","method":"subscriptions/listen","params":` + withMeta(`{"notifications":{"toolsListChanged":true}}`, defaultMeta) + `}`
	listenHead := strings.Replace(strings.Replace(rawPost(listenBody, ""), "Mcp-Method: tools/call", "Mcp-Method: subscriptions/listen", 1), "Mcp-Name: weather_current\r\n", "", 1)
	stopDrain := make(chan struct{})
	drained := make(chan struct{})
	go func() { // the fault tools signal on buffered channels: keep them flowing
		defer close(drained)
		for {
			select {
			case <-k.started:
			case <-k.cancelled:
			case <-stopDrain:
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for i := range 300 {
		wg.Go(func() {
			c, err := net.Dial("tcp", h.addr)
			if err != nil {
				return
			}
			defer c.Close()
			switch i % 4 {
			case 0:
				io.WriteString(c, slowHead[:30])
			case 1:
				io.WriteString(c, slowHead+slow[:len(slow)/2])
			case 2:
				io.WriteString(c, slowHead+slow)
				time.Sleep(10 * time.Millisecond)
			case 3:
				io.WriteString(c, listenHead+listenBody)
				br := bufio.NewReader(c)
				c.SetReadDeadline(time.Now().Add(2 * time.Second))
				for {
					line, err := br.ReadString('\n')
					if err != nil || strings.Contains(line, "acknowledged") {
						break
					}
				}
			}
			if i%2 == 0 {
				c.(*net.TCPConn).SetLinger(0)
			}
		})
	}
	checkWeatherHTTP(t, h.url)
	wg.Wait()
	waitInFlight(t, k.s, 0) // wait_ms handlers see their context end
	close(stopDrain)
	<-drained
	http.DefaultTransport.(*http.Transport).CloseIdleConnections()
	resNoLeak(t, before, 2)
}

// TestLegacySessionsFullOfStreams: when every session has an open GET
// stream, a new initialize is refused with 503 and Retry-After.
func TestLegacySessionsFullOfStreams(t *testing.T) {
	k := limitServer(t, Limits{MaxLegacySessions: 1})
	h := startLimitedHTTP(t, k.s)
	a := openSession(t, h.url, `{}`)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, h.url, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", a.sid)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET stream: %v %v", resp, err)
	}
	defer resp.Body.Close()
	b := &lgHTTP{t: t, url: h.url}
	r := b.post(lgBody("1", "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}`), "MCP-Protocol-Version", "2025-11-25")
	body, _ := io.ReadAll(r.Body)
	r.Body.Close()
	if r.StatusCode != http.StatusServiceUnavailable || r.Header.Get("Retry-After") == "" || r.Header.Get("Mcp-Session-Id") != "" {
		t.Fatalf("initialize with every session streaming: %d %s, want 503 with Retry-After and no session", r.StatusCode, body)
	}
	if code, _, raw := a.rpc("2", "tools/list", ""); code != 200 {
		t.Fatalf("the streaming session after the refusal: %d %s", code, raw)
	}
}
