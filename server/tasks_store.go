package server

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// task is one task of the tasks extension. Its fields after mu are guarded
// by mu; the rest are fixed at creation.
type task struct {
	id      string
	owner   *authState // the creator's principal (nil unauthenticated); see auth_tasks.go
	tool    *toolImpl
	args    []byte      // copy of params.arguments
	meta    requestMeta // copy of the creating request's _meta (no progress/log)
	created time.Time
	expires time.Time
	ttl     time.Duration
	cancel  context.CancelFunc
	client  string          // who created it (Limits.MaxTasksPerClient)
	wake    chan struct{}   // signalled when the last pending input is answered
	changed func(id string) // called (under mu) when the status changes; see listen_tasks.go

	mu      sync.Mutex
	status  string
	message string
	updated time.Time
	pending mcp.InputRequests          // unanswered input requests (input_required), by wire key
	answers map[string]json.RawMessage // every answer so far, by the tool's key, raw (decoded by Ask)
	// usedKeys are the wire keys surfaced so far; toolKeys maps a wire key
	// that differs from the tool's (a key asked again) to the tool's key
	// (tasks_keys.go).
	usedKeys map[string]bool
	toolKeys map[string]string
	state    json.RawMessage // SetState of the last round
	result   json.RawMessage // encoded tool result (completed)
	err      *jsonrpc.Error  // protocol error (failed)
	// recorded: the cluster's store has had the task's record (its owner
	// keeps it there from then on; cluster_taskkeep.go).
	recorded bool
	// unstored: the last write of the record failed; keepTasks writes it
	// again, and so does leaving the cluster (cluster_taskkeep.go).
	unstored bool
}

// terminal reports whether status is final. Callers hold t.mu.
func (t *task) terminal() bool {
	return t.status == TaskCompleted || t.status == TaskFailed || t.status == TaskCancelled
}

// setStatus records a status change. Callers hold t.mu.
func (t *task) setStatus(status, message string) {
	old := t.status
	t.status, t.message, t.updated = status, message, time.Now()
	if status != old && t.changed != nil {
		t.changed(t.id)
	}
}

// finish makes the task terminal unless it already is (a cancel that won the
// race keeps "cancelled").
func (t *task) finish(status string, result json.RawMessage, err *jsonrpc.Error, message string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.terminal() {
		return
	}
	t.setStatus(status, message)
	t.result, t.err, t.pending = result, err, nil
}

// wire returns the task's wire form; detailed adds inputRequests and the
// inlined result or error (tasks/get).
func (t *task) wire(detailed bool, meta json.RawMessage) taskWire {
	t.mu.Lock()
	defer t.mu.Unlock()
	w := taskWire{
		ResultType:     "task",
		TaskID:         t.id,
		Status:         t.status,
		StatusMessage:  t.message,
		CreatedAt:      t.created.UTC().Format(taskTimestampLayout),
		LastUpdatedAt:  t.updated.UTC().Format(taskTimestampLayout),
		TTLMs:          t.ttl.Milliseconds(),
		PollIntervalMs: taskPollIntervalMs,
		Meta:           meta,
	}
	if detailed {
		w.ResultType = "complete"
		if t.status == TaskInputRequired && len(t.pending) > 0 {
			w.InputRequests = make(mcp.InputRequests, len(t.pending))
			for k, v := range t.pending {
				w.InputRequests[k] = v
			}
		}
		switch t.status {
		case TaskCompleted:
			w.Result = t.result
		case TaskFailed:
			w.Error = t.err
		}
	}
	return w
}

// taskStore holds the tasks of one server, in memory and bounded. The zero
// value is ready to use.
type taskStore struct {
	mu        sync.Mutex
	tasks     map[string]*task
	ttl       time.Duration // 0: defaultTaskTTL
	max       int           // 0: defaultMaxTasks
	perClient int           // unfinished tasks per client (0: no quota)
	// shutdown: no task is created any more, the drain having no admitted
	// request left (wait) or its grace having ended (close).
	shutdown bool
	running  sync.WaitGroup // one per runner goroutine (runTask)
	// changed is given to every task: it tells the listen streams of a
	// status change (nil: nobody listens).
	changed func(id string)
}

// errTooManyTasks answers a task creation when the store is full of running
// tasks.
// It is a server-wide limit, so its reason is busy (the client's own quota
// is errTaskQuota).
var errTooManyTasks = limitError(reasonBusy, "Internal error: too many running tasks; try again later")

// add registers a new working task for tool on behalf of client, after
// dropping expired tasks and, when the store is full, a finished one
// (evictFinishedLocked); a client at its quota of unfinished tasks is
// refused (tasks_quota.go).
func (st *taskStore) add(tool *toolImpl, args []byte, meta requestMeta, client string) (*task, context.Context, *jsonrpc.Error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.shutdown {
		return nil, nil, shuttingDownError()
	}
	if st.tasks == nil {
		st.tasks = map[string]*task{}
	}
	now := time.Now()
	st.sweepLocked(now)
	limit := st.max
	if limit <= 0 {
		limit = defaultMaxTasks
	}
	if st.atQuotaLocked(client) {
		return nil, nil, errTaskQuota
	}
	if len(st.tasks) >= limit && !st.evictFinishedLocked() {
		return nil, nil, errTooManyTasks
	}
	ttl := st.ttl
	if ttl <= 0 {
		ttl = defaultTaskTTL
	}
	id, err := newTaskID()
	if err != nil {
		return nil, nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "Internal error: no randomness for a task id"}
	}
	ctx, cancel := context.WithDeadline(context.Background(), now.Add(ttl))
	t := &task{
		id: id, tool: tool, args: args, meta: meta,
		created: now, expires: now.Add(ttl), ttl: ttl, cancel: cancel, client: client,
		wake: make(chan struct{}, 1), changed: st.changed,
		status: TaskWorking, updated: now,
	}
	st.tasks[t.id] = t
	st.running.Add(1) // under mu, before close can start waiting
	return t, ctx, nil
}

// get returns the live task with id, nil when unknown or expired.
func (st *taskStore) get(id string) *task {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.sweepLocked(time.Now())
	return st.tasks[id]
}

// sweepLocked drops the tasks whose TTL has ended (cancelling any still
// running). Callers hold st.mu.
func (st *taskStore) sweepLocked(now time.Time) {
	for id, t := range st.tasks {
		if now.After(t.expires) {
			t.cancel()
			delete(st.tasks, id)
		}
	}
}

// evictFinishedLocked makes room in a full store: it drops the oldest
// terminal task of the client holding the most terminal tasks, so that a
// client running many quick tasks pushes out its own unread results, not
// another client's before their ttlMs. false when every task is still
// running. Callers hold st.mu.
func (st *taskStore) evictFinishedLocked() bool {
	type held struct {
		n      int
		oldest *task
	}
	byClient := map[string]*held{}
	var most *held
	for _, t := range st.tasks {
		t.mu.Lock()
		fin := t.terminal()
		t.mu.Unlock()
		if !fin {
			continue
		}
		h := byClient[t.client]
		if h == nil {
			h = &held{}
			byClient[t.client] = h
		}
		h.n++
		if h.oldest == nil || t.created.Before(h.oldest.created) {
			h.oldest = t
		}
	}
	for _, h := range byClient {
		if most == nil || h.n > most.n || (h.n == most.n && h.oldest.created.Before(most.oldest.created)) {
			most = h
		}
	}
	if most == nil {
		return false
	}
	delete(st.tasks, most.oldest.id)
	return true
}

// recorded returns the live tasks whose record the cluster's store has
// had: the ones this replica keeps there (cluster_taskkeep.go).
func (st *taskStore) recorded() []*task {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.sweepLocked(time.Now())
	out := make([]*task, 0, len(st.tasks))
	for _, t := range st.tasks {
		t.mu.Lock()
		if t.recorded {
			out = append(out, t)
		}
		t.mu.Unlock()
	}
	return out
}

// len returns how many tasks the store holds.
func (st *taskStore) len() int {
	st.mu.Lock()
	defer st.mu.Unlock()
	return len(st.tasks)
}

// close marks every unfinished task failed with reason, cancels it and
// refuses new tasks: the end of Shutdown's grace. wait then returns once
// every runner goroutine has ended.
func (st *taskStore) close(reason string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.shutdown = true
	for _, t := range st.tasks {
		t.finish(TaskFailed, nil, shutdownCancelError(), reason)
		t.cancel()
	}
}

// wait refuses new tasks and blocks until every runner goroutine has
// returned. Shutdown calls it once no admitted request is left (the tasks
// those created are running), so only a request that was never admitted
// could still try to create one; refusing it here keeps every running.Add
// before the Wait.
func (st *taskStore) wait() {
	st.mu.Lock()
	st.shutdown = true
	st.mu.Unlock()
	st.running.Wait()
}
