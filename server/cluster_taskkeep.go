package server

import (
	"context"
	"errors"
	"time"
)

// The owner keeps its tasks' records (cluster). Messages between replicas
// are at most once, a store may refuse a write for a moment (a blip, a
// failover) and may lose its records (a Redis restart without
// persistence); so every taskStorePoll the owner compares each task it
// holds with its record: it takes what other replicas wrote should their
// ChangeTask have been lost (a cancellation stops the tool), writes again
// a change of its own whose write failed (a final status above all), and
// re-creates a record the store lost while the task lives. A finished
// task whose record agrees is looked at again every finishedTaskCheck
// only. While the store fails, the passes come further apart, up to
// keepMaxBackoff; a task whose record the store answers inconsistently
// about (gone to Load, taken to Create) is looked at further apart alone.

const (
	finishedTaskCheck = 10 * time.Second
	keepMaxBackoff    = 30 * time.Second
)

// keepTasks runs the owner's passes over its tasks until ctx ends.
func (s *Server) keepTasks(ctx context.Context) {
	defer close(s.cl.kept)
	wait := taskStorePoll
	timer := time.NewTimer(wait)
	defer timer.Stop()
	sched := keepSchedule{later: map[string]time.Time{}, backoff: map[string]time.Duration{}}
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		}
		if err := s.keepPass(ctx, &sched); err != nil {
			wait = min(2*wait, keepMaxBackoff)
			s.logger.Warn("cluster: the task store fails; trying again", "in", wait, "err", err)
		} else {
			wait = taskStorePoll
		}
		timer.Reset(wait)
	}
}

// keepSchedule is what keepTasks remembers of its tasks between passes.
type keepSchedule struct {
	// later holds the tasks not looked at again before a time: finished
	// ones whose record agrees, and ones the store answers inconsistently
	// about (errStoreInconsistent).
	later map[string]time.Time
	// backoff holds the latter's current wait, doubled up to
	// keepMaxBackoff while the store keeps answering so.
	backoff map[string]time.Duration
}

// keepPass looks at each task due; it stops at the first store error but
// for errStoreInconsistent, which concerns one record: that task alone is
// looked at again later, backing off, and the pass goes on.
func (s *Server) keepPass(ctx context.Context, sched *keepSchedule) error {
	held := s.tasks.recorded()
	live := make(map[string]bool, len(held))
	for _, t := range held {
		live[t.id] = true
		if at, ok := sched.later[t.id]; ok && time.Now().Before(at) {
			continue
		}
		delete(sched.later, t.id)
		done, err := s.keepTask(ctx, t)
		if errors.Is(err, errStoreInconsistent) {
			wait := min(max(2*sched.backoff[t.id], 2*taskStorePoll), keepMaxBackoff)
			sched.backoff[t.id], sched.later[t.id] = wait, time.Now().Add(wait)
			s.logger.Warn("cluster: the task store answers inconsistently about a task; trying again", "task", t.id, "in", wait, "err", err)
			continue
		}
		delete(sched.backoff, t.id)
		if err != nil {
			return err
		}
		if done {
			sched.later[t.id] = time.Now().Add(finishedTaskCheck)
		}
	}
	for id := range sched.later {
		if !live[id] {
			delete(sched.later, id)
		}
	}
	for id := range sched.backoff {
		if !live[id] {
			delete(sched.backoff, id)
		}
	}
	return nil
}

// keepTask brings one task and its record together; done reports that
// both hold the same terminal status.
func (s *Server) keepTask(ctx context.Context, t *task) (done bool, err error) {
	rec, _, err := s.loadRecord(ctx, t.id)
	switch {
	case errors.Is(err, ErrTaskNotFound):
		return false, s.rewriteTask(ctx, t)
	case err != nil:
		return false, err
	}
	s.applyRecord(t, rec)
	t.mu.Lock()
	behind, terminal := t.recordBehind(rec), t.terminal()
	t.mu.Unlock()
	if behind {
		return false, s.rewriteTask(ctx, t)
	}
	return terminal, nil
}

// rewriteTask stores a task the record of which misses it (or is gone)
// and tells the other replicas.
func (s *Server) rewriteTask(ctx context.Context, t *task) error {
	if time.Now().After(t.expires) {
		return nil
	}
	wrote, err := s.storeTask(ctx, t)
	if wrote {
		s.broadcast(ChangeTask, "", t.id)
	}
	return err
}

// recordBehind reports whether rec lacks a change of the task, once
// applyRecord has taken what rec adds: a status, or the input requests
// still pending. Callers hold t.mu.
func (t *task) recordBehind(rec *taskRecord) bool {
	if rec.Status != t.status {
		return true
	}
	if t.status != TaskInputRequired {
		return false
	}
	if len(rec.Pending) != len(t.pending) {
		return true
	}
	for key := range t.pending {
		if _, ok := rec.Pending[key]; !ok {
			return true
		}
	}
	return false
}

// flushUnstored writes once more each task whose last write failed, so
// that leaving the cluster loses no change keepTasks would have written
// (a final status: the other replicas would report the task failed once
// this replica's heartbeat lapses).
func (s *Server) flushUnstored(ctx context.Context) {
	for _, t := range s.tasks.recorded() {
		t.mu.Lock()
		unstored := t.unstored
		t.mu.Unlock()
		if !unstored {
			continue
		}
		if err := s.rewriteTask(ctx, t); err != nil {
			s.logger.Warn("cluster: leaving with a task whose record misses a change", "task", t.id, "err", err)
		}
	}
}
