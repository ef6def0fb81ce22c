package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/jsonrpc"
	"github.com/mcpgen/mcpgen/server"
)

// The walkthrough runs over three wires: the runtime in process, the built
// binary on stdio, and the Streamable HTTP handler.

const protocolVersion = "2026-07-28"

// msg is one JSON-RPC message as the client sees it.
type msg struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *struct {
		Code    int64           `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data,omitempty"`
	} `json:"error,omitempty"`
}

// wire carries the walkthrough's messages to one server.
type wire interface {
	// call sends a request and returns its response.
	call(t *testing.T, id int, method string, params map[string]any) msg
	// open sends a request answered by a stream (subscriptions/listen) and
	// returns its messages, notifications first and the response (if any)
	// last; cancel ends the stream from the client side.
	open(t *testing.T, id int, method string, params map[string]any) (stream <-chan msg, cancel func())
	// toggle switches weather_forecast in or out, as SIGHUP does.
	toggle(t *testing.T)
}

// request encodes a request carrying the _meta every 2026-07-28 request needs.
func request(id int, method string, params map[string]any) []byte {
	p := map[string]any{"_meta": map[string]any{
		"io.modelcontextprotocol/protocolVersion":    protocolVersion,
		"io.modelcontextprotocol/clientCapabilities": map[string]any{},
		"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "walkthrough-test", "version": "1.0.0"},
	}}
	maps.Copy(p, params)
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": p})
	if err != nil {
		panic(err)
	}
	return b
}

func decodeMsg(t *testing.T, b []byte) msg {
	t.Helper()
	var m msg
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("undecodable message %q: %v", b, err)
	}
	return m
}

// ---- in process: server.Handle ----

type inProcess struct{ app *App }

func (w inProcess) call(t *testing.T, id int, method string, params map[string]any) msg {
	t.Helper()
	m, derr := jsonrpc.Decode(request(id, method, params))
	if derr != nil {
		t.Fatal(derr)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	resp := w.app.Server.Handle(ctx, m, discard{})
	return decodeMsg(t, resp.Body)
}

func (w inProcess) open(t *testing.T, id int, method string, params map[string]any) (<-chan msg, func()) {
	m, derr := jsonrpc.Decode(request(id, method, params))
	if derr != nil {
		t.Fatal(derr)
	}
	ctx, cancel := context.WithCancel(t.Context())
	ch := make(chan msg, 16)
	go func() {
		defer close(ch)
		resp := w.app.Server.Handle(ctx, m, chanWriter{ctx, ch})
		if resp.Body != nil {
			var final msg
			if json.Unmarshal(resp.Body, &final) == nil {
				ch <- final
			}
		}
	}()
	return ch, cancel
}

func (w inProcess) toggle(t *testing.T) {
	t.Helper()
	if _, err := w.app.ToggleForecast(); err != nil {
		t.Fatal(err)
	}
}

type discard struct{}

func (discard) Notify(string, any) error { return nil }

// chanWriter turns the notifications of a stream into messages.
type chanWriter struct {
	ctx context.Context
	ch  chan<- msg
}

func (c chanWriter) Notify(method string, params any) error {
	raw, err := json.Marshal(params)
	if err != nil {
		return err
	}
	select {
	case c.ch <- msg{Method: method, Params: raw}:
		return nil
	case <-c.ctx.Done():
		return c.ctx.Err()
	}
}

// ---- stdio: the built binary ----

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

// weatherBinary builds the example once per test run.
func weatherBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "weather-bin-")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "weather")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// stdioWire talks newline-delimited JSON-RPC to a running binary.
type stdioWire struct {
	cmd    *exec.Cmd
	mu     sync.Mutex
	stdin  io.WriteCloser
	wait   map[string]chan msg // by request id
	stderr *lockedBuffer
	done   chan struct{}
}

func startStdio(t *testing.T, args ...string) *stdioWire {
	t.Helper()
	cmd := exec.Command(weatherBinary(t), args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	w := &stdioWire{cmd: cmd, stdin: stdin, wait: map[string]chan msg{}, stderr: &lockedBuffer{}, done: make(chan struct{})}
	cmd.Stderr = w.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go w.read(t, stdout)
	t.Cleanup(func() {
		stdin.Close() // the end of input ends the server
		select {
		case <-w.done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			t.Errorf("weather did not exit after its input ended; stderr:\n%s", w.stderr)
			<-w.done
		}
		if err := cmd.Wait(); err != nil {
			t.Errorf("weather exited with %v; stderr:\n%s", err, w.stderr)
		}
		if s := w.stderr.String(); strings.Contains(s, "panic") {
			t.Errorf("stderr mentions a panic:\n%s", s)
		}
	})
	return w
}

// lockedBuffer collects the stderr of the binary.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// read routes every line of stdout: responses by id, notifications by the
// subscriptionId in their _meta.
func (w *stdioWire) read(t *testing.T, stdout io.Reader) {
	defer close(w.done)
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 0, 64*1024), 4<<20)
	for sc.Scan() {
		var m msg
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Errorf("stdout line is not JSON-RPC: %q", sc.Text())
			continue
		}
		key := string(m.ID)
		if m.Method != "" {
			var p struct {
				Meta map[string]json.RawMessage `json:"_meta"`
			}
			_ = json.Unmarshal(m.Params, &p)
			key = string(p.Meta["io.modelcontextprotocol/subscriptionId"])
		}
		w.mu.Lock()
		ch := w.wait[key]
		w.mu.Unlock()
		if ch == nil {
			t.Errorf("unexpected message on stdout: %s", sc.Text())
			continue
		}
		select {
		case ch <- m:
		default:
			t.Errorf("nobody reads message %s", sc.Text())
		}
	}
}

func (w *stdioWire) send(t *testing.T, id int, method string, params map[string]any) chan msg {
	t.Helper()
	ch := make(chan msg, 16)
	w.mu.Lock()
	w.wait[fmt.Sprint(id)] = ch
	_, err := w.stdin.Write(append(request(id, method, params), '\n'))
	w.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	return ch
}

func (w *stdioWire) call(t *testing.T, id int, method string, params map[string]any) msg {
	t.Helper()
	select {
	case m := <-w.send(t, id, method, params):
		return m
	case <-time.After(10 * time.Second):
		t.Fatalf("no response to %s (id %d); stderr:\n%s", method, id, w.stderr)
	}
	return msg{}
}

func (w *stdioWire) open(t *testing.T, id int, method string, params map[string]any) (<-chan msg, func()) {
	ch := w.send(t, id, method, params)
	cancel := func() {
		// notifications/cancelled ends the stream; its messages stop.
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "notifications/cancelled",
			"params": map[string]any{"requestId": id, "reason": "test done"}})
		w.mu.Lock()
		_, _ = w.stdin.Write(append(b, '\n'))
		w.mu.Unlock()
	}
	return ch, cancel
}

func (w *stdioWire) toggle(t *testing.T) {
	t.Helper()
	if err := w.cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
}

// ---- Streamable HTTP: the handler behind httptest ----

type httpWire struct {
	url      string
	toggleFn func(t *testing.T)
}

// startHTTP serves app's HTTP handler at /mcp of a test server.
func startHTTP(t *testing.T, app *App) *httpWire {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle("/mcp", app.Server.HTTPHandler(server.HTTPOptions{}))
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return &httpWire{url: ts.URL + "/mcp", toggleFn: func(t *testing.T) {
		if _, err := app.ToggleForecast(); err != nil {
			t.Fatal(err)
		}
	}}
}

// startHTTPBinary runs the binary with --http on a free loopback port;
// toggling sends it SIGHUP.
func startHTTPBinary(t *testing.T) *httpWire {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd := exec.Command(weatherBinary(t), "--http", addr)
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		select {
		case err := <-exited:
			if err != nil {
				t.Errorf("weather --http exited with %v; stderr:\n%s", err, stderr)
			}
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			t.Errorf("weather --http did not stop on SIGINT; stderr:\n%s", stderr)
		}
	})
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("weather --http %s is not listening: %v; stderr:\n%s", addr, err, stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return &httpWire{url: "http://" + addr + "/mcp", toggleFn: func(t *testing.T) {
		if err := cmd.Process.Signal(syscall.SIGHUP); err != nil {
			t.Fatal(err)
		}
	}}
}

func (w *httpWire) post(t *testing.T, ctx context.Context, id int, method string, params map[string]any) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.url, bytes.NewReader(request(id, method, params)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", protocolVersion)
	req.Header.Set("Mcp-Method", method)
	if name, ok := params["name"].(string); ok {
		req.Header.Set("Mcp-Name", name)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// messages reads a response body: one JSON message, or the data of each
// server-sent event.
func messages(t *testing.T, resp *http.Response, out chan<- msg) {
	defer close(out)
	defer resp.Body.Close()
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		b, err := io.ReadAll(resp.Body)
		if err == nil && len(bytes.TrimSpace(b)) > 0 {
			var m msg
			if json.Unmarshal(b, &m) == nil {
				out <- m
			} else {
				t.Errorf("HTTP %d body is not JSON-RPC: %q", resp.StatusCode, b)
			}
		}
		return
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 0, 64*1024), 4<<20)
	var data strings.Builder
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "data:"):
			data.WriteString(strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
		case line == "" && data.Len() > 0:
			var m msg
			if json.Unmarshal([]byte(data.String()), &m) == nil {
				out <- m
			} else {
				t.Errorf("SSE data is not JSON-RPC: %q", data.String())
			}
			data.Reset()
		}
	}
}

func (w *httpWire) call(t *testing.T, id int, method string, params map[string]any) msg {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	ch := make(chan msg, 16)
	go messages(t, w.post(t, ctx, id, method, params), ch)
	var last msg
	for m := range ch {
		last = m // notifications of the request come first, the response last
	}
	if last.ID == nil {
		t.Fatalf("no response to %s (id %d)", method, id)
	}
	return last
}

func (w *httpWire) open(t *testing.T, id int, method string, params map[string]any) (<-chan msg, func()) {
	ctx, cancel := context.WithCancel(t.Context())
	ch := make(chan msg, 16)
	go messages(t, w.post(t, ctx, id, method, params), ch)
	return ch, cancel
}

func (w *httpWire) toggle(t *testing.T) {
	t.Helper()
	w.toggleFn(t)
}
