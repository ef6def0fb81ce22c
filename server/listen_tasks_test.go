package server

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// startTaskListen opens a listen stream declaring the tasks extension.
func startTaskListen(t *testing.T, s *Server, id, filter string) *listenRun {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	l := &listenRun{w: newRecorder(), done: make(chan Response, 1), stop: cancel}
	msg := `{"jsonrpc":"2.0","id":` + id + `,"method":"subscriptions/listen","params":` + withMeta(`{"notifications":`+filter+`}`, tasksMeta) + `}`
	go func() { l.done <- s.HandleBytes(ctx, []byte(msg), l.w) }()
	t.Cleanup(cancel)
	return l
}

// taskNote decodes a notifications/tasks.
func taskNote(t *testing.T, n note) map[string]any {
	t.Helper()
	if n.Method != "notifications/tasks" {
		t.Fatalf("notification %s %s, want notifications/tasks", n.Method, n.Params)
	}
	var m map[string]any
	if err := json.Unmarshal(n.Params, &m); err != nil {
		t.Fatal(err)
	}
	if _, has := m["resultType"]; has {
		t.Errorf("notifications/tasks carries resultType: %s", n.Params)
	}
	for _, k := range []string{"taskId", "status", "createdAt", "lastUpdatedAt", "ttlMs"} {
		if m[k] == nil {
			t.Errorf("notifications/tasks lacks %s: %s", k, n.Params)
		}
	}
	return m
}

// nextStatus reads task notifications until one has status (earlier
// statuses may come first, each at most once in a row).
func (l *listenRun) nextStatus(t *testing.T, id, status string) map[string]any {
	t.Helper()
	last := ""
	for {
		m := taskNote(t, l.next(t))
		if m["taskId"] != id {
			t.Fatalf("notification for task %v, want %s", m["taskId"], id)
		}
		st, _ := m["status"].(string)
		if st == last {
			t.Fatalf("status %s sent twice in a row", st)
		}
		if st == status {
			return m
		}
		last = st
	}
}

func TestListenTaskStatus(t *testing.T) {
	s := newTaskServer(t)
	id := createTask(t, s, "confirm_two", `{"file":"a.txt"}`)
	l := startTaskListen(t, s, `"tl"`, `{"taskIds":["`+id+`","no-such-task","`+id+`"]}`)
	ack := l.next(t)
	if ack.Method != "notifications/subscriptions/acknowledged" {
		t.Fatalf("first %s", ack.Method)
	}
	if !strings.Contains(string(ack.Params), `"taskIds":["`+id+`"]`) {
		t.Fatalf("ack %s, want exactly the known task granted", ack.Params)
	}
	m := l.nextStatus(t, id, TaskInputRequired)
	if subID(t, note{Params: mustJSON(t, m)}) != `"tl"` {
		t.Errorf("not tagged with the subscription id: %v", m)
	}
	reqs, _ := m["inputRequests"].(map[string]any)
	if reqs["first"] == nil || reqs["second"] == nil {
		t.Fatalf("input_required without the requests: %v", m)
	}
	r := taskRPC(t, s, "tasks/update", id, `,"inputResponses":{"first":{"action":"accept","content":{"confirm":true}},"second":{"action":"accept","content":{"confirm":false}}}`)
	wantAck(t, r)
	done := l.nextStatus(t, id, TaskCompleted)
	if !strings.Contains(string(mustJSON(t, done["result"])), "a.txt: first=true second=false") {
		t.Fatalf("completed without the result: %v", done)
	}
	l.none(t, 100*time.Millisecond) // terminal: nothing more
}

func TestListenTaskStatusCancelAndFailure(t *testing.T) {
	s := newTaskServer(t)
	sleeping := createTask(t, s, "sleeper", `{"ms":10000}`)
	failing := createTask(t, s, "protocol_error", `{}`)
	waitStatus(t, s, failing, TaskFailed)
	l := startTaskListen(t, s, "5", `{"taskIds":["`+sleeping+`","`+failing+`"]}`)
	if n := l.next(t); n.Method != "notifications/subscriptions/acknowledged" {
		t.Fatalf("first %s", n.Method)
	}
	got := map[string]map[string]any{}
	for range 2 { // the state of each at once
		m := taskNote(t, l.next(t))
		got[m["taskId"].(string)] = m
	}
	if got[sleeping]["status"] != TaskWorking {
		t.Errorf("sleeper: %v", got[sleeping])
	}
	if f := got[failing]; f["status"] != TaskFailed || f["error"] == nil {
		t.Errorf("a failed task is sent with its error: %v", f)
	}
	wantAck(t, taskRPC(t, s, "tasks/cancel", sleeping, ""))
	if m := taskNote(t, l.next(t)); m["taskId"] != sleeping || m["status"] != TaskCancelled {
		t.Fatalf("after tasks/cancel: %v", m)
	}
	l.none(t, 100*time.Millisecond)
}

func TestListenTaskIDsNeedTheExtension(t *testing.T) {
	s := newTaskServer(t)
	id := createTask(t, s, "sleeper", `{"ms":10000}`)
	r, _ := rpcMeta(t, s, "subscriptions/listen", `{"notifications":{"taskIds":["`+id+`"]}}`, defaultMeta, newRecorder())
	wantError(t, r, -32021)
	if !strings.Contains(string(r.Error.Data), TasksExtension) {
		t.Errorf("data %s does not name the extension", r.Error.Data)
	}
	for _, bad := range []string{`"x"`, `[1]`, `{"a":1}`} {
		r, _ := rpcMeta(t, s, "subscriptions/listen", `{"notifications":{"taskIds":`+bad+`}}`, tasksMeta, newRecorder())
		wantError(t, r, -32602)
	}
	many := strings.Repeat(`"x",`, maxListenTaskIDs) + `"x"`
	r, _ = rpcMeta(t, s, "subscriptions/listen", `{"notifications":{"taskIds":[`+many+`]}}`, tasksMeta, newRecorder())
	wantError(t, r, -32602)
}

func mustJSON(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A listen stream naming a task of a tool with scopes is granted it only
// when the caller's token has them, as tasks/get needs them.
func TestListenTaskNeedsItsToolScopes(t *testing.T) {
	gate, err := NewAuth(AuthOptions{Verifier: authTokens, Resource: "https://mcp.test/mcp", AuthorizationServers: []string{"https://as.test"}})
	if err != nil {
		t.Fatal(err)
	}
	as := func(token string) context.Context {
		info, err := authTokens.VerifyToken(context.Background(), token)
		if err != nil {
			t.Fatal(err)
		}
		return withAuth(context.Background(), &authState{info: info, gate: gate})
	}
	s, err := New(Options{Name: "scoped", Version: "1", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Tools: []Tool{NewTool(ToolInfo{Name: "guarded", Scopes: []string{"files:write"}, TaskSupport: TaskSupportRequired},
			func(ctx context.Context, _ struct{}) (string, error) { <-ctx.Done(); return "", ctx.Err() })}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		_ = s.Shutdown(ctx)
	})
	msg := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"guarded","arguments":{},"_meta":` + tasksMeta + `}}`
	var created struct {
		Result struct {
			TaskID string `json:"taskId"`
		} `json:"result"`
	}
	if err := json.Unmarshal(s.HandleBytes(as("alice-write"), []byte(msg), nil).Body, &created); err != nil || created.Result.TaskID == "" {
		t.Fatalf("create: %v %+v", err, created)
	}
	if !s.taskVisible(as("alice-write"), created.Result.TaskID) {
		t.Error("the task is not granted to a token with its tool's scopes")
	}
	if s.taskVisible(as("alice-read"), created.Result.TaskID) {
		t.Error("the task is granted to a token without its tool's scope files:write")
	}
}
