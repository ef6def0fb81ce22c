package server

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestDrainHandleAdmittedRequestCreatesItsTask: the fix "a request admitted
// before the drain runs to its end" moved the drain's refusal of
// Server.Handle (the transport-independent entry, which a program's own
// transport and Server.Caller use) to its top (handle.go: isClosing), so a
// request that passed it was admitted. Shutdown's doc (drain.go, step 3):
// "A request admitted before the drain is served to its end: its
// interceptors call next, ... and a task it creates is created and runs
// like the others (no task is created once no such request is left)", and
// "It returns nil when everything finished within ctx". A Handle request
// is not counted in flight, so Shutdown returns nil at once while it
// still runs, the task store is closed to new tasks, and the admitted
// request's task creation is refused with -32603 {"reason":"shutdown"}.
func TestDrainHandleAdmittedRequestCreatesItsTask(t *testing.T) {
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

// TestDrainRunHTTPLegacyRoundCanBeAnswered: README (Limits and shutdown):
// on SIGINT/SIGTERM Run drains, and "a request admitted before the drain
// runs to its end within the grace — ... a legacy session's request runs
// its next round once the client has answered" (drain.go step 3 says the
// same). Over Streamable HTTP a legacy client answers its server's
// elicitation/create by POSTing the response: the request's own
// connection carries its SSE response (HTTP/1.1), so the answer needs
// another one. Run's drain closes the listener at once (and the idle
// connections), so the answer can never arrive: the admitted tools/call
// is cut off at the end of the grace with -32603 reason shutdown, the
// fix's "runs its next round once the client has answered" holds on
// stdio only. The answer POSTed within the grace must be taken (202) and
// the call answered with its result.
func TestDrainRunHTTPLegacyRoundCanBeAnswered(t *testing.T) {
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
