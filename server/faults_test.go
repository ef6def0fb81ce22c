package server

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// Fault tests: each fault gets its specified error or a clean close, other
// clients are unaffected, and no goroutine or file descriptor outlives the
// connection (counted before and after; /proc/self/fd for fds).

// faultKit is a server with the tools the fault tests misbehave with.
type faultKit struct {
	s         *Server
	started   chan string   // name of a blocking tool that began
	cancelled chan string   // name of a tool that saw its context end
	release   chan struct{} // closed by the test: "stubborn" returns
	flooded   atomic.Int64  // notifications "flood" has sent
}

type faultArgs struct {
	MS int `json:"ms,omitempty"`
}

func newFaultKit(t testing.TB) *faultKit {
	t.Helper()
	return newFaultKitLimits(t, Limits{})
}

func newFaultKitLimits(t testing.TB, lim Limits) *faultKit {
	t.Helper()
	k := &faultKit{started: make(chan string, 64), cancelled: make(chan string, 64), release: make(chan struct{})}
	blockTool := func(name string, fn func(ctx context.Context, in faultArgs) (string, error)) Tool {
		return NewTool(ToolInfo{Name: name}, fn)
	}
	s, err := New(Options{Name: "faults", Version: "1", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Limits: lim,
		Tools: []Tool{
			weatherTool(),
			blockTool("boom", func(ctx context.Context, in faultArgs) (string, error) { panic("kaboom") }),
			// wait_ms honours cancellation.
			blockTool("wait_ms", func(ctx context.Context, in faultArgs) (string, error) {
				k.started <- "wait_ms"
				select {
				case <-time.After(time.Duration(in.MS) * time.Millisecond):
					return "waited", nil
				case <-ctx.Done():
					k.cancelled <- "wait_ms"
					return "", ctx.Err()
				}
			}),
			blockTool("until_cancel", func(ctx context.Context, in faultArgs) (string, error) {
				k.started <- "until_cancel"
				<-ctx.Done()
				k.cancelled <- "until_cancel"
				return "", ctx.Err()
			}),
			// stubborn ignores cancellation until the test releases it.
			blockTool("stubborn", func(ctx context.Context, in faultArgs) (string, error) {
				k.started <- "stubborn"
				<-k.release
				return "finally", nil
			}),
			// flood sends 1 KiB progress notifications until cancelled.
			blockTool("flood", func(ctx context.Context, in faultArgs) (string, error) {
				k.started <- "flood"
				msg := strings.Repeat("x", 1024)
				for i := 0; ctx.Err() == nil; i++ {
					Progress(ctx, float64(i), 0, msg)
					k.flooded.Add(1)
				}
				k.cancelled <- "flood"
				return "", ctx.Err()
			}),
		}})
	if err != nil {
		t.Fatal(err)
	}
	k.s = s
	return k
}

func (k *faultKit) waitFor(t testing.TB, ch chan string, want string) {
	t.Helper()
	select {
	case got := <-ch:
		if got != want {
			t.Fatalf("got signal from %q, want %q", got, want)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("timed out waiting for %q", want)
	}
}

const progressMeta = `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":"p"}`

func faultCall(id, tool, args, meta string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":` + withMeta(`{"name":"`+tool+`","arguments":`+args+`}`, meta) + `}`
}

// waitAll waits for the given number of signals of each name, in any order.
func (k *faultKit) waitAll(t testing.TB, ch chan string, want map[string]int) {
	t.Helper()
	n := 0
	for _, c := range want {
		n += c
	}
	got := map[string]int{}
	for range n {
		select {
		case name := <-ch:
			got[name]++
		case <-time.After(5 * time.Second):
			t.Fatalf("timed out: signals %v, want %v", got, want)
		}
	}
	for name, c := range want {
		if got[name] != c {
			t.Fatalf("signals %v, want %v", got, want)
		}
	}
}

// --- stdio harness on OS pipes (so fds are real) ---

type faultStdio struct {
	t       *testing.T
	inW     *os.File
	out     chan string
	done    chan error
	closers []*os.File
}

func startFaultStdio(t *testing.T, s *Server, maxLine int) *faultStdio {
	t.Helper()
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	f := &faultStdio{t: t, inW: inW, out: make(chan string, 1024), done: make(chan error, 1), closers: []*os.File{inR, outR}}
	go func() {
		err := s.serveStdio(context.Background(), inR, outW, maxLine)
		outW.Close()
		f.done <- err
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			f.out <- sc.Text()
		}
		close(f.out)
	}()
	return f
}

func (f *faultStdio) send(line string) {
	f.t.Helper()
	if _, err := io.WriteString(f.inW, line+"\n"); err != nil {
		f.t.Fatal(err)
	}
}

// reply returns the next output line decoded.
func (f *faultStdio) reply() map[string]any {
	f.t.Helper()
	select {
	case line, ok := <-f.out:
		if !ok {
			f.t.Fatal("output closed")
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			f.t.Fatalf("not JSON: %q", line)
		}
		return m
	case <-time.After(5 * time.Second):
		f.t.Fatal("no reply")
		return nil
	}
}

// closeIn closes stdin and waits for ServeStdio, returning its error and
// how long it took; the remaining output lines are returned too.
//
//lint:ignore ST1008 the error first reads best at the many call sites
func (f *faultStdio) closeIn(limit time.Duration) (error, time.Duration, []string) {
	f.t.Helper()
	start := time.Now()
	f.inW.Close()
	var err error
	select {
	case err = <-f.done:
	case <-time.After(limit):
		f.t.Fatalf("ServeStdio did not return within %v of stdin closing", limit)
	}
	took := time.Since(start)
	var rest []string
	for line := range f.out {
		rest = append(rest, line)
	}
	for _, c := range f.closers {
		c.Close()
	}
	return err, took, rest
}

func errorCode(m map[string]any) int {
	e, _ := m["error"].(map[string]any)
	c, _ := e["code"].(float64)
	return int(c)
}

func isWeather(m map[string]any) bool {
	r, _ := m["result"].(map[string]any)
	sc, _ := r["structuredContent"].(map[string]any)
	return sc["location"] == "Paris" && sc["temperature"] == 21.5
}

// --- HTTP helpers ---

func faultPost(t testing.TB, url, body string) (*http.Response, error) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	var p struct {
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	if json.Unmarshal([]byte(body), &p) == nil && p.Params.Name != "" {
		req.Header.Set("Mcp-Name", p.Params.Name)
	}
	return http.DefaultClient.Do(req)
}

// checkWeatherHTTP makes one normal call and requires it to succeed
// quickly: the "other client" of every HTTP fault.
func checkWeatherHTTP(t testing.TB, url string) {
	t.Helper()
	start := time.Now()
	resp, err := faultPost(t, url, faultCall("100", "weather_current", `{"location":"Paris","units":"metric"}`, defaultMeta))
	if err != nil {
		t.Fatalf("other client: %v", err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var m map[string]any
	if resp.StatusCode != 200 || json.Unmarshal(data, &m) != nil || !isWeather(m) {
		t.Fatalf("other client: status %d %q", resp.StatusCode, data)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("other client took %v", d)
	}
}

// TestFaultSSEClientDisconnects: a client drops its SSE response mid-stream;
// the handler's context is cancelled, other clients are served, and nothing
// leaks.
func TestFaultSSEClientDisconnects(t *testing.T) {
	k := newFaultKit(t)
	before := resNow()
	ts := httptest.NewServer(k.s.HTTPHandler(HTTPOptions{}))
	tr := &http.Transport{}
	hc := &http.Client{Transport: tr}
	req, _ := http.NewRequest(http.MethodPost, ts.URL, strings.NewReader(faultCall("1", "flood", `{}`, progressMeta)))
	for k, v := range map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
		"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "flood"} {
		req.Header.Set(k, v)
	}
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("Content-Type %q, want an SSE stream", ct)
	}
	k.waitFor(t, k.started, "flood")
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "event:") && !strings.HasPrefix(line, "data:") && !strings.HasPrefix(line, "id:") {
		t.Fatalf("first SSE line %q, %v", line, err)
	}
	checkWeatherHTTP(t, ts.URL) // served while the stream runs
	resp.Body.Close()           // disconnect mid-stream
	tr.CloseIdleConnections()
	k.waitFor(t, k.cancelled, "flood")
	checkWeatherHTTP(t, ts.URL)
	http.DefaultTransport.(*http.Transport).CloseIdleConnections()
	ts.Close()
	resNoLeak(t, before, 2)
}

// TestFaultStdinClosedInFlight: stdin ends while requests run; the ones
// that finish within the drain time (2 s) are answered with their result,
// one that only ends on cancellation is cancelled and answered with the
// shutdown error, and ServeStdio returns nil.
func TestFaultStdinClosedInFlight(t *testing.T) {
	k := newFaultKit(t)
	before := resNow()
	f := startFaultStdio(t, k.s, 0)
	for i := 1; i <= 3; i++ {
		f.send(faultCall(fmt.Sprint(i), "wait_ms", `{"ms":300}`, defaultMeta))
	}
	f.send(faultCall("4", "until_cancel", `{}`, defaultMeta))
	k.waitAll(t, k.started, map[string]int{"wait_ms": 3, "until_cancel": 1})
	err, took, rest := f.closeIn(stdioDrain + 3*time.Second)
	if err != nil {
		t.Fatalf("ServeStdio: %v", err)
	}
	k.waitFor(t, k.cancelled, "until_cancel")
	ids := map[string]bool{}
	for _, line := range rest {
		var m map[string]any
		if json.Unmarshal([]byte(line), &m) != nil {
			t.Fatalf("not JSON: %q", line)
		}
		id := fmt.Sprint(m["id"])
		r, _ := m["result"].(map[string]any)
		if id == "4" {
			if errorCode(m) != -32603 || !strings.Contains(line, `"reason":"shutdown"`) {
				t.Fatalf("cancelled request not answered with the shutdown error: %q", line)
			}
		} else if r == nil {
			t.Fatalf("in-flight request not answered with its result: %q", line)
		}
		ids[id] = true
	}
	if len(ids) != 4 || !ids["1"] || !ids["2"] || !ids["3"] || !ids["4"] {
		t.Fatalf("answered %v, want ids 1, 2, 3 and the cancelled 4: %q", ids, rest)
	}
	if took > stdioDrain+time.Second {
		t.Errorf("ServeStdio took %v to return", took)
	}
	resNoLeak(t, before, 2)
}

// TestFaultHandlerPanics: a panicking handler is -32603 on stdio and HTTP;
// the server keeps serving.
func TestFaultHandlerPanics(t *testing.T) {
	k := newFaultKit(t)
	before := resNow()
	f := startFaultStdio(t, k.s, 0)
	f.send(faultCall("1", "boom", `{}`, defaultMeta))
	if m := f.reply(); errorCode(m) != -32603 || fmt.Sprint(m["id"]) != "1" {
		t.Fatalf("panic on stdio: %v", m)
	}
	f.send(faultCall("2", "weather_current", `{"location":"Paris"}`, defaultMeta))
	if m := f.reply(); !isWeather(m) {
		t.Fatalf("after the panic: %v", m)
	}
	if err, _, rest := f.closeIn(5 * time.Second); err != nil || len(rest) != 0 {
		t.Fatalf("close: %v %q", err, rest)
	}

	ts := httptest.NewServer(k.s.HTTPHandler(HTTPOptions{}))
	resp, err := faultPost(t, ts.URL, faultCall("3", "boom", `{}`, defaultMeta))
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var m map[string]any
	if json.Unmarshal(data, &m) != nil || errorCode(m) != -32603 {
		t.Fatalf("panic on HTTP: %d %q", resp.StatusCode, data)
	}
	checkWeatherHTTP(t, ts.URL)
	http.DefaultTransport.(*http.Transport).CloseIdleConnections()
	ts.Close()
	resNoLeak(t, before, 2)
}

// TestFaultHandlerIgnoresCancellation documents the bound for a handler
// that never returns on cancellation. Go cannot stop a goroutine, so:
//   - stdio: ServeStdio returns at most stdioDrain (2 s) + 1 s after stdin
//     ends, having answered the request with the shutdown error and
//     cancelled it; nothing more is written for it, even when it returns
//     later; what is left is the stuck handler's goroutine and ServeStdio's
//     two drain waiters, and they exit as soon as the handler returns.
//   - HTTP: the handler runs on its own goroutine (serveLimited), so a
//     client that disconnects ends its request at once and
//     http.Server.Shutdown does not wait for the handler; Server.Shutdown
//     waits for it through its grace plus 1 s, then returns
//     DeadlineExceeded; again only the handler's goroutine remains until
//     it returns. (TestHTTPDrainAnswersStuckHandler: a client still there
//     is answered with the shutdown error at the end of the grace.)
func TestFaultHandlerIgnoresCancellation(t *testing.T) {
	k := newFaultKit(t)
	before := resNow()
	f := startFaultStdio(t, k.s, 0)
	f.send(faultCall("1", "stubborn", `{}`, defaultMeta))
	k.waitFor(t, k.started, "stubborn")
	err, took, rest := f.closeIn(stdioDrain + 3*time.Second)
	if err != nil || len(rest) != 1 || !strings.Contains(rest[0], `"id":1,"error":{"code":-32603`) || !strings.Contains(rest[0], `"reason":"shutdown"`) {
		t.Fatalf("ServeStdio: %v, output %q, want the shutdown error for id 1", err, rest)
	}
	// The drain (2 s) and the wait after cancelling (1 s); 2 s of slack for
	// a loaded machine.
	if took < stdioDrain || took > stdioDrain+time.Second+2*time.Second {
		t.Errorf("ServeStdio returned after %v, want between %v and %v (+ 2 s of slack)", took, stdioDrain, stdioDrain+time.Second)
	}
	// Left behind until the handler returns: its worker and ServeStdio's two
	// drain waiters (waitTimeout), nothing else.
	for wait := time.Now().Add(5 * time.Second); runtime.NumGoroutine() > before.goroutines+3; {
		if time.Now().After(wait) {
			t.Errorf("%d goroutines with one stuck handler (before: %d; allowed: +3)", runtime.NumGoroutine(), before.goroutines)
			break
		}
		time.Sleep(10 * time.Millisecond)
	}

	// HTTP: the same handler, a client that gives up, a bounded shutdown.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: k.s.HTTPHandler(HTTPOptions{})}
	go srv.Serve(ln)
	url := "http://" + ln.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(faultCall("2", "stubborn", `{}`, defaultMeta)))
	for k, v := range map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
		"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "stubborn"} {
		req.Header.Set(k, v)
	}
	errc := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		errc <- err
	}()
	k.waitFor(t, k.started, "stubborn")
	checkWeatherHTTP(t, url) // other clients unaffected
	cancel()                 // the client gives up
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("client: %v", err)
	}
	sctx, scancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	start := time.Now()
	if err := srv.Shutdown(sctx); err != nil {
		t.Errorf("http.Server.Shutdown after the client left: %v (the request has ended)", err)
	}
	serr := k.s.Shutdown(sctx)
	scancel()
	// The grace (300 ms) and the wait for the handler (1 s); slack for load.
	if !errors.Is(serr, context.DeadlineExceeded) || time.Since(start) > 4*time.Second {
		t.Errorf("Shutdown with a stuck handler: %v after %v", serr, time.Since(start))
	}
	srv.Close()
	http.DefaultTransport.(*http.Transport).CloseIdleConnections()

	close(k.release) // the handlers return; their late results go nowhere
	resNoLeak(t, before, 2)
}

// TestFaultOversizeMessage: a message over the limit is -32600 (stdio, the
// id cannot be known) or 413 (HTTP), and the connection goes on.
func TestFaultOversizeMessage(t *testing.T) {
	k := newFaultKit(t)
	before := resNow()
	for _, tc := range []struct {
		name    string
		maxLine int
		size    int
	}{
		{"stdio limit 1 KiB", 1 << 10, 4 << 10},
		{"stdio default 16 MiB", 0, 16<<20 + 1},
	} {
		f := startFaultStdio(t, k.s, tc.maxLine)
		big := faultCall("1", "weather_current", `{"location":"`+strings.Repeat("x", tc.size)+`"}`, defaultMeta)
		written := make(chan error, 1)
		go func() { // the server discards it while reading
			_, err := io.WriteString(f.inW, big+"\n")
			written <- err
		}()
		m := f.reply()
		if errorCode(m) != -32600 || m["id"] != nil {
			t.Fatalf("%s: oversize line answered %v", tc.name, m)
		}
		if err := <-written; err != nil {
			t.Fatalf("%s: writing the oversize line: %v", tc.name, err)
		}
		f.send(faultCall("2", "weather_current", `{"location":"Paris"}`, defaultMeta))
		if m := f.reply(); !isWeather(m) || fmt.Sprint(m["id"]) != "2" {
			t.Fatalf("%s: after the oversize line: %v", tc.name, m)
		}
		if err, _, rest := f.closeIn(5 * time.Second); err != nil || len(rest) != 0 {
			t.Fatalf("%s: close: %v %q", tc.name, err, rest)
		}
	}
	for _, tc := range []struct {
		name  string
		limit int64
		size  int
	}{
		{"HTTP limit 1 KiB", 1 << 10, 4 << 10},
		{"HTTP default 4 MiB", 0, 4<<20 + 1},
	} {
		ts := httptest.NewServer(k.s.HTTPHandler(HTTPOptions{MaxBodyBytes: tc.limit}))
		big := faultCall("1", "weather_current", `{"location":"`+strings.Repeat("x", tc.size)+`"}`, defaultMeta)
		resp, err := faultPost(t, ts.URL, big)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestEntityTooLarge {
			t.Fatalf("%s: status %d, want 413", tc.name, resp.StatusCode)
		}
		checkWeatherHTTP(t, ts.URL)
		http.DefaultTransport.(*http.Transport).CloseIdleConnections()
		ts.Close()
	}
	resNoLeak(t, before, 2)
}

// TestFaultSlowSSEClient: a client that stops reading its SSE stream holds
// back only its own handler (Notify blocks once the socket buffers are
// full): other clients are served at normal speed and the server's memory
// stays bounded; closing the slow connection ends the handler.
func TestFaultSlowSSEClient(t *testing.T) {
	k := newFaultKit(t)
	before := resNow()
	ts := httptest.NewServer(k.s.HTTPHandler(HTTPOptions{}))
	conn, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	conn.(*net.TCPConn).SetReadBuffer(4 << 10)
	body := faultCall("1", "flood", `{}`, progressMeta)
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"+
		"MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: flood\r\nContent-Length: %d\r\n\r\n%s",
		ts.Listener.Addr().String(), len(body), body)
	k.waitFor(t, k.started, "flood")

	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	heapBefore := ms.HeapAlloc
	// The slow client reads nothing for a while (at least 1.5 s, and until
	// the flood has filled the socket: no notification sent for 500 ms.
	// That takes longer under -race or on a loaded machine, where the
	// loopback send buffers grow and fill slowly, and where a runnable
	// flood may not be scheduled for a few milliseconds); others keep
	// being served.
	start := time.Now()
	calls := 0
	for last, changed := int64(-1), start; time.Since(start) < 1500*time.Millisecond ||
		(time.Since(changed) < 500*time.Millisecond && time.Since(start) < 30*time.Second); calls++ {
		checkWeatherHTTP(t, ts.URL)
		if now := k.flooded.Load(); now != last {
			last, changed = now, time.Now()
		}
		time.Sleep(time.Millisecond)
	}
	sent1 := k.flooded.Load()
	time.Sleep(300 * time.Millisecond)
	sent2 := k.flooded.Load()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	growth := int64(ms.HeapAlloc) - int64(heapBefore)
	t.Logf("slow SSE client: %d notifications (1 KiB) sent before the socket filled (%d more in the last 300 ms); heap growth %d KiB; %d other calls served", sent1, sent2-sent1, growth>>10, calls)
	if sent2-sent1 > 64 {
		t.Errorf("the flood kept going (%d notifications in 300 ms) although its client reads nothing: buffered without bound?", sent2-sent1)
	}
	if growth > 16<<20 {
		t.Errorf("heap grew %d bytes while a client was stalled", growth)
	}
	conn.Close() // the slow client gives up
	k.waitFor(t, k.cancelled, "flood")
	http.DefaultTransport.(*http.Transport).CloseIdleConnections()
	ts.Close()
	resNoLeak(t, before, 2)
}
