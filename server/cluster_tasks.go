package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// Tasks in a cluster. The replica whose tools/call created a task (its
// owner) runs it, as without a cluster, and mirrors every status change into
// the shared TaskStore. A tasks/get, tasks/update or tasks/cancel that lands
// on another replica works on the stored record (compare-and-swap) and
// publishes a ChangeTask; the owner applies the answers or the
// cancellation to the running task at once, or at its next look at the
// store (taskStorePoll, cluster_taskkeep.go) should the message be lost.
// The first terminal status stored wins on every replica: an owner whose
// tool returned after a cancellation (or a failed mark) was stored takes
// the stored status. A task whose owner's heartbeat has expired is marked
// failed with the reason by the first replica that reads it.

// taskRecord is a task as the TaskStore keeps it.
type taskRecord struct {
	Replica   string `json:"replica"`   // the replica that runs it
	Principal string `json:"principal"` // its creator's principalKey ("" unauthenticated)
	// Scopes are its tool's scopes, needed by every tasks/* request on it
	// (absent in records of older replicas: none).
	Scopes  []string                   `json:"scopes,omitzero"`
	Status  string                     `json:"status"`
	Message string                     `json:"message,omitzero"`
	Created time.Time                  `json:"created"`
	Updated time.Time                  `json:"updated"`
	Expires time.Time                  `json:"expires"`
	TTLMs   int64                      `json:"ttlMs"`
	Pending mcp.InputRequests          `json:"pending,omitzero"`
	Answers map[string]json.RawMessage `json:"answers,omitzero"` // given on replicas other than the owner
	Result  json.RawMessage            `json:"result,omitzero"`
	Error   *jsonrpc.Error             `json:"error,omitzero"`
}

// taskStorePoll is how often an owner re-reads the record of each task it
// runs, should a ChangeTask message or one of its own writes be lost
// (cluster_taskkeep.go).
const taskStorePoll = time.Second

func isTerminal(status string) bool {
	return status == TaskCompleted || status == TaskFailed || status == TaskCancelled
}

// wire is the record's wire form (task.wire for a task of another replica).
func (rec *taskRecord) wire(id string, meta json.RawMessage) taskWire {
	w := taskWire{
		ResultType:     "complete",
		TaskID:         id,
		Status:         rec.Status,
		StatusMessage:  rec.Message,
		CreatedAt:      rec.Created.UTC().Format(taskTimestampLayout),
		LastUpdatedAt:  rec.Updated.UTC().Format(taskTimestampLayout),
		TTLMs:          rec.TTLMs,
		PollIntervalMs: taskPollIntervalMs,
		Meta:           meta,
	}
	switch rec.Status {
	case TaskInputRequired:
		if len(rec.Pending) > 0 {
			w.InputRequests = rec.Pending
		}
	case TaskCompleted:
		w.Result = rec.Result
	case TaskFailed:
		w.Error = rec.Error
	}
	return w
}

// storeError is the answer when the task store fails.
func storeError(err error) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "Internal error: the cluster's task store: " + err.Error()}
}

// createTaskRecord stores a new task of this replica (or one the store
// lost), renewing the replica's heartbeat first.
func (s *Server) createTaskRecord(ctx context.Context, t *task) error {
	var creator *TokenInfo
	if t.owner != nil {
		creator = t.owner.info
	}
	rec := taskRecord{Replica: s.cl.replica, Principal: creator.key(), Scopes: t.scopes()}
	t.mu.Lock()
	t.fillRecord(&rec)
	t.mu.Unlock()
	b, err := json.Marshal(&rec)
	if err != nil {
		return err
	}
	cctx, cancel := context.WithTimeout(ctx, clusterTimeout)
	defer cancel()
	// Beat first: a store that lost its keys (Redis restarted without
	// persistence) lost this replica's heartbeat with them, and a record
	// readable before the next heartbeat would read as an orphan's.
	if err := s.cl.c.Heartbeat(cctx, s.cl.replica, heartbeatTTL); err != nil {
		return err
	}
	if err := s.cl.c.Tasks().Create(cctx, t.id, b, t.expires); err != nil {
		return err
	}
	t.mu.Lock()
	t.recorded = true
	t.mu.Unlock()
	return nil
}

// fillRecord copies the task's state into rec. Callers hold t.mu.
func (t *task) fillRecord(rec *taskRecord) {
	rec.Status, rec.Message = t.status, t.message
	rec.Created, rec.Updated, rec.Expires = t.created, t.updated, t.expires
	rec.TTLMs = t.ttl.Milliseconds()
	rec.Pending = nil
	if t.status == TaskInputRequired && len(t.pending) > 0 {
		rec.Pending = make(mcp.InputRequests, len(t.pending))
		for k, v := range t.pending {
			rec.Pending[k] = v
		}
	}
	rec.Result, rec.Error = t.result, t.err
}

// loadRecord reads a record; ErrTaskNotFound also for an expired one, and
// without asking the store for an id no replica generates (tasks_id.go).
func (s *Server) loadRecord(ctx context.Context, id string) (*taskRecord, uint64, error) {
	if !isTaskID(id) {
		return nil, 0, ErrTaskNotFound
	}
	lctx, cancel := context.WithTimeout(ctx, clusterTimeout)
	defer cancel()
	b, rev, err := s.cl.c.Tasks().Load(lctx, id)
	if err != nil {
		return nil, 0, err
	}
	var rec taskRecord
	if err := json.Unmarshal(b, &rec); err != nil {
		return nil, 0, fmt.Errorf("task %s: undecodable record: %w", id, err)
	}
	if time.Now().After(rec.Expires) {
		return nil, 0, ErrTaskNotFound
	}
	return &rec, rev, nil
}

// loadOwnRecord is loadRecord for a tasks/* request: another principal's
// task is unknown (auth_tasks.go).
func (s *Server) loadOwnRecord(ctx context.Context, id string) (*taskRecord, uint64, error) {
	rec, rev, err := s.loadRecord(ctx, id)
	if err == nil && rec.Principal != principalKey(ctx) {
		return nil, 0, ErrTaskNotFound
	}
	return rec, rev, err
}

// swapRecord changes a record with edit until the compare-and-swap holds;
// edit returns false to leave the record as it is.
func (s *Server) swapRecord(ctx context.Context, id string, edit func(*taskRecord) bool) (*taskRecord, error) {
	for {
		rec, rev, err := s.loadRecord(ctx, id)
		if err != nil {
			return nil, err
		}
		if !edit(rec) {
			return rec, nil
		}
		b, err := json.Marshal(rec)
		if err != nil {
			return nil, err
		}
		sctx, cancel := context.WithTimeout(ctx, clusterTimeout)
		err = s.cl.c.Tasks().Swap(sctx, id, b, rev, rec.Expires)
		cancel()
		if errors.Is(err, ErrTaskConflict) {
			continue
		}
		return rec, err
	}
}

// swapOwnRecord is swapRecord for a tasks/* request: another principal's
// task is unknown, and one whose tool's scopes the token lacks is refused
// with insufficient scope, unchanged (auth_tasks.go).
func (s *Server) swapOwnRecord(ctx context.Context, id string, edit func(*taskRecord) bool) (*taskRecord, error) {
	principal, foreign := principalKey(ctx), false
	var refused error
	rec, err := s.swapRecord(ctx, id, func(rec *taskRecord) bool {
		if foreign = rec.Principal != principal; foreign {
			return false
		}
		if refused = checkScopes(ctx, rec.Scopes); refused != nil {
			return false
		}
		return edit(rec)
	})
	switch {
	case err == nil && foreign:
		return nil, ErrTaskNotFound
	case err == nil && refused != nil:
		return nil, refused
	}
	return rec, err
}

// applyRecord brings a task this replica runs up to date with what other
// replicas wrote: a cancellation (or a failed mark) ends it, answers given
// elsewhere are taken and, once none is pending, resume it. A terminal
// record is final: its status replaces the task's own, even a terminal
// one the owner reached after the record was written (a tool that
// returned just after a cancellation elsewhere), so every replica answers
// the same.
func (s *Server) applyRecord(t *task, rec *taskRecord) {
	t.mu.Lock()
	if isTerminal(rec.Status) && t.status != rec.Status {
		t.setStatus(rec.Status, rec.Message)
		t.result, t.err, t.pending = rec.Result, rec.Error, nil
		t.mu.Unlock()
		t.cancel()
		return
	}
	defer t.mu.Unlock()
	taken := false
	for key, raw := range rec.Answers {
		req, pending := t.pending[key] // wire keys are never reused: an answer stored before is not pending
		if !pending {
			continue
		}
		if _, err := decodeAnswer(req, raw); err != nil {
			continue // checked by the replica that stored it
		}
		t.answerLocked(key, raw)
		taken = true
	}
	if taken && t.status == TaskInputRequired && len(t.pending) == 0 {
		t.setStatus(TaskWorking, "")
		select {
		case t.wake <- struct{}{}:
		default:
		}
	}
}

// syncTask applies the stored record to a task this replica runs.
func (s *Server) syncTask(ctx context.Context, t *task) {
	rec, _, err := s.loadRecord(ctx, t.id)
	if err != nil {
		return
	}
	s.applyRecord(t, rec)
}

// mirrorTask writes a task this replica runs to the store (after taking
// what other replicas wrote); nothing without a cluster. A write that
// fails is made again by keepTasks, or by leaveCluster; one still running
// when Shutdown abandons the cluster's writes ends then.
func (s *Server) mirrorTask(t *task) {
	if s.cl == nil {
		return
	}
	wrote, err := s.storeTask(s.cl.writes, t)
	if err != nil {
		s.logger.Warn("cluster: writing a task to the store failed; retrying", "task", t.id, "err", err)
		return
	}
	if wrote {
		s.broadcast(ChangeTask, "", t.id)
	}
}

// storeTask writes a task this replica runs to its record after taking
// what other replicas wrote, and re-creates the record should the store
// have lost it (a restart without persistence) while the task lives.
// wrote reports whether the record changed: not when it was final already
// (applyRecord took its status). A record found gone whose Create is
// refused as taken is looked for again storeAttempts times at most (the
// owner's mirrorTask and keepTasks may re-create it at once); past that
// the store answers inconsistently (errStoreInconsistent), and keepTasks
// tries again later, backing off, instead of spinning on round trips.
func (s *Server) storeTask(ctx context.Context, t *task) (wrote bool, err error) {
	defer func() {
		t.mu.Lock()
		t.unstored = err != nil
		t.mu.Unlock()
	}()
	for range storeAttempts {
		_, err = s.swapRecord(ctx, t.id, func(rec *taskRecord) bool {
			s.applyRecord(t, rec)
			t.mu.Lock()
			defer t.mu.Unlock()
			if wrote = !isTerminal(rec.Status); wrote {
				t.fillRecord(rec)
			}
			return wrote
		})
		if !errors.Is(err, ErrTaskNotFound) || time.Now().After(t.expires) {
			return wrote && err == nil, err
		}
		if err = s.createTaskRecord(ctx, t); !errors.Is(err, ErrTaskExists) {
			return err == nil, err
		}
	}
	return false, fmt.Errorf("task %s: %w", t.id, errStoreInconsistent)
}

// storeAttempts bounds storeTask's rounds of a record found gone whose
// Create is refused as taken.
const storeAttempts = 3

// errStoreInconsistent is storeTask's error when the task store keeps
// reporting a record gone (Load) yet taken (Create).
var errStoreInconsistent = errors.New("the task store reports the record gone, yet refuses to create it as taken")

// remoteTaskChange handles a ChangeTask of another replica.
func (s *Server) remoteTaskChange(id string) {
	if t := s.tasks.get(id); t != nil {
		s.syncTask(context.Background(), t)
	}
}

// tasksGetAny is tasks/get on any replica.
func (s *Server) tasksGetAny(ctx context.Context, p taskParams) (any, error) {
	if s.cl == nil || p.TaskID == nil {
		return s.tasksGet(ctx, p)
	}
	if t := s.tasks.get(*p.TaskID); t != nil {
		s.syncTask(ctx, t)
		return s.tasksGet(ctx, p)
	}
	rec, _, err := s.loadOwnRecord(ctx, *p.TaskID)
	if err != nil {
		return nil, s.recordError(*p.TaskID, err)
	}
	if err := checkScopes(ctx, rec.Scopes); err != nil {
		return nil, err
	}
	if !isTerminal(rec.Status) && rec.Replica != s.cl.replica {
		actx, cancel := context.WithTimeout(ctx, clusterTimeout)
		alive, err := s.cl.c.Alive(actx, rec.Replica)
		cancel()
		if err == nil && !alive {
			if rec, err = s.orphaned(ctx, *p.TaskID); err != nil {
				return nil, s.recordError(*p.TaskID, err)
			}
			s.announceTask(*p.TaskID)
		}
	}
	return rec.wire(*p.TaskID, s.metaJSON), nil
}

// orphaned marks a task whose owner stopped as failed, with the reason.
func (s *Server) orphaned(ctx context.Context, id string) (*taskRecord, error) {
	return s.swapRecord(ctx, id, func(rec *taskRecord) bool {
		if isTerminal(rec.Status) {
			return false
		}
		msg := "the replica running this task (" + rec.Replica + ") stopped before it finished"
		rec.Status, rec.Message, rec.Updated, rec.Pending = TaskFailed, msg, time.Now(), nil
		rec.Error = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "Internal error: " + msg}
		return true
	})
}

// recordError maps a store error to the tasks/* answer.
func (s *Server) recordError(id string, err error) error {
	if errors.Is(err, ErrTaskNotFound) {
		return invalidParams(fmt.Sprintf("Unknown task: %q", id))
	}
	if rpcErr, ok := errors.AsType[*jsonrpc.Error](err); ok {
		return rpcErr // a refusal (swapOwnRecord), not a store failure
	}
	return storeError(err)
}

// tasksUpdateAny is tasks/update on any replica.
func (s *Server) tasksUpdateAny(ctx context.Context, p taskParams) (any, error) {
	if s.cl == nil || p.TaskID == nil {
		return s.tasksUpdate(ctx, p)
	}
	if t := s.tasks.get(*p.TaskID); t != nil {
		s.syncTask(ctx, t)
		out, err := s.tasksUpdate(ctx, p)
		if err == nil {
			s.mirrorTask(t)
		}
		return out, err
	}
	if p.InputResponses == nil {
		return nil, invalidParams("params.inputResponses: must be an object mapping keys to input responses")
	}
	var bad error
	_, err := s.swapOwnRecord(ctx, *p.TaskID, func(rec *taskRecord) bool {
		bad = nil
		if rec.Status != TaskInputRequired {
			return false
		}
		took := false
		for key, raw := range p.InputResponses {
			req, pending := rec.Pending[key]
			if !pending {
				continue
			}
			if _, err := decodeAnswer(req, raw); err != nil {
				bad = answerError(key, req, err)
				return false
			}
			if rec.Answers == nil {
				rec.Answers = map[string]json.RawMessage{}
			}
			rec.Answers[key] = raw
			delete(rec.Pending, key)
			took = true
		}
		if !took {
			return false
		}
		rec.Updated = time.Now()
		if len(rec.Pending) == 0 {
			rec.Status = TaskWorking
		}
		return true
	})
	if bad != nil {
		return nil, bad
	}
	if err != nil {
		return nil, s.recordError(*p.TaskID, err)
	}
	s.announceTask(*p.TaskID)
	return ackResult{ResultType: "complete", Meta: s.metaJSON}, nil
}

// tasksCancelAny is tasks/cancel on any replica.
func (s *Server) tasksCancelAny(ctx context.Context, p taskParams) (any, error) {
	if s.cl == nil || p.TaskID == nil {
		return s.tasksCancel(ctx, p)
	}
	if t := s.tasks.get(*p.TaskID); t != nil {
		out, err := s.tasksCancel(ctx, p)
		if err == nil {
			s.mirrorTask(t)
		}
		return out, err
	}
	_, err := s.swapOwnRecord(ctx, *p.TaskID, func(rec *taskRecord) bool {
		if isTerminal(rec.Status) {
			return false
		}
		rec.Status, rec.Message, rec.Updated, rec.Pending = TaskCancelled, "cancelled by the client", time.Now(), nil
		return true
	})
	if err != nil {
		return nil, s.recordError(*p.TaskID, err)
	}
	s.announceTask(*p.TaskID)
	return ackResult{ResultType: "complete", Meta: s.metaJSON}, nil
}

// drop removes a task whose runner never started (its record could not be
// stored).
func (st *taskStore) drop(t *task) {
	st.mu.Lock()
	delete(st.tasks, t.id)
	st.mu.Unlock()
	st.running.Done()
}
