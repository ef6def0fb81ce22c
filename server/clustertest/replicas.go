package clustertest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/server"
)

// Replicas runs three servers, each with its own connection from connect
// to one backend, and checks what a client behind a balancer sees.
func Replicas(t *testing.T, connect func(testing.TB) server.Cluster) {
	t.Run("ListenHearsChangeOnAnotherReplica", func(t *testing.T) {
		r := newReplicas(t, connect, 3)
		listen := r.listen(t, 0, `{"toolsListChanged":true,"resourceSubscriptions":["test://watched"]}`)
		r.call(t, 1, "tools/call", `{"name":"trigger_tool_change","arguments":{}}`)
		if n := listen.next(t); n.method != "notifications/tools/list_changed" {
			t.Fatalf("listen on replica 0 got %s, want tools/list_changed", n.method)
		}
		listen.none(t, 200*time.Millisecond) // exactly one, though the application applied it locally
		// The application applied the change on every replica.
		for i := range 3 {
			if res := r.call(t, i, "tools/list", `{}`); !strings.Contains(string(res), `"transient"`) {
				t.Errorf("replica %d tools/list lacks the tool added on replica 1: %s", i, res)
			}
		}
		r.servers[2].ResourceUpdated("test://watched")
		if n := listen.next(t); n.method != "notifications/resources/updated" || !strings.Contains(string(n.params), `"uri":"test://watched"`) {
			t.Fatalf("listen on replica 0 got %s %s, want resources/updated", n.method, n.params)
		}
	})
	t.Run("TaskCreatedOnOneIsPolledAnsweredOnOthers", func(t *testing.T) {
		r := newReplicas(t, connect, 3)
		id := r.createTask(t, 0, "ask_name")
		m := r.waitStatus(t, 1, id, server.TaskInputRequired)
		if reqs, _ := m["inputRequests"].(map[string]any); reqs["name"] == nil {
			t.Fatalf("tasks/get on replica 1: %v", m)
		}
		r.call(t, 2, "tasks/update", `{"taskId":"`+id+`","inputResponses":{"name":{"action":"accept","content":{"name":"Ada"}}}}`)
		for i := range 3 {
			m := r.waitStatus(t, i, id, server.TaskCompleted)
			if !strings.Contains(fmt.Sprint(m["result"]), "Hello, Ada") {
				t.Errorf("replica %d: result %v", i, m["result"])
			}
		}
	})
	t.Run("TaskAskingAgainUnderAKeyIsAnsweredOnAnother", func(t *testing.T) {
		// A key is never reused in a task: the tool's request asked again
		// under "name" is surfaced as "name#2", and the answer given to it
		// on another replica reaches the tool as "name".
		r := newReplicas(t, connect, 3)
		id := r.createTask(t, 0, "ask_name")
		r.waitStatus(t, 1, id, server.TaskInputRequired)
		r.call(t, 2, "tasks/update", `{"taskId":"`+id+`","inputResponses":{"name":{"action":"accept","content":{"name":"again"}}}}`)
		m := r.waitStatus(t, 1, id, server.TaskInputRequired)
		if reqs, _ := m["inputRequests"].(map[string]any); len(reqs) != 1 || reqs["name#2"] == nil {
			t.Fatalf("tasks/get on replica 1 after the tool asked again: %v, want only \"name#2\"", m)
		}
		r.call(t, 1, "tasks/update", `{"taskId":"`+id+`","inputResponses":{"name#2":{"action":"accept","content":{"name":"Ada"}}}}`)
		for i := range 3 {
			m := r.waitStatus(t, i, id, server.TaskCompleted)
			if !strings.Contains(fmt.Sprint(m["result"]), "Hello, Ada") {
				t.Errorf("replica %d: result %v", i, m["result"])
			}
		}
	})
	t.Run("TaskCancelledOnAnotherReplicaStops", func(t *testing.T) {
		r := newReplicas(t, connect, 3)
		id := r.createTask(t, 0, "wait_for_cancel")
		r.waitStatus(t, 2, id, server.TaskWorking)
		r.call(t, 1, "tasks/cancel", `{"taskId":"`+id+`"}`)
		for i := range 3 {
			r.waitStatus(t, i, id, server.TaskCancelled)
		}
		select {
		case <-r.cancelled:
		case <-time.After(5 * time.Second):
			t.Fatal("the tool on the owning replica was not cancelled")
		}
	})
	t.Run("DrainingReplicaKeepsItsTasks", func(t *testing.T) {
		// A replica that drains (Shutdown with a grace) still beats: the
		// others do not take its running task for an orphan, and see it
		// complete.
		r := newReplicas(t, connect, 2)
		id := r.createTask(t, 0, "slow_task")
		r.waitStatus(t, 1, id, server.TaskWorking)
		drained := make(chan error, 1)
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 3*heartbeatTTL)
			defer cancel()
			drained <- r.servers[0].Shutdown(ctx)
		}()
		m := r.waitStatus(t, 1, id, server.TaskCompleted, server.TaskFailed)
		if m["status"] != server.TaskCompleted {
			t.Fatalf("task of a draining replica: %v", m)
		}
		if err := <-drained; err != nil {
			t.Errorf("Shutdown: %v", err)
		}
	})
	t.Run("TaskStatusReachesListenersOnEveryReplica", func(t *testing.T) {
		r := newReplicas(t, connect, 3)
		id := r.createTask(t, 0, "ask_name")
		var streams []*stream
		for i := range 3 {
			st, ack := r.listenAck(t, i, `{"taskIds":["`+id+`"]}`)
			if !strings.Contains(string(ack.params), `"taskIds":["`+id+`"]`) {
				t.Fatalf("ack on replica %d: %s", i, ack.params)
			}
			streams = append(streams, st)
		}
		for i, st := range streams {
			m := st.nextStatus(t, id, server.TaskInputRequired, 5*time.Second)
			if reqs, _ := m["inputRequests"].(map[string]any); reqs["name"] == nil {
				t.Fatalf("replica %d: input_required without the request: %v", i, m)
			}
		}
		r.call(t, 2, "tasks/update", `{"taskId":"`+id+`","inputResponses":{"name":{"action":"accept","content":{"name":"Ada"}}}}`)
		for i, st := range streams {
			m := st.nextStatus(t, id, server.TaskCompleted, 5*time.Second)
			if !strings.Contains(fmt.Sprint(m["result"]), "Hello, Ada") {
				t.Errorf("replica %d: completed without the result: %v", i, m)
			}
		}
	})
	t.Run("TaskCancelledElsewhereReachesListeners", func(t *testing.T) {
		r := newReplicas(t, connect, 3)
		id := r.createTask(t, 0, "wait_for_cancel")
		owner, _ := r.listenAck(t, 0, `{"taskIds":["`+id+`"]}`)
		other, _ := r.listenAck(t, 1, `{"taskIds":["`+id+`"]}`)
		owner.nextStatus(t, id, server.TaskWorking, 5*time.Second)
		other.nextStatus(t, id, server.TaskWorking, 5*time.Second)
		r.call(t, 2, "tasks/cancel", `{"taskId":"`+id+`"}`)
		owner.nextStatus(t, id, server.TaskCancelled, 5*time.Second)
		other.nextStatus(t, id, server.TaskCancelled, 5*time.Second)
	})
	t.Run("TaskOfADeadReplicaFails", func(t *testing.T) {
		r := newReplicas(t, connect, 2)
		id := r.createTask(t, 0, "wait_for_cancel")
		r.waitStatus(t, 1, id, server.TaskWorking)
		listen, _ := r.listenAck(t, 1, `{"taskIds":["`+id+`"]}`)
		listen.nextStatus(t, id, server.TaskWorking, 5*time.Second)
		r.kill(0)
		// The listener hears it without anyone polling.
		heard := listen.nextStatus(t, id, server.TaskFailed, 3*heartbeatTTL)
		if msg, _ := heard["statusMessage"].(string); !strings.Contains(msg, "stopped before it finished") {
			t.Errorf("notifications/tasks statusMessage %q", msg)
		}
		m := r.waitStatus(t, 1, id, server.TaskFailed)
		if msg, _ := m["statusMessage"].(string); !strings.Contains(msg, "stopped before it finished") {
			t.Errorf("statusMessage %q", msg)
		}
		if e, _ := m["error"].(map[string]any); e["code"] != float64(-32603) {
			t.Errorf("error %v", m["error"])
		}
	})
}

// replicas is a test's servers on one backend.
type replicas struct {
	servers   []*server.Server
	links     []*killable
	cancelled chan struct{}
}

// heartbeatTTL is the server's: a replica silent this long is dead.
const heartbeatTTL = 4 * time.Second

const meta = `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}}`

func newReplicas(t testing.TB, connect func(testing.TB) server.Cluster, n int) *replicas {
	r := &replicas{cancelled: make(chan struct{}, n)}
	for range n {
		var link *killable
		var cluster server.Cluster // nil: the embedded default (connect is nil)
		if connect != nil {
			link = &killable{Cluster: connect(t)}
			cluster = link
		}
		var srv *server.Server
		tools := []server.Tool{
			server.NewTool(server.ToolInfo{Name: "trigger_tool_change"}, func(ctx context.Context, _ struct{}) (string, error) {
				return "added", srv.AddTools(transient())
			}),
			server.NewTool(server.ToolInfo{Name: "ask_name", TaskSupport: server.TaskSupportRequired}, func(ctx context.Context, _ struct{}) (string, error) {
				resp, err := server.Ask(ctx, "name", askName())
				if err != nil {
					return "", err
				}
				name := resp.(*mcp.ElicitResult).Content["name"]
				if name == "again" { // asks once more under the same key
					return "", &server.InputRequiredError{Requests: mcp.InputRequests{"name": askName()}}
				}
				return fmt.Sprintf("Hello, %v!", name), nil
			}),
			server.NewTool(server.ToolInfo{Name: "echo"}, func(ctx context.Context, _ struct{}) (string, error) {
				return "hi", nil
			}),
			server.NewTool(server.ToolInfo{Name: "slow_task", TaskSupport: server.TaskSupportRequired}, func(ctx context.Context, _ struct{}) (string, error) {
				select {
				case <-time.After(heartbeatTTL + time.Second):
					return "slow done", nil
				case <-ctx.Done():
					return "", ctx.Err()
				}
			}),
			server.NewTool(server.ToolInfo{Name: "quick_task", TaskSupport: server.TaskSupportRequired}, func(ctx context.Context, _ struct{}) (string, error) {
				return "done", nil
			}),
			server.NewTool(server.ToolInfo{Name: "wait_for_cancel", TaskSupport: server.TaskSupportRequired}, func(ctx context.Context, _ struct{}) (string, error) {
				<-ctx.Done()
				r.cancelled <- struct{}{}
				return "", ctx.Err()
			}),
		}
		var err error
		srv, err = server.New(server.Options{
			Name: "replica", Version: "1", Tools: tools,
			Resources: []server.Resource{server.NewResource(server.ResourceInfo{URI: "test://watched", Name: "watched"},
				func(context.Context) (string, error) { return "x", nil })},
			StateKeys: [][]byte{[]byte("clustertest-shared-state-key-000")},
			Cluster:   cluster,
			OnRemoteChange: func(s *server.Server, c server.Change) {
				if c.Kind == server.ChangeTools {
					_ = s.Local().AddTools(transient())
				}
			},
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		})
		if err != nil {
			t.Fatalf("New: %v", err)
		}
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_ = srv.Shutdown(ctx)
		})
		r.servers = append(r.servers, srv)
		r.links = append(r.links, link)
	}
	return r
}

func transient() server.Tool {
	return server.NewTool(server.ToolInfo{Name: "transient"}, func(ctx context.Context, _ struct{}) (string, error) {
		return "here", nil
	})
}

// kill makes replica i vanish as a killed process would: its heartbeat
// stops and it reaches the backend no more.
func (r *replicas) kill(i int) { r.links[i].dead.Store(true) }

// call sends one request to replica i and returns its result.
func (r *replicas) call(t testing.TB, i int, method, params string) json.RawMessage {
	t.Helper()
	rest := strings.TrimPrefix(params, "{")
	if rest != "}" {
		rest = "," + rest
	}
	msg := `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":{"_meta":` + meta + rest + `}`
	resp := r.servers[i].HandleBytes(t.Context(), []byte(msg), nil)
	var out struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(resp.Body, &out); err != nil {
		t.Fatalf("%s on replica %d: %s: %v", method, i, resp.Body, err)
	}
	if out.Error != nil {
		t.Fatalf("%s on replica %d: error %d %s", method, i, out.Error.Code, out.Error.Message)
	}
	return out.Result
}

func (r *replicas) createTask(t testing.TB, i int, tool string) string {
	t.Helper()
	var m struct {
		ResultType, TaskID string
	}
	if err := json.Unmarshal(r.call(t, i, "tools/call", `{"name":"`+tool+`","arguments":{}}`), &m); err != nil || m.ResultType != "task" || m.TaskID == "" {
		t.Fatalf("CreateTaskResult %+v %v", m, err)
	}
	return m.TaskID
}

// waitStatus polls tasks/get on replica i until the task has one of
// statuses.
func (r *replicas) waitStatus(t testing.TB, i int, id string, statuses ...string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var m map[string]any
		_ = json.Unmarshal(r.call(t, i, "tasks/get", `{"taskId":"`+id+`"}`), &m)
		for _, st := range statuses {
			if m["status"] == st {
				return m
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("task %s on replica %d: status %v, want %v (%v)", id, i, m["status"], statuses, m)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// stream is an open subscriptions/listen on one replica.
type stream struct {
	notes chan note
}

type note struct {
	method string
	params json.RawMessage
}

func (s *stream) Notify(method string, params any) error {
	b, err := json.Marshal(params)
	if err != nil {
		return err
	}
	s.notes <- note{method, b}
	return nil
}

func (r *replicas) listen(t testing.TB, i int, filter string) *stream {
	t.Helper()
	st, _ := r.listenAck(t, i, filter)
	return st
}

// listenAck opens a listen on replica i and returns it with its
// acknowledgement.
func (r *replicas) listenAck(t testing.TB, i int, filter string) (*stream, note) {
	t.Helper()
	st := &stream{notes: make(chan note, 64)}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	msg := `{"jsonrpc":"2.0","id":"listen","method":"subscriptions/listen","params":{"_meta":` + meta + `,"notifications":` + filter + `}}`
	go func() {
		defer close(done)
		r.servers[i].HandleBytes(ctx, []byte(msg), st)
	}()
	t.Cleanup(func() { cancel(); <-done })
	ack := st.next(t)
	if ack.method != "notifications/subscriptions/acknowledged" {
		t.Fatalf("listen: first notification %s", ack.method)
	}
	return st, ack
}

// nextStatus reads notifications/tasks of task id until one has status,
// within d; earlier statuses may come first.
func (s *stream) nextStatus(t testing.TB, id, status string, d time.Duration) map[string]any {
	t.Helper()
	deadline := time.After(d)
	for {
		select {
		case n := <-s.notes:
			if n.method != "notifications/tasks" {
				t.Fatalf("notification %s %s, want notifications/tasks", n.method, n.params)
			}
			var m map[string]any
			if err := json.Unmarshal(n.params, &m); err != nil {
				t.Fatal(err)
			}
			if m["taskId"] != id {
				t.Fatalf("notifications/tasks for %v, want %s", m["taskId"], id)
			}
			if m["status"] == status {
				return m
			}
		case <-deadline:
			t.Fatalf("no notifications/tasks with status %s for %s within %v", status, id, d)
			return nil
		}
	}
}

func (s *stream) next(t testing.TB) note {
	t.Helper()
	select {
	case n := <-s.notes:
		return n
	case <-time.After(5 * time.Second):
		t.Fatal("no notification on the listen stream")
		return note{}
	}
}

func (s *stream) none(t testing.TB, d time.Duration) {
	t.Helper()
	select {
	case n := <-s.notes:
		t.Fatalf("unexpected notification %s %s", n.method, n.params)
	case <-time.After(d):
	}
}

// killable is a connection that can be cut, as when the process dies.
type killable struct {
	server.Cluster
	dead atomic.Bool
}

var errKilled = errors.New("clustertest: replica killed")

func (k *killable) Publish(ctx context.Context, msg []byte) error {
	if k.dead.Load() {
		return errKilled
	}
	return k.Cluster.Publish(ctx, msg)
}

func (k *killable) Subscribe(ctx context.Context, deliver func([]byte)) error {
	return k.Cluster.Subscribe(ctx, func(msg []byte) {
		if !k.dead.Load() {
			deliver(msg)
		}
	})
}

func (k *killable) Heartbeat(ctx context.Context, replica string, ttl time.Duration) error {
	if k.dead.Load() {
		return errKilled
	}
	return k.Cluster.Heartbeat(ctx, replica, ttl)
}

func (k *killable) Tasks() server.TaskStore {
	return killableTasks{k.Cluster.Tasks(), k}
}

type killableTasks struct {
	server.TaskStore
	k *killable
}

func (k killableTasks) Create(ctx context.Context, id string, rec []byte, exp time.Time) error {
	if k.k.dead.Load() {
		return errKilled
	}
	return k.TaskStore.Create(ctx, id, rec, exp)
}

func (k killableTasks) Swap(ctx context.Context, id string, rec []byte, rev uint64, exp time.Time) error {
	if k.k.dead.Load() {
		return errKilled
	}
	return k.TaskStore.Swap(ctx, id, rec, rev, exp)
}

// askName is ask_name's elicitation of a name.
func askName() *mcp.ElicitRequest {
	return &mcp.ElicitRequest{Params: &mcp.ElicitRequestFormParams{
		Message: "Name?",
		RequestedSchema: mcp.ElicitRequestFormParamsRequestedSchema{
			Properties: map[string]mcp.PrimitiveSchemaDefinition{"name": &mcp.StringSchema{}},
		},
	}}
}
