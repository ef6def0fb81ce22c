package server

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"
)

// TestTasksQuotaPerClient: one client (a stdio connection) at
// MaxTasksPerClient unfinished tasks is refused with -32603 reason "quota";
// another client still gets its tasks; a finished task frees a slot.
func TestTasksQuotaPerClient(t *testing.T) {
	s, err := New(Options{Name: "quota", Version: "1", Tools: taskTools(), Limits: Limits{MaxTasksPerClient: 2},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { shutdownNow(s) })
	a, b := startFaultStdio(t, s, 0), startFaultStdio(t, s, 0)
	call := func(id, ms string) string {
		return faultCall(id, "sleeper", `{"ms":`+ms+`}`, tasksMeta)
	}
	a.send(call("1", "60000"))
	a.send(call("2", "200"))
	for range 2 {
		if m := a.reply(); resultField(m, "resultType") != "task" {
			t.Fatalf("client a, within its quota: %v", m)
		}
	}
	a.send(call("3", "60000"))
	if m := a.reply(); errorCode(m) != -32603 || reasonOf(m) != reasonQuota {
		t.Fatalf("client a over its quota: %v, want -32603 reason quota", m)
	}
	for i := range 2 {
		b.send(call(fmt.Sprint(10+i), "60000"))
		if m := b.reply(); resultField(m, "resultType") != "task" {
			t.Fatalf("client b while a is at its quota: %v", m)
		}
	}
	time.Sleep(400 * time.Millisecond) // a's 200 ms task has finished
	a.send(call("4", "60000"))
	if m := a.reply(); resultField(m, "resultType") != "task" {
		t.Fatalf("client a after one of its tasks finished: %v", m)
	}
	a.closeIn(5 * time.Second)
	b.closeIn(5 * time.Second)
}

func resultField(m map[string]any, key string) any {
	r, _ := m["result"].(map[string]any)
	return r[key]
}

// TestClientIDSeam: Limits.ClientID decides who a request belongs to (the
// seam for an authenticated principal): two connections of one principal
// share its quota.
func TestClientIDSeam(t *testing.T) {
	s, err := New(Options{Name: "quota", Version: "1", Tools: taskTools(),
		Limits: Limits{MaxTasksPerClient: 1, ClientID: func(ctx context.Context) string { return "alice" }},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { shutdownNow(s) })
	a, b := startFaultStdio(t, s, 0), startFaultStdio(t, s, 0)
	a.send(faultCall("1", "sleeper", `{"ms":60000}`, tasksMeta))
	if m := a.reply(); resultField(m, "resultType") != "task" {
		t.Fatalf("alice's first task: %v", m)
	}
	b.send(faultCall("1", "sleeper", `{"ms":60000}`, tasksMeta))
	if m := b.reply(); reasonOf(m) != reasonQuota {
		t.Fatalf("alice's second task on another connection: %v, want the quota error", m)
	}
	a.closeIn(5 * time.Second)
	b.closeIn(5 * time.Second)
}

// TestMaxListenStreams: listen streams over the cap are refused with the
// busy error; a closed stream frees its slot.
func TestMaxListenStreams(t *testing.T) {
	k := limitServer(t, Limits{MaxListenStreams: 2})
	f := startFaultStdio(t, k.s, 0)
	listen := func(id string) string {
		return `{"jsonrpc":"2.0","id":"` + id + `","method":"subscriptions/listen","params":` + withMeta(`{"notifications":{"toolsListChanged":true}}`, defaultMeta) + `}`
	}
	for _, id := range []string{"a", "b"} {
		f.send(listen(id))
		if m := f.reply(); m["method"] != "notifications/subscriptions/acknowledged" {
			t.Fatalf("stream %s: %v", id, m)
		}
	}
	f.send(listen("c"))
	if m := f.reply(); idOf(m) != `"c"` || reasonOf(m) != reasonBusy {
		t.Fatalf("a third stream: %v, want -32603 reason busy", m)
	}
	f.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a"}}`)
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		k.s.lim.mu.Lock()
		n := k.s.lim.streams
		k.s.lim.mu.Unlock()
		if n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d streams after one was cancelled", n)
		}
	}
	f.send(listen("d"))
	if m := f.reply(); m["method"] != "notifications/subscriptions/acknowledged" {
		t.Fatalf("a stream after one closed: %v", m)
	}
	f.closeIn(5 * time.Second)
}

// shutdownNow drains s with a short grace (tests that leave tasks running).
func shutdownNow(s *Server) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_ = s.Shutdown(ctx)
}
