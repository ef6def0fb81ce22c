package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// Task status notifications of the tasks extension (ext-tasks
// specification/2026-07-28/tasks.md, "Task Status Notifications"): a
// subscriptions/listen whose notifications filter lists taskIds is sent
// notifications/tasks, each a complete DetailedTask (what tasks/get would
// answer at that moment, without resultType), whenever one of those tasks
// changes status. The acknowledgement lists the ids granted: the tasks that
// exist and belong to the caller (another principal's task is unknown, as
// for tasks/get). A listen that asks for taskIds without declaring the
// extension is -32021; on a server that serves no tasks (no tool supports
// them, no cluster) taskIds is omitted from the acknowledgement.
//
// Each granted task's state is sent once right after the acknowledgement,
// so a change between the CreateTaskResult and the listen is not missed;
// then on each status change: task.setStatus tells the streams of this
// replica (taskStatusChanged), and in a cluster every replica hears the
// ChangeTask the writer of the record publishes (deliverRemote). A task
// that reached a terminal status is sent once and then no more. In a
// cluster a stream also re-reads, every heartbeatTTL, the record of each
// watched task another replica runs: a status whose ChangeTask message was
// lost (pub/sub is at most once) is sent then, and a task whose owner died
// is marked failed with the reason (as tasks/get would) and sent. A read
// that fails (a store blip) is made again a taskStorePoll later; only a
// task found gone (expired) is given up. A task not found before the
// expiry the stream last read for it is one the store lost for a moment
// (Redis restarted without persistence: its owner re-creates the record):
// it is read again at each taskStorePoll until that expiry.

const (
	filterTaskIDs            = "taskIds"
	methodNotificationsTasks = "notifications/tasks"
	// maxListenTaskIDs bounds the taskIds of one listen request.
	maxListenTaskIDs = 256
)

// taskStatusChanged tells this replica's listen streams that task id
// changed status.
func (s *Server) taskStatusChanged(id string) { s.subs.publish(changeTask, id) }

// announceTask tells every replica's streams (this one's included) that a
// task record this replica changed has a new status.
func (s *Server) announceTask(id string) {
	s.broadcast(ChangeTask, "", id)
	s.taskStatusChanged(id)
}

// listenTasks returns the task ids of a listen filter the server agrees to
// report on. A server that serves no tasks does not support
// notifications/tasks: taskIds is left out of the acknowledgement like any
// other notification type it does not support (subscriptions.mdx), not
// refused for an extension it does not offer.
func (s *Server) listenTasks(ctx context.Context, f mcp.SubscriptionFilter) ([]string, error) {
	raw, ok := f.Extra[filterTaskIDs]
	if !ok || !s.servesTasks() {
		return nil, nil
	}
	var ids []string
	if err := json.Unmarshal(raw, &ids); err != nil {
		return nil, invalidParams("params.notifications.taskIds: must be an array of task id strings")
	}
	if len(ids) > maxListenTaskIDs {
		return nil, invalidParams(fmt.Sprintf("params.notifications.taskIds: %d ids, at most %d per listen", len(ids), maxListenTaskIDs))
	}
	if len(ids) == 0 {
		return nil, nil
	}
	if err := RequireCapabilities(ctx, tasksCapability()); err != nil {
		return nil, err
	}
	granted := make([]string, 0, len(ids))
	seen := make(map[string]bool, len(ids))
	for _, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		if s.taskVisible(ctx, id) {
			granted = append(granted, id)
		}
	}
	return granted, nil
}

// taskVisible reports whether task id exists (here or in the cluster's
// store), belongs to the caller and its tool's scopes are granted.
func (s *Server) taskVisible(ctx context.Context, id string) bool {
	if t := s.tasks.get(id); t != nil {
		return t.ownedBy(ctx) && allowed(ctx, t.scopes())
	}
	if s.cl == nil {
		return false
	}
	rec, _, err := s.loadOwnRecord(ctx, id)
	return err == nil && allowed(ctx, rec.Scopes)
}

// taskWatch is what one stream has sent of each watched task.
type taskWatch struct {
	last  map[string]string // task id → status and lastUpdatedAt last sent
	final map[string]bool   // sent terminal, or gone
	retry map[string]bool   // its last read failed: read again at the next tick
	// expires is each task's expiry as last read: a task not found
	// before it was lost by the store, not gone.
	expires map[string]time.Time
	ticks   int // taskRecheck ticks so far
}

func newTaskWatch(ids []string) *taskWatch {
	return &taskWatch{
		last:    make(map[string]string, len(ids)),
		final:   map[string]bool{},
		retry:   map[string]bool{},
		expires: make(map[string]time.Time, len(ids)),
	}
}

// open returns the watched tasks not yet final.
func (w *taskWatch) open() []string {
	var ids []string
	for id := range w.last {
		if !w.final[id] {
			ids = append(ids, id)
		}
	}
	return ids
}

// sendTaskStatus sends task id's current state on the stream unless it is
// what was sent last. Only a task found gone is given up; one whose read
// failed (a store blip) is read again at the stream's next tick.
func (s *Server) sendTaskStatus(ctx context.Context, r *request, tag []byte, w *taskWatch, id string) error {
	if w.final[id] {
		return nil
	}
	snap, expires, err := s.taskSnapshot(ctx, id, tag)
	if err != nil {
		w.taskReadFailed(id, err)
		return nil
	}
	return s.sendSnapshot(r, w, id, snap, expires)
}

// taskReadFailed records a failed read of task id: gone (ErrTaskNotFound
// once the expiry last read has passed, or with none read) is final; not
// found before that expiry (the store lost the record, which its owner
// re-creates) and any other error are tried again.
func (w *taskWatch) taskReadFailed(id string, err error) {
	if errors.Is(err, ErrTaskNotFound) && !time.Now().Before(w.expires[id]) {
		w.final[id] = true // nothing more will come
		delete(w.retry, id)
		return
	}
	w.retry[id] = true
}

// sendSnapshot sends snap, task id's state (expiring at expires), unless
// it is what was sent last.
func (s *Server) sendSnapshot(r *request, w *taskWatch, id string, snap taskWire, expires time.Time) error {
	delete(w.retry, id)
	w.expires[id] = expires
	key := snap.Status + "|" + snap.LastUpdatedAt
	if prev, sent := w.last[id]; sent && prev == key {
		return nil
	}
	w.last[id] = key
	if isTerminal(snap.Status) {
		w.final[id] = true
	}
	body, err := json.Marshal(&snap)
	if err != nil {
		return err
	}
	return r.w.Notify(methodNotificationsTasks, json.RawMessage(body))
}

// taskSnapshot is the DetailedTask of id as notifications/tasks carries it
// (meta is its _meta), from the task this replica runs or the cluster's
// record, and its expiry; ErrTaskNotFound when it is gone.
func (s *Server) taskSnapshot(ctx context.Context, id string, meta json.RawMessage) (taskWire, time.Time, error) {
	var w taskWire
	var expires time.Time
	if t := s.tasks.get(id); t != nil {
		w, expires = t.wire(true, meta), t.expires
	} else if s.cl != nil {
		rec, _, err := s.loadRecord(ctx, id)
		if err != nil {
			return taskWire{}, time.Time{}, err
		}
		w, expires = rec.wire(id, meta), rec.Expires
	} else {
		return taskWire{}, time.Time{}, ErrTaskNotFound
	}
	w.ResultType = ""
	return w, expires, nil
}

// taskRecheck returns the channel that paces a stream's re-reads of its
// watched tasks (nil, which never fires, without a cluster or tasks) and
// its stop function.
func (s *Server) taskRecheck(ids []string) (<-chan time.Time, func()) {
	if s.cl == nil || len(ids) == 0 {
		return nil, func() {}
	}
	tick := time.NewTicker(taskStorePoll)
	return tick.C, tick.Stop
}

// recheckTasks runs at each taskRecheck tick: it reads again the tasks
// whose last read failed and, every heartbeatTTL, every watched task of
// another replica (checkTask).
func (s *Server) recheckTasks(ctx context.Context, r *request, tag []byte, w *taskWatch) error {
	w.ticks++
	if w.ticks%int(heartbeatTTL/taskStorePoll) != 0 {
		for id := range w.retry {
			if err := s.sendTaskStatus(ctx, r, tag, w, id); err != nil {
				return err
			}
		}
		return nil
	}
	for _, id := range w.open() {
		if s.tasks.get(id) != nil {
			delete(w.retry, id)
			continue // this replica runs it: its changes reach the stream here
		}
		if err := s.checkTask(ctx, r, tag, w, id); err != nil {
			return err
		}
	}
	return nil
}

// checkTask re-reads the record of a watched task of another replica:
// a task whose owner is no longer alive is marked failed (and announced),
// and a status the stream has not sent — its ChangeTask message was lost
// (pub/sub is at most once) — is sent now.
func (s *Server) checkTask(ctx context.Context, r *request, tag []byte, w *taskWatch, id string) error {
	rec, _, err := s.loadRecord(ctx, id)
	if err != nil {
		w.taskReadFailed(id, err)
		return nil
	}
	if !isTerminal(rec.Status) && rec.Replica != s.cl.replica {
		actx, cancel := context.WithTimeout(ctx, clusterTimeout)
		alive, err := s.cl.c.Alive(actx, rec.Replica)
		cancel()
		if err == nil && !alive {
			if failed, err := s.orphaned(ctx, id); err == nil {
				rec = failed
				s.announceTask(id)
			}
		}
	}
	snap := rec.wire(id, tag)
	snap.ResultType = ""
	return s.sendSnapshot(r, w, id, snap, rec.Expires)
}
