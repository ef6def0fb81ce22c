package server

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// quotaTaskServer is a task server whose every request is one client
// (Limits.ClientID) holding at most n unfinished tasks.
func quotaTaskServer(t *testing.T, n int) *Server {
	t.Helper()
	s, err := New(Options{Name: "tasks", Version: "1", Tools: taskTools(),
		Limits: Limits{MaxTasksPerClient: n, ClientID: func(context.Context) string { return "one" }},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		_ = s.Shutdown(ctx)
	})
	return s
}

// postTaskHTTP posts a modern tools/call declaring the tasks extension.
func postTaskHTTP(t *testing.T, url, name, args string) (status int, retryAfter string, body map[string]any, raw string) {
	t.Helper()
	b := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":` + withMeta(`{"name":"`+name+`","arguments":`+args+`}`, tasksMeta) + `}`
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", name)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	rb, _ := io.ReadAll(resp.Body)
	_ = json.Unmarshal(rb, &body)
	return resp.StatusCode, resp.Header.Get("Retry-After"), body, string(rb)
}

// TestTaskQuotaRefusalOverHTTPIs503: a task creation refused by
// Limits.MaxTasksPerClient is a limit refusal. README ("Limits and
// shutdown"): "A refused request is answered at once: -32603 with
// data.reason busy, quota or shutdown, over HTTP 503 with Retry-After"
// (doc.go says the same).
func TestTaskQuotaRefusalOverHTTPIs503(t *testing.T) {
	s := quotaTaskServer(t, 1)
	srv := httptest.NewServer(s.HTTPHandler(HTTPOptions{}))
	defer srv.Close()
	if st, _, m, raw := postTaskHTTP(t, srv.URL, "sleeper", `{"ms":60000}`); st != 200 || resultOf(t, m)["resultType"] != "task" {
		t.Fatalf("first task: %d %s", st, raw)
	}
	st, ra, m, raw := postTaskHTTP(t, srv.URL, "sleeper", `{"ms":60000}`)
	if errorCode(m) != -32603 || reasonOf(m) != reasonQuota {
		t.Fatalf("second task over the quota: %d %s, want -32603 reason quota", st, raw)
	}
	if st != http.StatusServiceUnavailable || ra == "" {
		t.Errorf("quota refusal over HTTP: status %d, Retry-After %q; want 503 with Retry-After (README: limit refusals are HTTP 503 with Retry-After)", st, ra)
	}
}

// TestTaskStoreFullRefusalIsBusy: when the task store is full of
// running tasks a new task is refused "try again later" with data.reason
// busy, the reason of a server-wide limit; README: "A refused request is
// answered at once: -32603 with data.reason busy, quota or shutdown".
func TestTaskStoreFullRefusalIsBusy(t *testing.T) {
	s := newTaskServer(t)
	s.tasks.max = 1
	createTask(t, s, "sleeper", `{"ms":60000}`)
	r := taskCall(t, s, "sleeper", `{"ms":1}`, "")
	wantError(t, r, -32603)
	var data struct {
		Reason string `json:"reason"`
	}
	_ = json.Unmarshal(r.Error.Data, &data)
	if data.Reason != reasonBusy {
		t.Errorf("store full of running tasks: %q data %s; want data.reason %q", r.Error.Message, r.Error.Data, reasonBusy)
	}
}

// TestTaskCreatedAfterDrainGraceIsRefusedForShutdown: a tools/call
// admitted just before Shutdown whose task would be created only after the
// drain's grace ended (the store closed to new tasks) is answered with
// -32603 and data.reason "shutdown" (README: refusals carry data.reason
// busy, quota or shutdown; drain.go step 4: what is left is cancelled and
// answered with -32603 {"reason":"shutdown"}). Within the grace such a
// task is created (TestDrainWaitsForHandleAdmittedRequest).
func TestTaskCreatedAfterDrainGraceIsRefusedForShutdown(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	tool := NewTool(ToolInfo{Name: "gated_task", TaskSupport: TaskSupportRequired,
		BeforeTask: func(ctx context.Context) error {
			close(entered)
			<-release
			return nil
		}}, func(ctx context.Context, _ struct{}) (string, error) { return "ran", nil })
	s, err := New(Options{Name: "tasks", Version: "1", Tools: []Tool{tool},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan reply, 1)
	go func() {
		r, _ := rpcMeta(t, s, "tools/call", `{"name":"gated_task","arguments":{}}`, tasksMeta, nil)
		got <- r
	}()
	<-entered
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); _ = s.Shutdown(ctx) }()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		s.tasks.mu.Lock()
		down := s.tasks.shutdown
		s.tasks.mu.Unlock()
		if down {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the drain's grace did not end")
		}
	}
	close(release)
	r := <-got
	cancel()
	wg.Wait()
	wantError(t, r, -32603)
	var data struct {
		Reason string `json:"reason"`
	}
	_ = json.Unmarshal(r.Error.Data, &data)
	if data.Reason != reasonShutdown {
		t.Errorf("task creation after the drain's grace: %q data %s; want data.reason %q", r.Error.Message, r.Error.Data, reasonShutdown)
	}
}

// TestTaskResultsNotEvictedByAnotherClient: MaxTasksPerClient
// exists "so one client cannot take every slot" (Limits doc), and a task's
// result lives "for its ttlMs from creation" (tasks.go; ttlMs in every
// task). The quota counts only unfinished tasks, so a client that never
// holds more than one unfinished task can fill the store with quick tasks;
// a full store evicts the oldest finished task of the client holding the
// most finished tasks, so that client pushes out its own results, and
// another client's completed, unread result is still there.
func TestTaskResultsNotEvictedByAnotherClient(t *testing.T) {
	s, err := New(Options{Name: "tasks", Version: "1", Tools: taskTools(),
		Limits: Limits{MaxTasksPerClient: 1},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		_ = s.Shutdown(ctx)
	})
	s.tasks.max = 16
	srv := httptest.NewServer(s.HTTPHandler(HTTPOptions{}))
	defer srv.Close()
	// Two clients: two HTTP connections (the default client identity).
	victim := &http.Client{Transport: &http.Transport{}}
	attacker := &http.Client{Transport: &http.Transport{}}
	defer victim.CloseIdleConnections()
	defer attacker.CloseIdleConnections()
	post := func(c *http.Client, method, name, params string) map[string]any {
		t.Helper()
		b := `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":` + withMeta(params, tasksMeta) + `}`
		req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(b))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", method)
		req.Header.Set("Mcp-Name", name)
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var m map[string]any
		rb, _ := io.ReadAll(resp.Body)
		if err := json.Unmarshal(rb, &m); err != nil {
			t.Fatalf("%s: %d %s", method, resp.StatusCode, rb)
		}
		return m
	}
	waitDone := func(c *http.Client, id string) map[string]any {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(2 * time.Millisecond) {
			m := post(c, "tasks/get", id, `{"taskId":"`+id+`"}`)
			if r, _ := m["result"].(map[string]any); r != nil && r["status"] == TaskCompleted {
				return m
			}
			if time.Now().After(deadline) {
				t.Fatalf("task %s: %v", id, m)
			}
		}
	}
	create := func(c *http.Client) string {
		t.Helper()
		m := post(c, "tools/call", "sleeper", `{"name":"sleeper","arguments":{"ms":0}}`)
		id, _ := resultOf(t, m)["taskId"].(string)
		if id == "" {
			t.Fatalf("no task: %v", m)
		}
		return id
	}
	mine := create(victim)
	waitDone(victim, mine)
	for i := 0; i < 16; i++ { // never more than one unfinished task at a time
		waitDone(attacker, create(attacker))
	}
	m := post(victim, "tasks/get", mine, `{"taskId":"`+mine+`"}`)
	if m["error"] != nil {
		t.Errorf("the victim's completed task (ttlMs 300000) after another client ran 16 quick tasks: %v; its result was evicted by a client holding one unfinished task at a time", m["error"])
	}
}
