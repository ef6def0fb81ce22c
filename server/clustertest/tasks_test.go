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

// Tasks across replicas when messages or store writes go missing (README,
// "Running several replicas": "tasks live in a shared store, so a task
// created on one replica is polled, answered (tasks/update) and cancelled
// on any other").

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
	// failSwapWhile, when set, fails every Swap while it reports true.
	failSwapWhile func() bool
	swapsFailed   atomic.Int64 // Swaps failed by failSwap or failSwapWhile
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
	if s.g.failSwap.CompareAndSwap(true, false) || s.g.failSwapWhile != nil && s.g.failSwapWhile() {
		s.g.swapsFailed.Add(1)
		return errors.New("store unavailable for a moment")
	}
	return s.TaskStore.Swap(ctx, id, rec, rev, exp)
}

func newReplica(t *testing.T, c server.Cluster, tools ...server.Tool) *server.Server {
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

func callOK(t *testing.T, s *server.Server, method, params string) map[string]any {
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

// nextTerminal reads notifications/tasks of task id until one has a
// terminal status, within d.
func (s *stream) nextTerminal(t testing.TB, id string, d time.Duration) map[string]any {
	t.Helper()
	deadline := time.After(d)
	for {
		select {
		case n := <-s.notes:
			var m map[string]any
			if err := json.Unmarshal(n.params, &m); err != nil || n.method != "notifications/tasks" || m["taskId"] != id {
				t.Fatalf("notification %s %s, want notifications/tasks of %s", n.method, n.params, id)
			}
			switch m["status"] {
			case server.TaskCompleted, server.TaskFailed, server.TaskCancelled:
				return m
			}
		case <-deadline:
			t.Fatalf("no terminal notifications/tasks for %s within %v", id, d)
			return nil
		}
	}
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
// cancel) before A hears of it; A then finishes the tool and finds the
// record terminal. The status stored first wins on every replica: A takes
// "cancelled" rather than keep its own "completed", so a client behind a
// balancer never sees the task flip between two terminal statuses.
func TestCancelElsewhereRacingCompletionEndsAlikeEverywhere(t *testing.T) {
	m := NewMemory()
	ga, gb := &gated{Cluster: m}, &gated{Cluster: m}
	toolA, release, returned := releasable()
	toolB, _, _ := releasable()
	a := newReplica(t, ga, toolA)
	b := newReplica(t, gb, toolB)
	id, _ := callOK(t, a, "tools/call", `"name":"job","arguments":{}`)["taskId"].(string)
	// A listen on A reports A's own status changes (no store read).
	owner, _ := (&replicas{servers: []*server.Server{a, b}}).listenAck(t, 0, `{"taskIds":["`+id+`"]}`)
	owner.nextStatus(t, id, server.TaskWorking, 5*time.Second)
	ga.setHold(true) // A hears B's cancel a moment late
	callOK(t, b, "tasks/cancel", `"taskId":"`+id+`"`)
	close(release)
	<-returned
	owner.nextTerminal(t, id, 5*time.Second) // A's own end (which status it shows is the point below)
	time.Sleep(100 * time.Millisecond)       // A's runner mirrors its final status
	ga.setHold(false)
	time.Sleep(200 * time.Millisecond)
	sa := callOK(t, a, "tasks/get", `"taskId":"`+id+`"`)["status"]
	sb := callOK(t, b, "tasks/get", `"taskId":"`+id+`"`)["status"]
	if sa != sb {
		t.Fatalf("one task, two terminal statuses: %v on its owner, %v on the replica that cancelled it", sa, sb)
	}
}

// The owner's write of a task's final status fails once (a store blip, a
// Redis restart, a failover): the owner, alive and beating, writes it
// again, so another replica's tasks/get sees the task end within seconds
// rather than answer "working" until the TTL (5 min).
func TestFinalStatusStoredAfterAFailedWrite(t *testing.T) {
	m := NewMemory()
	ga, gb := &gated{Cluster: m}, &gated{Cluster: m}
	toolA, release, returned := releasable()
	toolB, _, _ := releasable()
	a := newReplica(t, ga, toolA)
	b := newReplica(t, gb, toolB)
	id, _ := callOK(t, a, "tools/call", `"name":"job","arguments":{}`)["taskId"].(string)
	ga.failSwap.Store(true)
	close(release)
	<-returned
	var sa, sb any
	for deadline := time.Now().Add(4 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		sa = callOK(t, a, "tasks/get", `"taskId":"`+id+`"`)["status"]
		sb = callOK(t, b, "tasks/get", `"taskId":"`+id+`"`)["status"]
		if sb == server.TaskCompleted || sb == server.TaskFailed {
			return
		}
	}
	t.Fatalf("after 4 s the owner says %v, another replica still %v", sa, sb)
}

// tasks/cancel answered on replica B while the ChangeTask message to the
// owner A is lost (pub/sub is at-most-once: a Redis restart, a NATS
// reconnect, a slow consumer). The store says "cancelled" at once, and A,
// which re-reads the record of each task it runs every taskStorePoll,
// cancels the working tool's context within about a second rather than
// let it run until it returns or its TTL (5 min) ends.
func TestCancelWithLostMessageStopsWorkingTask(t *testing.T) {
	m := NewMemory()
	ga, gb := &gated{Cluster: m}, &gated{Cluster: m}
	stopped := make(chan struct{})
	tool := server.NewTool(server.ToolInfo{Name: "job", TaskSupport: server.TaskSupportRequired},
		func(ctx context.Context, _ struct{}) (string, error) {
			<-ctx.Done()
			close(stopped)
			return "", ctx.Err()
		})
	a := newReplica(t, ga, tool)
	b := newReplica(t, gb, tool)
	id, _ := callOK(t, a, "tools/call", `"name":"job","arguments":{}`)["taskId"].(string)
	ga.setHold(true) // every message to A from now on is lost
	callOK(t, b, "tasks/cancel", `"taskId":"`+id+`"`)
	if s := callOK(t, b, "tasks/get", `"taskId":"`+id+`"`)["status"]; s != server.TaskCancelled {
		t.Fatalf("B: %v", s)
	}
	select {
	case <-stopped:
	case <-time.After(4 * time.Second):
		t.Fatal("the tool on the owning replica still runs 4 s after its task was cancelled (taskStorePoll is 1 s)")
	}
}

// A replica without any tool supporting tasks (a rolling deploy that drops
// the tool, a replica serving other tools) still answers for the tasks of
// the others in the shared store: tasks/get and tasks/cancel are not
// -32601 there.
func TestReplicaWithoutTaskToolsAnswersForOthersTasks(t *testing.T) {
	m := NewMemory()
	tool, _, _ := releasable()
	a := newReplica(t, m, tool)
	b := newReplica(t, m)
	id, _ := callOK(t, a, "tools/call", `"name":"job","arguments":{}`)["taskId"].(string)
	if st := callOK(t, b, "tasks/get", `"taskId":"`+id+`"`)["status"]; st != server.TaskWorking {
		t.Fatalf("tasks/get on the replica without task tools: status %v", st)
	}
	callOK(t, b, "tasks/cancel", `"taskId":"`+id+`"`)
	if st := callOK(t, a, "tasks/get", `"taskId":"`+id+`"`)["status"]; st != server.TaskCancelled {
		t.Fatalf("the task after a cancel on the replica without task tools: status %v", st)
	}
}
