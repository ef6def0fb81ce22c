package server

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mcpgen/mcpgen/internal/httpwire"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// fakeCore stands in for *Server behind httpHandler: it checks the _meta
// presence like the core, answers a few methods and tools, streams
// notifications and serves subscriptions/listen until shutdown.
type fakeCore struct {
	mu        sync.Mutex
	notes     []string                 // methods of notifications received
	listeners map[chan string]struct{} // open listen streams
	shutdown  chan struct{}            // closed by stop: listen streams end with a result
	cancelled chan string              // ids of requests whose ctx was cancelled
	started   chan string              // ids of slow requests that began
	headers   map[string][]httpwire.ParamHeader
	// noBlock makes slow tools answer at once (for fuzzing).
	noBlock bool
	// lateWrites counts Notify calls that succeeded after cancellation.
	lateWrites atomic.Int32
}

func newFakeCore() *fakeCore {
	return &fakeCore{
		listeners: map[chan string]struct{}{},
		shutdown:  make(chan struct{}),
		cancelled: make(chan string, 100),
		started:   make(chan string, 100),
		headers: map[string][]httpwire.ParamHeader{
			"hdr": {{Name: "Region", Path: []string{"region"}, Type: "string"}},
		},
	}
}

func (f *fakeCore) SupportedVersions() []string { return []string{"2026-07-28"} }

func (f *fakeCore) toolParamHeaders(name string) []httpwire.ParamHeader { return f.headers[name] }

// stop ends every listen stream with its result, like (*Server).Shutdown.
func (f *fakeCore) stop() { close(f.shutdown) }

// broadcast sends a list-changed notification method to every listener.
func (f *fakeCore) broadcast(method string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for ch := range f.listeners {
		ch <- method
	}
}

func (f *fakeCore) listenerCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.listeners)
}

func (f *fakeCore) notifications() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.notes...)
}

func fakeResult(id jsonrpc.ID, v string) Response {
	return Response{Body: jsonrpc.AppendResult(nil, id, []byte(v))}
}

func fakeFailure(id jsonrpc.ID, code int64, msg string) Response {
	return Response{Body: jsonrpc.AppendError(nil, id, jsonrpc.NewError(code, msg, nil)), Code: code}
}

func (f *fakeCore) serveStateless(ctx context.Context, pr *parsedRequest, w MessageWriter) Response {
	return f.Handle(ctx, pr.msg, w)
}

func (f *fakeCore) Handle(ctx context.Context, msg jsonrpc.Message, w MessageWriter) Response {
	if msg.Kind == jsonrpc.KindNotification {
		f.mu.Lock()
		f.notes = append(f.notes, msg.Method)
		f.mu.Unlock()
		return Response{}
	}
	if msg.Method == "initialize" || msg.Method == "ping" { // removed in 2026-07-28, checked first like the core
		return fakeFailure(msg.ID, jsonrpc.CodeMethodNotFound, "Method not found; supported versions: 2026-07-28")
	}
	pr := parseRequest(msg)
	if !pr.metaUsable() {
		return fakeFailure(msg.ID, jsonrpc.CodeInvalidParams, "missing _meta field")
	}
	switch msg.Method {
	case "tools/list":
		return fakeResult(msg.ID, `{"resultType":"complete","tools":[]}`)
	case "tools/call":
		return f.call(ctx, msg.ID, pr.params.name, w)
	case methodListen:
		return f.listen(ctx, msg.ID, w)
	}
	return fakeFailure(msg.ID, jsonrpc.CodeMethodNotFound, "Method not found")
}

func (f *fakeCore) call(ctx context.Context, id jsonrpc.ID, name string, w MessageWriter) Response {
	switch name {
	case "echo", "hdr":
		return fakeResult(id, `{"resultType":"complete","content":[{"type":"text","text":"ok"}]}`)
	case "progress":
		for i := 1; i <= 3; i++ {
			if err := w.Notify("notifications/progress", map[string]any{"progressToken": "p", "progress": i, "total": 3}); err != nil {
				return Response{}
			}
		}
		return fakeResult(id, `{"resultType":"complete","content":[]}`)
	case "fail_after_progress":
		_ = w.Notify("notifications/progress", map[string]any{"progressToken": "p", "progress": 1})
		return fakeFailure(id, jsonrpc.CodeInvalidParams, "bad argument")
	case "slow", "slow_quiet":
		if f.noBlock {
			return fakeResult(id, `{"resultType":"complete","content":[]}`)
		}
		if name == "slow" {
			_ = w.Notify("notifications/progress", json.RawMessage(`{"progressToken":"s","progress":1}`))
		}
		f.started <- id.String()
		<-ctx.Done()
		f.cancelled <- id.String()
		if err := w.Notify("notifications/progress", nil); err == nil {
			f.lateWrites.Add(1)
		}
		return Response{} // suppressed, like the core
	case "nobody":
		return Response{}
	case "panic_like":
		return fakeFailure(id, jsonrpc.CodeInternalError, "handler panicked")
	}
	return fakeFailure(id, jsonrpc.CodeInvalidParams, "unknown tool "+strconv.Quote(name))
}

func (f *fakeCore) listen(ctx context.Context, id jsonrpc.ID, w MessageWriter) Response {
	tag := `{"_meta":{"io.modelcontextprotocol/subscriptionId":` + id.String() + `}}`
	ch := make(chan string, 16)
	f.mu.Lock()
	f.listeners[ch] = struct{}{}
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		delete(f.listeners, ch)
		f.mu.Unlock()
	}()
	ack := `{"_meta":{"io.modelcontextprotocol/subscriptionId":` + id.String() + `},"notifications":{"toolsListChanged":true}}`
	if err := w.Notify("notifications/subscriptions/acknowledged", json.RawMessage(ack)); err != nil {
		return Response{}
	}
	for {
		select {
		case <-ctx.Done():
			f.cancelled <- id.String()
			return Response{}
		case <-f.shutdown:
			return fakeResult(id, `{"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":`+id.String()+`}}`)
		case m := <-ch:
			if err := w.Notify(m, json.RawMessage(tag)); err != nil {
				return Response{}
			}
		}
	}
}

// ---- request helpers ----

const testMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

// reqBody builds a request body with the standard _meta merged into params
// (params is a JSON object without braces, possibly empty).
func reqBody(id, method, params string) string {
	if params != "" {
		params += ","
	}
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `","params":{` + params + testMeta + `}}`
}

func callBody(id, name, args string) string {
	return reqBody(id, "tools/call", `"name":"`+name+`","arguments":`+args)
}

// stdHeaders returns the headers a conforming client sends for method
// (and Mcp-Name when name is not empty) followed by extra pairs.
func stdHeaders(method, name string, extra ...string) []string {
	h := []string{"Content-Type", "application/json", "Accept", "application/json, text/event-stream",
		"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", method}
	if name != "" {
		h = append(h, "Mcp-Name", name)
	}
	return append(h, extra...)
}

// newPost builds a POST to target with raw header pairs: a pair replaces
// every header of that name in any case and is set with the name as
// written; a name prefixed with "+" adds a value instead; "Host" sets
// r.Host; the value "\x00" deletes the header.
func newPost(t testing.TB, target, body string, hdrs []string) *http.Request {
	t.Helper()
	r, err := http.NewRequest(http.MethodPost, target, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(hdrs); i += 2 {
		k, v := hdrs[i], hdrs[i+1]
		if k == "Host" {
			r.Host = v
			continue
		}
		if add, ok := strings.CutPrefix(k, "+"); ok {
			r.Header[add] = append(r.Header[add], v)
			continue
		}
		for name := range r.Header {
			if strings.EqualFold(name, k) {
				delete(r.Header, name)
			}
		}
		if v != "\x00" {
			r.Header[k] = []string{v}
		}
	}
	return r
}

// serveOnce runs one POST through h with a recorder.
func serveOnce(t testing.TB, h http.Handler, body string, hdrs []string) *httptest.ResponseRecorder {
	t.Helper()
	r := newPost(t, "http://127.0.0.1:8080/mcp", body, hdrs)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// rpcReply is a decoded JSON-RPC message from a response.
type rpcReply struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int64           `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

func decodeReply(t testing.TB, b []byte) rpcReply {
	t.Helper()
	var r rpcReply
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("response is not JSON: %v: %q", err, b)
	}
	return r
}

// sseReader reads the events of an SSE response.
type sseReader struct{ br *bufio.Reader }

func newSSEReader(r io.Reader) *sseReader { return &sseReader{br: bufio.NewReader(r)} }

// next returns the data of the next event, skipping comment-only blocks;
// io.EOF when the stream ends.
func (s *sseReader) next() ([]byte, error) {
	var data []string
	for {
		line, err := s.br.ReadString('\n')
		if err != nil {
			if errors.Is(err, io.EOF) && line == "" && len(data) == 0 {
				return nil, io.EOF
			}
			if len(data) > 0 && errors.Is(err, io.EOF) {
				return []byte(strings.Join(data, "\n")), nil
			}
			return nil, err
		}
		line = strings.TrimRight(line, "\r\n")
		switch {
		case line == "":
			if len(data) > 0 {
				return []byte(strings.Join(data, "\n")), nil
			}
		case strings.HasPrefix(line, "data:"):
			data = append(data, strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
		}
	}
}

// sseEvents parses a whole SSE body into its events' data.
func sseEvents(t testing.TB, body []byte) [][]byte {
	t.Helper()
	r := newSSEReader(strings.NewReader(string(body)))
	var out [][]byte
	for {
		ev, err := r.next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("reading SSE: %v", err)
		}
		out = append(out, ev)
	}
}
