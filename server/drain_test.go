package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp"
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
