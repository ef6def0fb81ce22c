package server

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// Attack tests: tasks and legacy (initialize-era) HTTP sessions.

// TestAttackLegacy20250326SessionAcceptsBatch: a session that negotiated
// 2025-03-26 speaks that revision, whose JSONRPCMessage includes
// JSONRPCBatchRequest (schema/2025-03-26/schema.json, "A JSON-RPC batch
// request"; that revision's basic/index: implementations MUST support
// receiving batches). README (Compatibility): an initialize starts a
// session "at the version the client asks for among 2025-11-25,
// 2025-06-18, 2025-03-26, 2024-11-05". A batch of two requests in such a
// session is refused with 400 "batch requests are not supported".
func TestAttackLegacy20250326SessionAcceptsBatch(t *testing.T) {
	_, srv := startLegacyHTTP(t)
	c := &lgHTTP{t: t, url: srv.URL}
	resp := c.post(lgBody("1", "initialize", `{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"old","version":"1"}}`),
		"MCP-Protocol-Version", "2025-03-26")
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), `"protocolVersion":"2025-03-26"`) {
		t.Fatalf("initialize 2025-03-26: %d %s", resp.StatusCode, b)
	}
	c.sid = resp.Header.Get("Mcp-Session-Id")
	r := c.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, "MCP-Protocol-Version", "2025-03-26")
	r.Body.Close()
	resp = c.post(`[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","id":3,"method":"tools/list"}]`,
		"MCP-Protocol-Version", "2025-03-26")
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), `"id":2`) || !strings.Contains(string(b), `"id":3`) || strings.Contains(string(b), `"error"`) {
		t.Errorf("batch of ping and tools/list in a 2025-03-26 session: %d %s; want both answered", resp.StatusCode, b)
	}
}

// TestAttackLegacySubscriptionsBounded: README ("Limits and shutdown"):
// "Every bound is explicit, an option with a safe default"; the product
// must never hold unbounded memory for a hostile client. A legacy
// session's resources/subscribe adds its URI to the session's subscriber
// for good, with no cap on their number or size (and URIs no resource
// serves are accepted): one session here holds 1000 distinct 16 KiB URIs
// (16 MiB; with 4 MiB bodies and 1024 sessions, far more), and nothing
// refuses any of them. (A modern listen bounds its taskIds at 256 per
// TestAttackTaskResultsNotEvictedByAnotherClient: MaxTasksPerClient
// exists "so one client cannot take every slot" (Limits doc), and a task's
// result lives "for its ttlMs from creation" (tasks.go; ttlMs in every
// task). But the quota counts only unfinished tasks, and a full store
// evicts the oldest finished task of any client: a client that never holds
// more than one unfinished task fills the store with quick tasks and
// pushes out another client's completed, unread result long before its
// ttlMs, after which the victim's tasks/get is "Unknown task".
func TestAttackTaskResultsNotEvictedByAnotherClient(t *testing.T) {
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

// TestAttackLegacyHTTPCancelledRequestGetsNoResponse: in an
// initialize-era HTTP session notifications/cancelled is how the client
// cancels (the session answers it: the handler's context is cancelled).
// Servers receiving it SHOULD "Not send a response for the cancelled
// request" (basic/patterns/cancellation.mdx, Behavior Requirements; the
// same text in 2025-11-25). The POST of the cancelled request is answered
// with a made-up -32603 "Internal error: the request produced no
// response" for its id instead.
func TestAttackLegacyHTTPCancelledRequestGetsNoResponse(t *testing.T) {
	f, srv := startLegacyHTTP(t)
	a := openSession(t, srv.URL, fullCaps)
	done := make(chan string, 1)
	go func() {
		resp := a.post(lgBody("2", "tools/call", `{"name":"slow","arguments":{"tag":"c"}}`))
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		done <- string(b)
	}()
	select {
	case <-f.gate.started:
	case <-time.After(3 * time.Second):
		t.Fatal("the slow tool did not start")
	}
	r := a.post(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"user"}}`)
	r.Body.Close()
	if r.StatusCode != http.StatusAccepted {
		t.Fatalf("notifications/cancelled: %d", r.StatusCode)
	}
	select {
	case <-f.gate.cancelled:
	case <-time.After(3 * time.Second):
		t.Fatal("the handler was not cancelled")
	}
	select {
	case body := <-done:
		if strings.Contains(body, `"id":2`) {
			t.Errorf("the cancelled request was answered: %s; want no response for it", body)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("the cancelled request's POST did not end")
	}
}
