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
// taskStorePoll and by mirrorTask on every status change) loops Load →
// ErrTaskNotFound → Create → ErrTaskExists with no pause and no bound but
// the task's expiry: a busy loop of store round trips for as long as the
// task lives (hours with a long TTL), holding up keepTasks for every other
// task and the tool goroutine that called mirrorTask. README (cluster): the
// owner "writes again a change whose write failed (... retries backing off
// to 30 s while the store fails) and re-creates, until the TTL, a record
// the store lost" — a repair that does not succeed must back off, not spin.
func TestStoreTaskDoesNotSpinOnLoadNotFoundCreateExists(t *testing.T) {
	c := &lostObjectCluster{}
	s, err := New(Options{Name: "t", Version: "1", Cluster: c, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.leaveCluster()
	now := time.Now()
	tk := &task{id: strings.Repeat("ab", 16), status: TaskWorking, created: now, updated: now,
		expires: now.Add(time.Hour), ttl: time.Hour, cancel: func() {}, wake: make(chan struct{}, 1)}
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
