package server

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// lostObjectCluster answers as natscluster does for a record whose
// object-store object is gone while its key stays (see natscluster
// TestLargeRecordWithLostObjectCanBeRecreated): Load says ErrTaskNotFound,
// Create says ErrTaskExists. It honours contexts, as a network store does.
type lostObjectCluster struct{ calls atomic.Int64 }

func (c *lostObjectCluster) Publish(context.Context, []byte) error                  { return nil }
func (c *lostObjectCluster) Subscribe(context.Context, func([]byte)) error          { return nil }
func (c *lostObjectCluster) Heartbeat(context.Context, string, time.Duration) error { return nil }
func (c *lostObjectCluster) Alive(context.Context, string) (bool, error)            { return true, nil }
func (c *lostObjectCluster) Ping(context.Context) error                             { return nil }
func (c *lostObjectCluster) Tasks() TaskStore                                       { return lostObjectStore{c} }

type lostObjectStore struct{ c *lostObjectCluster }

func (s lostObjectStore) Create(ctx context.Context, _ string, _ []byte, _ time.Time) error {
	s.c.calls.Add(1)
	if err := ctx.Err(); err != nil {
		return err
	}
	return ErrTaskExists
}

func (s lostObjectStore) Load(ctx context.Context, _ string) ([]byte, uint64, error) {
	s.c.calls.Add(1)
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	return nil, 0, ErrTaskNotFound
}

func (s lostObjectStore) Swap(ctx context.Context, _ string, _ []byte, _ uint64, _ time.Time) error {
	s.c.calls.Add(1)
	if err := ctx.Err(); err != nil {
		return err
	}
	return ErrTaskNotFound
}

// The owner's repair of a lost record (storeTask, run by keepTasks every
// taskStorePoll and by mirrorTask on every status change) against a store
// that answers Load ErrTaskNotFound and Create ErrTaskExists ends after a
// few rounds: README (cluster), the owner "re-creates, until the TTL, a
// record the store lost" with "retries backing off to 30 s while the store
// fails" — a repair that does not succeed must back off, not spin.
func TestStoreTaskGivesUpOnRecordGoneYetTaken(t *testing.T) {
	c := &lostObjectCluster{}
	s, err := New(Options{Name: "t", Version: "1", Cluster: c, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.leaveCluster(context.Background())
	now := time.Now()
	tk := workingTask(now)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() { _, err := s.storeTask(ctx, tk); done <- err }()
	select {
	case err := <-done:
		n := c.calls.Load()
		if n > 20 {
			t.Fatalf("storeTask made %d store calls in %v before its context ended (%v): a busy loop, no back-off", n, 300*time.Millisecond, err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("storeTask did not return 5 s after its context ended")
	}
}

// keepTasks looks again at a task whose record the store answers
// inconsistently about only after a wait that grows, and goes on with the
// other tasks of its pass meanwhile (no pass error: the store works).
func TestKeepPassBacksOffATaskTheStoreAnswersInconsistently(t *testing.T) {
	c := &lostObjectCluster{}
	s, err := New(Options{Name: "t", Version: "1", Cluster: c, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	s.leaveCluster(context.Background()) // its own keepTasks stopped, the test runs the passes
	tk := workingTask(time.Now())
	tk.recorded = true
	s.tasks.mu.Lock()
	s.tasks.tasks = map[string]*task{tk.id: tk}
	s.tasks.mu.Unlock()
	sched := keepSchedule{later: map[string]time.Time{}, backoff: map[string]time.Duration{}}
	if err := s.keepPass(t.Context(), &sched); err != nil {
		t.Fatalf("keepPass: %v, want nil (one record, not the store, is at fault)", err)
	}
	first := c.calls.Load()
	if err := s.keepPass(t.Context(), &sched); err != nil || c.calls.Load() != first {
		t.Fatalf("second pass at once: %v, %d store calls, want none", err, c.calls.Load()-first)
	}
	if w := sched.backoff[tk.id]; w < 2*taskStorePoll {
		t.Fatalf("back-off %v, want at least %v", w, 2*taskStorePoll)
	}
	sched.later[tk.id] = time.Now()
	_ = s.keepPass(t.Context(), &sched)
	if w := sched.backoff[tk.id]; w < 4*taskStorePoll {
		t.Fatalf("back-off after a second failure %v, want it doubled", w)
	}
}

func workingTask(now time.Time) *task {
	return &task{id: strings.Repeat("ab", 16), status: TaskWorking, created: now, updated: now,
		expires: now.Add(time.Hour), ttl: time.Hour, cancel: func() {}, wake: make(chan struct{}, 1)}
}
