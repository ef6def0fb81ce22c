package clustertest

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/server"
)

// Attack tests of tasks across replicas (README, "Running several
// replicas": "tasks live in a shared store, so a task created on one
// replica is polled, answered (tasks/update) and cancelled on any other").

// gated is a replica's link to the backend whose incoming messages can be
// held back (delivered late, in order, as a slow subscription would) and
// whose next task-record Swap can be made to fail (a store blip).
type gated struct {
	server.Cluster
	mu       sync.Mutex
	hold     bool
	held     [][]byte
	deliver  func([]byte)
	failSwap atomic.Bool
}

func (g *gated) Subscribe(ctx context.Context, deliver func([]byte)) error {
	g.deliver = deliver
	return g.Cluster.Subscribe(ctx, func(msg []byte) {
		g.mu.Lock()
		if g.hold {
			g.held = append(g.held, msg)
			g.mu.Unlock()
			return
		}
		g.mu.Unlock()
		deliver(msg)
	})
}

func (g *gated) setHold(on bool) {
	g.mu.Lock()
	g.hold = on
	held := g.held
	g.held = nil
	g.mu.Unlock()
	if !on {
		for _, m := range held {
			g.deliver(m)
		}
	}
}

func (g *gated) Tasks() server.TaskStore { return gatedTasks{g.Cluster.Tasks(), g} }

type gatedTasks struct {
	server.TaskStore
	g *gated
}

func (s gatedTasks) Swap(ctx context.Context, id string, rec []byte, rev uint64, exp time.Time) error {
	if s.g.failSwap.CompareAndSwap(true, false) {
		return errors.New("store unavailable for a moment")
	}
	return s.TaskStore.Swap(ctx, id, rec, rev, exp)
}

func attackReplica(t *testing.T, c server.Cluster, tools ...server.Tool) *server.Server {
	t.Helper()
	srv, err := server.New(server.Options{Name: "replica", Version: "1", Tools: tools, Cluster: c,
		StateKeys: [][]byte{[]byte("clustertest-shared-state-key-000")},
		Logger:    slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	})
	return srv
}

func attackGet(t *testing.T, s *server.Server, method, params string) map[string]any {
	t.Helper()
	msg := `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":{"_meta":` + meta + `,` + params + `}}`
	var out struct {
		Result map[string]any `json:"result"`
		Error  map[string]any `json:"error"`
	}
	body := s.HandleBytes(t.Context(), []byte(msg), nil).Body
	if err := json.Unmarshal(body, &out); err != nil || out.Error != nil {
		t.Fatalf("%s: %s", method, body)
	}
	return out.Result
}

// releasable is a task tool that returns "done" once released.
func releasable() (server.Tool, chan struct{}, chan struct{}) {
	release, returned := make(chan struct{}), make(chan struct{}, 1)
	return server.NewTool(server.ToolInfo{Name: "job", TaskSupport: server.TaskSupportRequired},
		func(ctx context.Context, _ struct{}) (string, error) {
			<-release
			returned <- struct{}{}
			return "done", nil
		}), release, returned
}

// tasks/cancel answered on replica B while the tool on its owner A is just
// returning: B's compare-and-swap writes "cancelled" (and acknowledges the
// cancel) before A hears of it; A then finishes the tool, finds the record
// terminal and keeps its own "completed". From then on the one task is
// "completed" with a result on A and "cancelled" on B, for good: a client
// behind a balancer sees it flip between two terminal statuses. The code's
// own intent (mirrorTask: "a cancel from elsewhere won and applyRecord took
// it") is that the store's terminal status wins on every replica.
func TestAttackCancelElsewhereRacesCompletion(t *testing.T) {
	m := NewMemory()
	ga, gb := &gated{Cluster: m}, &gated{Cluster: m}
	toolA, release, returned := releasable()
	toolB, _, _ := releasable()
	a := attackReplica(t, ga, toolA)
	b := attackReplica(t, gb, toolB)
	id, _ := attackGet(t, a, "tools/call", `"name":"job","arguments":{}`)["taskId"].(string)
	// A listen on A reports A's own status changes (no store read).
	owner, _ := (&replicas{servers: []*server.Server{a, b}}).listenAck(t, 0, `{"taskIds":["`+id+`"]}`)
	owner.nextStatus(t, id, server.TaskWorking, 5*time.Second)
	ga.setHold(true) // A hears B's cancel a moment late
	attackGet(t, b, "tasks/cancel", `"taskId":"`+id+`"`)
	close(release)
	<-returned
	owner.nextStatus(t, id, server.TaskCompleted, 5*time.Second)
	time.Sleep(100 * time.Millisecond) // A's runner mirrors its final status
	ga.setHold(false)
	time.Sleep(200 * time.Millisecond)
	sa := attackGet(t, a, "tasks/get", `"taskId":"`+id+`"`)["status"]
	sb := attackGet(t, b, "tasks/get", `"taskId":"`+id+`"`)["status"]
	if sa != sb {
		t.Fatalf("one task, two terminal statuses: %v on its owner, %v on the replica that cancelled it", sa, sb)
	}
}

// The owner's write of a task's final status fails once (a store blip, a
// Redis restart, a failover): nothing writes it again, so every other
// replica answers tasks/get "working" until the TTL (5 min) while the
// owner, alive and beating, holds the result. Want: the other replica
// sees the task end.
func TestAttackFinalStatusLostOnOneFailedWrite(t *testing.T) {
	m := NewMemory()
	ga, gb := &gated{Cluster: m}, &gated{Cluster: m}
	toolA, release, returned := releasable()
	toolB, _, _ := releasable()
	a := attackReplica(t, ga, toolA)
	b := attackReplica(t, gb, toolB)
	id, _ := attackGet(t, a, "tools/call", `"name":"job","arguments":{}`)["taskId"].(string)
	ga.failSwap.Store(true)
	close(release)
	<-returned
	var sa, sb any
	for deadline := time.Now().Add(4 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		sa = attackGet(t, a, "tasks/get", `"taskId":"`+id+`"`)["status"]
		sb = attackGet(t, b, "tasks/get", `"taskId":"`+id+`"`)["status"]
		if sb == server.TaskCompleted || sb == server.TaskFailed {
			return
		}
	}
	t.Fatalf("after 4 s the owner says %v, another replica still %v", sa, sb)
}

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
// (its client reads slowly): B's stream buffer holds 64 events and
// subscriptions.publish drops the rest, so for about a third of the tasks
// the stream never sends the terminal notifications/tasks — the client
// waits for it forever (README: a listen that names tasks gets
// notifications/tasks "each time one of them changes status"; the drop is
// only harmless for list_changed, where one pending event stands for all).
func TestAttackListenDropsTaskCompletions(t *testing.T) {
	m := NewMemory()
	toolA, release, returned := releasable()
	toolB, _, _ := releasable()
	go func() {
		for range returned {
		}
	}()
	a := attackReplica(t, m, toolA)
	b := attackReplica(t, m, toolB)
	const n = 100
	ids := make([]string, n)
	for i := range ids {
		ids[i], _ = attackGet(t, a, "tools/call", `"name":"job","arguments":{}`)["taskId"].(string)
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
			if r, _ := attackGet(t, b, "tasks/get", `"taskId":"`+id+`"`)["status"].(string); r == server.TaskCompleted {
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

// tasks/cancel answered on replica B while the ChangeTask message to the
// owner A is lost (pub/sub is at-most-once: a Redis restart, a NATS
// reconnect, a slow consumer). The store says "cancelled" at once, but A
// only re-reads the store while a task waits for input (parkTask's
// taskStorePoll), so a working task's tool is never cancelled: it runs
// on until it returns or its TTL (5 min) ends. cluster_tasks.go promises
// the owner applies "the cancellation to the running task at once, or at
// its next poll of the store (taskStorePoll) should the message be lost".
func TestAttackLostCancelMessageNeverStopsWorkingTask(t *testing.T) {
	m := NewMemory()
	ga, gb := &gated{Cluster: m}, &gated{Cluster: m}
	stopped := make(chan struct{})
	tool := server.NewTool(server.ToolInfo{Name: "job", TaskSupport: server.TaskSupportRequired},
		func(ctx context.Context, _ struct{}) (string, error) {
			<-ctx.Done()
			close(stopped)
			return "", ctx.Err()
		})
	a := attackReplica(t, ga, tool)
	b := attackReplica(t, gb, tool)
	id, _ := attackGet(t, a, "tools/call", `"name":"job","arguments":{}`)["taskId"].(string)
	ga.setHold(true) // every message to A from now on is lost
	attackGet(t, b, "tasks/cancel", `"taskId":"`+id+`"`)
	if s := attackGet(t, b, "tasks/get", `"taskId":"`+id+`"`)["status"]; s != server.TaskCancelled {
		t.Fatalf("B: %v", s)
	}
	select {
	case <-stopped:
	case <-time.After(4 * time.Second):
		t.Fatal("the tool on the owning replica still runs 4 s after its task was cancelled (taskStorePoll is 1 s)")
	}
}
