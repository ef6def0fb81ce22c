package client_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/client"
	"github.com/mcpgen/mcpgen/generated/mcp"
)

// sseFake is a scripted server of the deprecated HTTP+SSE transport
// (2024-11-05): POST to /sse is 405, GET /sse opens the event stream whose
// first event greet writes, POST /message hands each message to answer,
// which may write events to the stream (send) or end it (hangUp).
type sseFake struct {
	greet  func(w io.Writer, base string) // the start of the stream
	answer func(req wireRequest, send func(event string), hangUp func())
	// messageStatus, when set, answers every message POST.
	messageStatus int
	// onResponse receives the client's responses to the server's requests.
	onResponse func(id, result json.RawMessage)

	srv      *httptest.Server
	out      chan string
	hangUp   chan struct{}
	hangOnce sync.Once
	posts    atomic.Int32
}

func newSSEFake(t *testing.T, f *sseFake) *sseFake {
	t.Helper()
	f.out, f.hangUp = make(chan string, 64), make(chan struct{})
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(func() { f.end(); f.srv.Close() })
	return f
}

func (f *sseFake) end() { f.hangOnce.Do(func() { close(f.hangUp) }) }

func (f *sseFake) serve(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/sse" && r.Method == http.MethodGet:
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		if f.greet != nil {
			f.greet(w, f.srv.URL)
		}
		w.(http.Flusher).Flush()
		for {
			select {
			case ev := <-f.out:
				_, _ = io.WriteString(w, ev)
				w.(http.Flusher).Flush()
			case <-f.hangUp:
				return
			case <-r.Context().Done():
				return
			}
		}
	case r.URL.Path == "/sse":
		http.Error(w, "Method not allowed", http.StatusMethodNotAllowed)
	case r.URL.Path == "/message" && r.Method == http.MethodPost:
		f.posts.Add(1)
		if f.messageStatus != 0 {
			http.Error(w, "no", f.messageStatus)
			return
		}
		var req struct {
			wireRequest
			Result json.RawMessage `json:"result"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.WriteHeader(http.StatusAccepted)
		if req.Method == "" {
			if f.onResponse != nil {
				f.onResponse(req.ID, req.Result)
			}
			return
		}
		if f.answer != nil {
			f.answer(req.wireRequest, func(ev string) { f.out <- ev }, f.end)
		}
	default:
		http.NotFound(w, r)
	}
}

func endpointEvent(w io.Writer, base string) {
	fmt.Fprint(w, "event: endpoint\ndata: /message?sessionId=abc\n\n")
}

func messageEvent(id json.RawMessage, result string) string {
	return fmt.Sprintf("event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":%s}\n\n", id, result)
}

const sseInitializeResult = `{"protocolVersion":"2024-11-05","capabilities":{"tools":{}},"serverInfo":{"name":"sse-fake","version":"1"}}`

// answerInitialize answers initialize and leaves the rest to then.
func answerInitialize(then func(req wireRequest, send func(string), hangUp func())) func(wireRequest, func(string), func()) {
	return func(req wireRequest, send func(string), hangUp func()) {
		switch req.Method {
		case "initialize":
			send(messageEvent(req.ID, sseInitializeResult))
		case "notifications/initialized":
		default:
			if then != nil {
				then(req, send, hangUp)
			}
		}
	}
}

func connectSSE(t *testing.T, f *sseFake) (*client.Client, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return client.Connect(ctx, client.HTTP(f.srv.URL+"/sse"), &client.Options{ProbeTimeout: 500 * time.Millisecond})
}

func TestHTTPSSESession(t *testing.T) {
	f := newSSEFake(t, &sseFake{greet: endpointEvent, answer: answerInitialize(func(req wireRequest, send func(string), _ func()) {
		switch req.Method {
		case "tools/call":
			// A progress notification and an unrelated event first: the
			// response is matched by id on the one stream.
			send("event: ping\ndata: x\n\n")
			send(messageEvent(req.ID, `{"content":[{"type":"text","text":"over SSE"}]}`))
		}
	})})
	c, err := connectSSE(t, f)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	if !c.Legacy() || c.ProtocolVersion() != "2024-11-05" {
		t.Fatalf("Legacy %v at %q, want a 2024-11-05 session", c.Legacy(), c.ProtocolVersion())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := c.CallTool(ctx, &mcp.CallToolRequestParams{Name: "x"})
	if err != nil {
		t.Fatalf("CallTool: %v", err)
	}
	if got := firstText(t, out); got != "over SSE" {
		t.Fatalf("text %q", got)
	}
	if err := c.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if n := f.posts.Load(); n != 3 {
		t.Fatalf("%d message POSTs, want 3 (initialize, initialized, tools/call)", n)
	}
}

func TestHTTPSSEBadServers(t *testing.T) {
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("a message was posted to another origin: %s %s", r.Method, r.URL)
	}))
	defer other.Close()
	cases := []struct {
		name string
		fake *sseFake
		want []string
	}{
		{"no endpoint event", &sseFake{greet: func(w io.Writer, _ string) { fmt.Fprint(w, ": keep-alive\n\n") }},
			[]string{"HTTP 405", "waiting for the endpoint event", "no answer to initialize"}},
		{"a message before the endpoint", &sseFake{greet: func(w io.Writer, _ string) {
			fmt.Fprint(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"x\"}\n\n")
		}}, []string{`first event of the HTTP+SSE stream`, `is "message", want "endpoint"`}},
		{"endpoint on another origin", &sseFake{greet: func(w io.Writer, _ string) {
			fmt.Fprintf(w, "event: endpoint\ndata: %s/message\n\n", other.URL)
		}}, []string{"on another origin", "refused"}},
		{"endpoint on another scheme", &sseFake{greet: func(w io.Writer, base string) {
			fmt.Fprintf(w, "event: endpoint\ndata: https%s/message\n\n", base[len("http"):])
		}}, []string{"on another origin", "refused"}},
		{"empty endpoint", &sseFake{greet: func(w io.Writer, _ string) { fmt.Fprint(w, "event: endpoint\ndata:\n\n") }},
			[]string{"endpoint event is empty"}},
		{"stream ends before the endpoint", &sseFake{greet: func(w io.Writer, _ string) {}, answer: nil},
			[]string{"ended before its endpoint event"}},
		{"message POST refused", &sseFake{greet: endpointEvent, messageStatus: http.StatusInternalServerError},
			[]string{"HTTP 500"}},
		{"no answer to initialize", &sseFake{greet: endpointEvent},
			[]string{"no answer to initialize"}},
		{"stream stops before the initialize response", &sseFake{greet: endpointEvent,
			answer: func(_ wireRequest, _ func(string), hangUp func()) { hangUp() }},
			[]string{"HTTP+SSE event stream ended"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newSSEFake(t, tc.fake)
			if tc.name == "stream ends before the endpoint" {
				f.end()
			}
			start := time.Now()
			c, err := connectSSE(t, f)
			if err == nil {
				c.Close()
				t.Fatal("Connect succeeded; want an error")
			}
			t.Logf("error: %v", err)
			wantErr(t, err, tc.want...)
			if d := time.Since(start); d > 3*time.Second {
				t.Errorf("the error took %v", d)
			}
		})
	}
}

// A stream that stops once the session runs fails the waiting call and
// every later one, naming the end of the stream.
func TestHTTPSSEStreamStops(t *testing.T) {
	f := newSSEFake(t, &sseFake{greet: endpointEvent, answer: answerInitialize(func(_ wireRequest, _ func(string), hangUp func()) {
		hangUp()
	})})
	c, err := connectSSE(t, f)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for range 2 {
		_, err := c.CallTool(ctx, &mcp.CallToolRequestParams{Name: "x"})
		if err == nil {
			t.Fatal("CallTool succeeded after the stream stopped")
		}
		wantErr(t, err, "HTTP+SSE event stream ended")
		if ctx.Err() != nil {
			t.Fatal("the call hung until its deadline")
		}
	}
}

// The server's own requests (roots/list) and its progress notifications
// arrive on the one stream too: the request is answered by POST to the
// endpoint, the progress reaches the call that asked for it.
func TestHTTPSSEServerRequestsAndProgress(t *testing.T) {
	roots := make(chan string, 1)
	f := newSSEFake(t, &sseFake{greet: endpointEvent,
		onResponse: func(id, result json.RawMessage) {
			if string(id) == `"srv-1"` {
				roots <- string(result)
			}
		},
		answer: answerInitialize(func(req wireRequest, send func(string), _ func()) {
			if req.Method != "tools/call" {
				return
			}
			var p struct {
				Meta struct {
					ProgressToken json.RawMessage `json:"progressToken"`
				} `json:"_meta"`
			}
			_ = json.Unmarshal(req.Params, &p)
			send("event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"srv-1\",\"method\":\"roots/list\"}\n\n")
			go func() {
				select {
				case got := <-roots:
					send(fmt.Sprintf("data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":%s,\"progress\":1,\"total\":2}}\n\n", p.Meta.ProgressToken))
					text, _ := json.Marshal(got)
					send(messageEvent(req.ID, `{"content":[{"type":"text","text":`+string(text)+`}]}`))
				case <-time.After(5 * time.Second):
				}
			}()
		})})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := client.Connect(ctx, client.HTTP(f.srv.URL+"/sse"), &client.Options{
		ProbeTimeout: 500 * time.Millisecond,
		Roots: func(context.Context, *mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
			return &mcp.ListRootsResult{Roots: []mcp.Root{{URI: "file:///work", Name: "work"}}}, nil
		},
	})
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	defer c.Close()
	var mu sync.Mutex
	var progress []float64
	out, err := c.CallTool(client.WithProgress(ctx, func(p mcp.ProgressNotificationParams) {
		mu.Lock()
		progress = append(progress, p.Progress)
		mu.Unlock()
	}), &mcp.CallToolRequestParams{Name: "x"})
	if err != nil {
		t.Fatalf("CallTool: %v", err)
	}
	if got := firstText(t, out); !strings.Contains(got, `"uri":"file:///work"`) {
		t.Fatalf("the server saw roots %s", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(progress) != 1 || progress[0] != 1 {
		t.Fatalf("progress %v, want [1]", progress)
	}
}
