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
// keepMaxBackoff.

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
	settled := map[string]time.Time{} // finished tasks whose record agrees: when to look again
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		}
		if err := s.keepPass(ctx, settled); err != nil {
			wait = min(2*wait, keepMaxBackoff)
			s.logger.Warn("cluster: the task store fails; trying again", "in", wait, "err", err)
		} else {
			wait = taskStorePoll
		}
		timer.Reset(wait)
	}
}

// keepPass looks at each task due; it stops at the first store error.
func (s *Server) keepPass(ctx context.Context, settled map[string]time.Time) error {
	held := s.tasks.recorded()
	live := make(map[string]bool, len(held))
	for _, t := range held {
		live[t.id] = true
		if at, ok := settled[t.id]; ok && time.Now().Before(at) {
			continue
		}
		delete(settled, t.id)
		done, err := s.keepTask(ctx, t)
		if err != nil {
			return err
		}
		if done {
			settled[t.id] = time.Now().Add(finishedTaskCheck)
		}
	}
	for id := range settled {
		if !live[id] {
			delete(settled, id)
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
