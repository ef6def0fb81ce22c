package clustertest

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/server"
)

// gateWriter is a listen stream's client that can stop reading for a
// while (a slow network): Notify blocks while the gate is shut.
type gateWriter struct {
	mu    sync.Mutex
	gate  chan struct{} // nil: open
	notes []note
}

func (w *gateWriter) Notify(method string, params any) error {
	w.mu.Lock()
	g := w.gate
	w.mu.Unlock()
	if g != nil {
		<-g
	}
	b, err := json.Marshal(params)
	if err != nil {
		return err
	}
	w.mu.Lock()
	w.notes = append(w.notes, note{method, b})
	w.mu.Unlock()
	return nil
}

func (w *gateWriter) statuses() map[string]string {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := map[string]string{}
	for _, n := range w.notes {
		if n.method != "notifications/tasks" {
			continue
		}
		var m struct{ TaskID, Status string }
		_ = json.Unmarshal(n.params, &m)
		out[m.TaskID] = m.Status
	}
	return out
}

// A listen on replica B names 100 tasks running on replica A (taskIds
// allows 256). They finish together while B's stream is a moment behind
// (its client reads slowly), more events than a stream buffers: the
// stream still sends every task's terminal notifications/tasks once the
// client reads again (README: a listen that names tasks gets
// notifications/tasks "each time one of them changes status"; dropping
// the surplus is only harmless for list_changed, where one pending event
// stands for all).
func TestListenBehindSendsEveryTaskCompletion(t *testing.T) {
	m := NewMemory()
	toolA, release, returned := releasable()
	toolB, _, _ := releasable()
	go func() {
		for range returned {
		}
	}()
	a := newReplica(t, m, toolA)
	b := newReplica(t, m, toolB)
	const n = 100
	ids := make([]string, n)
	for i := range ids {
		ids[i], _ = callOK(t, a, "tools/call", `"name":"job","arguments":{}`)["taskId"].(string)
	}
	idList, _ := json.Marshal(ids)
	w := &gateWriter{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		b.HandleBytes(ctx, []byte(`{"jsonrpc":"2.0","id":"l","method":"subscriptions/listen","params":{"_meta":`+meta+`,"notifications":{"taskIds":`+string(idList)+`}}}`), w)
	}()
	t.Cleanup(func() { cancel(); <-done })
	for deadline := time.Now().Add(5 * time.Second); len(w.statuses()) < n; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("initial statuses: %d of %d", len(w.statuses()), n)
		}
	}
	gate := make(chan struct{})
	w.mu.Lock()
	w.gate = gate
	w.mu.Unlock()
	close(release) // every task completes on A
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		done := 0
		for _, id := range ids {
			if r, _ := callOK(t, b, "tasks/get", `"taskId":"`+id+`"`)["status"].(string); r == server.TaskCompleted {
				done++
			}
		}
		if done == n {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("only %d of %d tasks completed", done, n)
		}
	}
	time.Sleep(200 * time.Millisecond) // B has heard every ChangeTask
	w.mu.Lock()
	w.gate = nil
	w.mu.Unlock()
	close(gate) // the client reads again
	var missing int
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		missing = 0
		st := w.statuses()
		for _, id := range ids {
			if st[id] != server.TaskCompleted {
				missing++
			}
		}
		if missing == 0 {
			return
		}
	}
	t.Fatalf("the listen stream never sent the completion of %d of %d tasks", missing, n)
}
