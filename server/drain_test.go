package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// TestDrainLetsLegacyInputRoundFinish: a legacy (initialize-era) stdio
// request whose handler returns InputRequiredError itself is in flight
// while the session asks the client (elicitation/create); the drain
// begins, and the client answers well within the grace. The request was
// admitted before the drain, so it must be let finish and answered with
// its result (Shutdown doc, step 3: "it lets the requests in flight ...
// finish, and their responses be written, until ctx is done"). The
// session's second round goes back through serveParsed, which used to
// refuse it as a new request (-32603 reason shutdown, seconds before the
// grace ended).
func TestDrainLetsLegacyInputRoundFinish(t *testing.T) {
	direct := NewTool(ToolInfo{Name: "direct", Description: "Returns InputRequiredError itself"}, func(ctx context.Context, in noArgs) (string, error) {
		if State(ctx) == nil {
			if err := SetState(ctx, json.RawMessage(`{"step":1}`)); err != nil {
				return "", err
			}
			return "", &InputRequiredError{Requests: map[string]mcp.InputRequest{"k": elicitName("Direct?")}}
		}
		resp, err := Ask(ctx, "k", elicitName("Direct?"))
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%s after %s", resp.(*mcp.ElicitResult).Content["name"], State(ctx)), nil
	})
	f := newFixture(t, func(o *Options) { o.Tools = append(o.Tools, direct) })
	p := startLegacyStdio(t, f.s)
	p.initialize("2025-11-25", fullCaps)
	p.call("1", "tools/call", `{"name":"direct"}`)
	req := p.serverRequest()
	if req["method"] != "elicitation/create" {
		t.Fatalf("server request %v", req)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	shut := make(chan error, 1)
	go func() { shut <- f.s.Shutdown(ctx) }()
	waitUntil(t, "the drain to begin", f.s.isClosing)
	p.send(`{"jsonrpc":"2.0","id":` + idOf(req) + `,"result":{"action":"accept","content":{"name":"Kay"}}}`)
	m, line := p.response("1")
	if res, _ := m["result"].(map[string]any); res == nil {
		t.Fatalf("in-flight request answered during the drain's grace with %s, want its result (Kay after {\"step\":1})", line)
	}
	if got := lgText(t, resultOf(t, m)); got != `Kay after {"step":1}` {
		t.Errorf("direct answered %q", got)
	}
	if err := <-shut; err != nil {
		t.Errorf("Shutdown = %v, want nil: the request finished within the grace", err)
	}
}

// TestDrainLetsAdmittedRequestInInterceptorFinish: an HTTP request admitted
// before the drain (it holds an in-flight slot) is still in an interceptor
// (say, a policy lookup) when Shutdown begins; the interceptor then calls
// next well within the grace. The request is in flight, so it must finish
// with its result (Shutdown doc, step 3; README "lets in-flight requests
// ... finish and writes their answers"), and README "Middleware": "They
// run after admission: a request the limits refuse (busy, rate limited,
// shutdown) is answered before them". The core used to refuse it as if
// it were new: 503 -32603 reason shutdown, after the interceptors ran.
func TestDrainLetsAdmittedRequestInInterceptorFinish(t *testing.T) {
	entered := make(chan struct{}, 1)
	release := make(chan struct{})
	slow := func(next Handler) Handler {
		return func(ctx context.Context, req *Request) (json.RawMessage, error) {
			if req.Method == "tools/call" {
				entered <- struct{}{}
				<-release
			}
			return next(ctx, req)
		}
	}
	s, err := New(Options{Name: "i", Version: "1", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Interceptors: []Interceptor{slow}, Tools: []Tool{weatherTool()}})
	if err != nil {
		t.Fatal(err)
	}
	h := startLimitedHTTP(t, s)
	got := make(chan string, 1)
	go func() {
		resp, err := faultPost(t, h.url, faultCall("1", "weather_current", `{"location":"Paris"}`, defaultMeta))
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		got <- fmt.Sprintf("%d %s", resp.StatusCode, b)
	}()
	select {
	case <-entered:
	case <-time.After(5 * time.Second):
		t.Fatal("the request never reached the interceptor")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	shut := make(chan error, 1)
	go func() { shut <- s.Shutdown(ctx) }()
	waitUntil(t, "the drain to begin", s.isClosing)
	close(release)
	var r string
	select {
	case r = <-got:
	case <-time.After(8 * time.Second):
		t.Fatal("no answer")
	}
	if !strings.HasPrefix(r, "200 ") || !strings.Contains(r, `"result"`) {
		t.Errorf("request admitted before the drain, released within the grace: %s, want 200 with its result", r)
	}
	<-shut
}

// TestDrainAdmittedRequestCreatesItsTask: a tools/call asking for a task,
// admitted before the drain, reaches task creation once the drain has
// begun (an interceptor held it). It was admitted, so it is served like
// any request in flight: its task is created and runs within the grace
// (Shutdown doc, step 3), and Shutdown reports that everything finished.
// A task it created that outlasts the grace would be failed at its end,
// as every unfinished task is.
func TestDrainAdmittedRequestCreatesItsTask(t *testing.T) {
	entered := make(chan struct{}, 1)
	release := make(chan struct{})
	hold := func(next Handler) Handler {
		return func(ctx context.Context, req *Request) (json.RawMessage, error) {
			if req.Method == "tools/call" {
				entered <- struct{}{}
				<-release
			}
			return next(ctx, req)
		}
	}
	s, err := New(Options{Name: "t", Version: "1", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Interceptors: []Interceptor{hold}, Tools: taskTools()})
	if err != nil {
		t.Fatal(err)
	}
	h := startLimitedHTTP(t, s)
	got := make(chan string, 1)
	go func() {
		resp, err := faultPost(t, h.url, faultCall("1", "sleeper", `{"ms":20}`, tasksMeta))
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		got <- fmt.Sprintf("%d %s", resp.StatusCode, b)
	}()
	select {
	case <-entered:
	case <-time.After(5 * time.Second):
		t.Fatal("the request never reached the interceptor")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	shut := make(chan error, 1)
	go func() { shut <- s.Shutdown(ctx) }()
	waitUntil(t, "the drain to begin", s.isClosing)
	close(release)
	var r string
	select {
	case r = <-got:
	case <-time.After(8 * time.Second):
		t.Fatal("no answer")
	}
	if !strings.HasPrefix(r, "200 ") || !strings.Contains(r, `"resultType":"task"`) {
		t.Fatalf("task-augmented call admitted before the drain: %s, want 200 with its CreateTaskResult", r)
	}
	if err := <-shut; err != nil {
		t.Errorf("Shutdown = %v, want nil: the task finished within the grace", err)
	}
	var created struct {
		Result struct {
			TaskID string `json:"taskId"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(r[len("200 "):]), &created); err != nil || created.Result.TaskID == "" {
		t.Fatalf("no taskId in %s (%v)", r, err)
	}
	tk := s.tasks.get(created.Result.TaskID)
	if tk == nil {
		t.Fatal("the task is gone from the store")
	}
	tk.mu.Lock()
	defer tk.mu.Unlock()
	if tk.status != TaskCompleted {
		t.Errorf("the task created during the drain is %s (%q), want completed", tk.status, tk.message)
	}
}

// drainGateWriter is a MessageWriter whose Notify calls number blockAt
// (1-based) wait until released.
type drainGateWriter struct {
	rec     *recorder
	blockAt []int
	n       int
	entered chan int
	release chan struct{}
}

func (w *drainGateWriter) Notify(method string, params any) error {
	w.n++
	for _, b := range w.blockAt {
		if b == w.n {
			w.entered <- w.n
			<-w.release
		}
	}
	return w.rec.Notify(method, params)
}

// TestDrainListenSendsPendingChangeBeforeResult: a subscriptions/listen
// stream is one change behind (it is writing tools/list_changed; prompts/list_changed,
// published before Shutdown, waits) when Shutdown begins. README: "A stream
// that is behind loses no notification ... each distinct change waits once
// until the stream takes it", and Shutdown "ends every open
// subscriptions/listen stream with its result" — the graceful end that
// tells the client (subscriptions.mdx, Graceful Closure) the subscription
// "ended gracefully — as opposed to an abrupt transport drop", so it does
// not re-list. The stream used to end with its result and drop the
// pending prompts change: the client was told all is well and kept a
// stale prompt list.
func TestDrainListenSendsPendingChangeBeforeResult(t *testing.T) {
	f := newFixture(t)
	w := &drainGateWriter{rec: newRecorder(), blockAt: []int{1, 2}, entered: make(chan int, 4), release: make(chan struct{})}
	msg, derr := jsonrpc.Decode([]byte(`{"jsonrpc":"2.0","id":"L","method":"subscriptions/listen","params":` +
		withMeta(`{"notifications":{"toolsListChanged":true,"promptsListChanged":true}}`, defaultMeta) + `}`))
	if derr != nil {
		t.Fatal(derr)
	}
	done := make(chan Response, 1)
	go func() { done <- f.s.Handle(context.Background(), msg, w) }()
	wait := func(what string) {
		select {
		case <-w.entered:
		case <-time.After(5 * time.Second):
			t.Fatalf("timed out waiting for %s", what)
		}
	}
	wait("the acknowledgement")
	// Two changes while the stream writes its acknowledgement.
	f.s.RemoveTools("slow")
	f.s.RemovePrompts("simple")
	w.release <- struct{}{}
	wait("the first change's notification") // the stream writes one; the other waits
	shut := make(chan error, 1)
	go func() { shut <- f.s.Shutdown(context.Background()) }()
	waitUntil(t, "the drain to begin", f.s.isClosing)
	w.release <- struct{}{}
	var resp Response
	select {
	case resp = <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the listen stream did not end")
	}
	if !strings.Contains(string(resp.Body), `"result"`) {
		t.Fatalf("listen ended with %s, want its result", resp.Body)
	}
	seen := map[string]bool{}
	var sent []string
	for _, n := range w.rec.all() {
		seen[n.Method] = true
		sent = append(sent, n.Method)
	}
	for _, m := range []string{"notifications/tools/list_changed", "notifications/prompts/list_changed"} {
		if !seen[m] {
			t.Errorf("the stream ended gracefully without %s, published before Shutdown began (sent: %v)", m, sent)
		}
	}
	<-shut
}

// TestDrainFlushesLegacyGETStream: a legacy session's GET stream is
// writing a large message to a client that has not read it yet, and ten
// more are queued for it, when Shutdown begins; the client then reads.
// The stream ends only after writing every message it had been given
// (README: "lets in-flight requests ... finish and writes their
// answers"; a stream that is behind loses no notification).
func TestDrainFlushesLegacyGETStream(t *testing.T) {
	f, srv := startLegacyHTTP(t)
	c := openSession(t, srv.URL, fullCaps)
	req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", c.sid)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET stream: %v %v", err, resp)
	}
	defer resp.Body.Close()
	hs := f.s.sessions.acquire(c.sid)
	if hs == nil {
		t.Fatal("no session")
	}
	defer hs.release()
	// More than the loopback socket buffers hold: the stream blocks in
	// its write until the client reads.
	big := jsonrpc.AppendNotification(nil, "notifications/message",
		[]byte(`{"level":"info","data":"`+strings.Repeat("x", 16<<20)+`"}`))
	const queued = 10
	for i := 0; i <= queued; i++ {
		msg := big
		if i > 0 {
			msg = jsonrpc.AppendNotification(nil, "notifications/message", fmt.Appendf(nil, `{"level":"info","data":"n%d"}`, i))
		}
		if err := hs.sendStream(msg); err != nil {
			t.Fatalf("queuing message %d: %v", i, err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	shut := make(chan error, 1)
	go func() { shut <- f.s.Shutdown(ctx) }()
	waitUntil(t, "the drain to begin", f.s.isClosing)
	events := make(chan int, 1)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 32<<20)
		n := 0
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "data:") {
				n++
			}
		}
		events <- n
	}()
	select {
	case n := <-events:
		if n != queued+1 {
			t.Errorf("the GET stream ended at the drain with %d of the %d messages queued for it", n, queued+1)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the GET stream did not end")
	}
	if err := <-shut; err != nil {
		t.Errorf("Shutdown = %v, want nil", err)
	}
}

// TestDrainRunStdioWritesAnswersBeforeReturning: Run on stdio, stopped
// (ctx done) while 12 requests run; they finish at once, well within a
// DrainGrace of 8 s, and the client reads its stdout steadily but not fast
// (the 2.5 MB of answers take it about 4 s). README: on SIGINT/SIGTERM Run
// "lets in-flight requests and tasks finish and writes their answers
// (stdio included)"; ServeStdio: "Stopping ... waits for the client to
// read the answers, however slowly it reads ... but not for a client that
// reads nothing". Run must not return (the process then exits, dropping
// whatever is unwritten) before the answers are written. Run used to
// return 2 s after Shutdown did (drainStdio: stopAfter + 1 s), however
// much of the grace was left, with most answers still unwritten.
func TestDrainRunStdioWritesAnswersBeforeReturning(t *testing.T) {
	big := strings.Repeat("x", 256<<10)
	started := make(chan struct{}, 64)
	gate := make(chan struct{})
	s, err := New(Options{Name: "d", Version: "1", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Limits: Limits{DrainGrace: 8 * time.Second},
		Tools: []Tool{NewTool(ToolInfo{Name: "big"}, func(ctx context.Context, in struct{}) (string, error) {
			started <- struct{}{}
			<-gate
			return big, nil
		})}})
	if err != nil {
		t.Fatal(err)
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	oldIn, oldOut := os.Stdin, os.Stdout
	os.Stdin, os.Stdout = inR, outW
	defer func() { os.Stdin, os.Stdout = oldIn, oldOut }()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx, "") }()
	const n = 10
	for i := 1; i <= n; i++ {
		if _, err := fmt.Fprintln(inW, faultCall(fmt.Sprint(i), "big", `{}`, defaultMeta)); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < n; i++ {
		select {
		case <-started:
		case <-time.After(5 * time.Second):
			t.Fatal("the requests did not start")
		}
	}
	var answers atomic.Int64
	var exited atomic.Bool
	read, eof := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(eof)
		// A client that reads steadily: 32 KiB every 50 ms; once the
		// server process is gone it takes what the pipe still holds.
		br := bufio.NewReaderSize(outR, 1<<20)
		<-read
		buf := make([]byte, 32<<10)
		for {
			k, err := br.Read(buf)
			answers.Add(int64(strings.Count(string(buf[:k]), "\n")))
			if err != nil {
				return
			}
			if !exited.Load() {
				time.Sleep(50 * time.Millisecond)
			}
		}
	}()
	cancel() // SIGTERM
	waitUntil(t, "the drain to begin", s.isClosing)
	close(gate) // every request finishes now, at the start of an 8 s grace
	close(read)
	select {
	case <-done:
	case <-time.After(15 * time.Second): // hang guard
		t.Fatal("Run did not return")
	}
	// The process exits when Run returns: its stdout closes, and what it
	// had not written is gone.
	exited.Store(true)
	outW.Close()
	select {
	case <-eof:
	case <-time.After(5 * time.Second):
		t.Fatal("the client did not reach the end of the output")
	}
	outR.Close()
	inW.Close()
	if got := answers.Load(); got < n {
		t.Errorf("Run returned with %d of %d answers written (the rest lost when the process exits); the grace had 8 s, the client needed about 4 s", got, n)
	}
}

// TestDrainWaitsForHandleAdmittedRequest: a request Server.Handle (a
// program's own transport, Server.Caller) admitted before the drain is in
// flight for it: Shutdown waits for it (drain.go, step 3: "A request
// admitted before the drain is served to its end ... a task it creates is
// created and runs like the others"; "It returns nil when everything
// finished within ctx"). It used to be uncounted: Shutdown returned nil at
// once, the task store closed, and the held task-augmented tools/call got
// -32603 {"reason":"shutdown"} instead of its CreateTaskResult.
func TestDrainWaitsForHandleAdmittedRequest(t *testing.T) {
	entered := make(chan struct{}, 1)
	release := make(chan struct{})
	hold := func(next Handler) Handler {
		return func(ctx context.Context, req *Request) (json.RawMessage, error) {
			if req.Method == "tools/call" {
				entered <- struct{}{}
				<-release
			}
			return next(ctx, req)
		}
	}
	s, err := New(Options{Name: "t", Version: "1", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Interceptors: []Interceptor{hold}, Tools: taskTools()})
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	go func() {
		msg := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"sleeper","arguments":{"ms":20},"_meta":` + tasksMeta + `}}`
		got <- string(s.HandleBytes(context.Background(), []byte(msg), discardWriter{}).Body)
	}()
	select {
	case <-entered:
	case <-time.After(5 * time.Second):
		t.Fatal("the request never reached the interceptor")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	shut := make(chan error, 1)
	go func() { shut <- s.Shutdown(ctx) }()
	waitUntil(t, "the drain to begin", s.isClosing)
	select {
	case err := <-shut:
		t.Errorf("Shutdown returned %v while a request Handle admitted before the drain was still in flight; want it to wait for it (drain.go step 3)", err)
		shut <- err
	case <-time.After(300 * time.Millisecond):
	}
	close(release)
	var r string
	select {
	case r = <-got:
	case <-time.After(8 * time.Second):
		t.Fatal("no answer")
	}
	if !strings.Contains(r, `"resultType":"task"`) {
		t.Errorf("task-augmented call admitted by Handle before the drain: %s, want its CreateTaskResult", r)
	}
	<-shut
}

// TestDrainRunHTTPKeepsListenerForLegacyAnswer: README (Limits and
// shutdown): under Run's drain "a legacy session's request runs its next
// round once the client has answered". Over Streamable HTTP a legacy
// client answers elicitation/create with a POST on another connection (its
// request's own carries the SSE response), so the listener stays open
// while the drain has work: the answer POSTed within the grace is taken
// (202) and the call answered with its result, and /readyz answers 503
// meanwhile. Run's drain used to close the listener at once: the answer
// got "connection refused" and the call was cut off at the grace's end.
func TestDrainRunHTTPKeepsListenerForLegacyAnswer(t *testing.T) {
	f := newFixture(t, func(o *Options) { o.Limits.DrainGrace = 2 * time.Second })
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
	defer func() {
		cancel()
		select {
		case <-done:
		case <-time.After(8 * time.Second):
			t.Error("Run did not return")
		}
	}()
	url := "http://" + addr + "/mcp"
	httpWaitFor(t, "Run to listen", func() bool {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
		}
		return err == nil
	})
	c := openSession(t, url, fullCaps)
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

	cancel() // SIGTERM: Run drains
	waitUntil(t, "the drain to begin", f.s.isClosing)
	// Give Run's http.Server.Shutdown its moment to close the listener
	// (it does so at once); a fixed server may keep it open.
	deadline := time.Now().Add(time.Second)
	for time.Now().Before(deadline) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			break
		}
		c.Close()
		time.Sleep(10 * time.Millisecond)
	}

	if probe, err := (&http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 3 * time.Second}).Get("http://" + addr + ReadyPath); err != nil {
		t.Errorf("/readyz during the drain: %v, want 503", err)
	} else {
		probe.Body.Close()
		if probe.StatusCode != http.StatusServiceUnavailable {
			t.Errorf("/readyz during the drain: %d, want 503", probe.StatusCode)
		}
	}

	body := `{"jsonrpc":"2.0","id":` + idOf(req) + `,"result":{"action":"accept","content":{"name":"Lin"}}}`
	hreq, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "application/json, text/event-stream")
	hreq.Header.Set("Mcp-Session-Id", c.sid)
	hreq.Header.Set("MCP-Protocol-Version", "2025-11-25")
	answer, err := (&http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 3 * time.Second}).Do(hreq)
	if err != nil {
		t.Fatalf("the client's answer to elicitation/create, POSTed within the grace, cannot reach the server: %v; want 202 and the call's next round (README, Limits and shutdown)", err)
	}
	answer.Body.Close()
	if answer.StatusCode != http.StatusAccepted {
		t.Fatalf("posting the answer during the drain: %d, want 202", answer.StatusCode)
	}
	res, raw := ev.next(t)
	if idOf(res) != "2" || res["result"] == nil {
		t.Errorf("ask_name answered within the grace: %s, want its result", raw)
	}
}

// TestDrainAnswersHandleRequestAtGraceEnd: a request Server.Handle
// admitted before the drain and still running when Shutdown's ctx ends is
// cancelled like the others and answered with -32603 {"reason":
// "shutdown"}; a request Handle gets once the drain began is refused with
// that reason.
func TestDrainAnswersHandleRequestAtGraceEnd(t *testing.T) {
	k := limitServer(t, Limits{})
	got := make(chan string, 2)
	// One caller passes context.Background (the handler then runs under
	// the limiter's own stop context), one a context of its own.
	callerCtx, callerCancel := context.WithCancel(context.Background())
	defer callerCancel()
	for _, ctx := range []context.Context{context.Background(), callerCtx} {
		go func() {
			got <- string(k.s.HandleBytes(ctx, []byte(faultCall("1", "until_cancel", `{}`, defaultMeta)), discardWriter{}).Body)
		}()
	}
	k.waitAll(t, k.started, map[string]int{"until_cancel": 2})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if err := k.s.Shutdown(ctx); err == nil {
		t.Errorf("Shutdown returned nil with a Handle request running past its ctx; want ctx.Err()")
	}
	for range 2 {
		select {
		case r := <-got:
			if !strings.Contains(r, `"reason":"shutdown"`) || !strings.Contains(r, `"id":1`) {
				t.Errorf("Handle request cut off at the end of the grace: %s, want -32603 reason shutdown", r)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("a Handle request was not cancelled at the end of the grace")
		}
	}
	if r := string(k.s.HandleBytes(context.Background(), []byte(faultCall("2", "weather_current", `{"location":"Paris"}`, defaultMeta)), discardWriter{}).Body); !strings.Contains(r, `"reason":"shutdown"`) {
		t.Errorf("Handle request during the drain: %s, want refused with reason shutdown", r)
	}
}
