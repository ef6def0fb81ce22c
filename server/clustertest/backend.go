package clustertest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/server"
)

// Backend checks the contract of a server.Cluster implementation. a and b
// must be two connections to one backend (two replicas).
func Backend(t *testing.T, a, b server.Cluster) {
	t.Run("PublishReachesSubscribersInOrder", func(t *testing.T) { backendPubSub(t, a, b) })
	t.Run("TaskRecordsCompareAndSwap", func(t *testing.T) { backendTasks(t, a, b) })
	t.Run("TaskRecordsOfAnyIDAndSize", func(t *testing.T) { backendAnyIDAndSize(t, a, b) })
	t.Run("HeartbeatsExpire", func(t *testing.T) { backendHeartbeat(t, a, b) })
	t.Run("Ping", func(t *testing.T) {
		if err := a.Ping(t.Context()); err != nil {
			t.Fatal(err)
		}
	})
}

func backendPubSub(t *testing.T, a, b server.Cluster) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var mu sync.Mutex
	var got [][]byte
	all := make(chan struct{})
	const n = 200
	if err := b.Subscribe(ctx, func(msg []byte) {
		mu.Lock()
		defer mu.Unlock()
		if bytes.HasPrefix(msg, []byte("order-")) {
			got = append(got, msg)
			if len(got) == n {
				close(all)
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if err := a.Publish(ctx, fmt.Appendf(nil, "order-%03d", i)); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case <-all:
	case <-time.After(5 * time.Second):
		mu.Lock()
		t.Fatalf("subscriber got %d of %d messages", len(got), n)
	}
	for i, msg := range got {
		if want := fmt.Sprintf("order-%03d", i); string(msg) != want {
			t.Fatalf("message %d is %q, want %q", i, msg, want)
		}
	}
}

func backendTasks(t *testing.T, a, b server.Cluster) {
	ctx := t.Context()
	id := fmt.Sprintf("contract-%d", time.Now().UnixNano())
	exp := time.Now().Add(time.Minute)
	if err := a.Tasks().Create(ctx, id, []byte(`{"v":1}`), exp); err != nil {
		t.Fatal(err)
	}
	if err := b.Tasks().Create(ctx, id, []byte(`{"v":9}`), exp); !errors.Is(err, server.ErrTaskExists) {
		t.Fatalf("second Create: %v, want ErrTaskExists", err)
	}
	rec, rev, err := b.Tasks().Load(ctx, id)
	if err != nil || string(rec) != `{"v":1}` {
		t.Fatalf("Load: %s %v", rec, err)
	}
	if err := b.Tasks().Swap(ctx, id, []byte(`{"v":2}`), rev, exp); err != nil {
		t.Fatalf("Swap: %v", err)
	}
	if err := a.Tasks().Swap(ctx, id, []byte(`{"v":3}`), rev, exp); !errors.Is(err, server.ErrTaskConflict) {
		t.Fatalf("Swap on a stale revision: %v, want ErrTaskConflict", err)
	}
	rec, rev2, err := a.Tasks().Load(ctx, id)
	if err != nil || string(rec) != `{"v":2}` || rev2 == rev {
		t.Fatalf("Load after Swap: %s rev %d (was %d) %v", rec, rev2, rev, err)
	}
	if _, _, err := a.Tasks().Load(ctx, id+"-unknown"); !errors.Is(err, server.ErrTaskNotFound) {
		t.Fatalf("Load unknown: %v, want ErrTaskNotFound", err)
	}
	if err := a.Tasks().Swap(ctx, id+"-unknown", []byte(`{}`), 1, exp); !errors.Is(err, server.ErrTaskNotFound) {
		t.Fatalf("Swap unknown: %v, want ErrTaskNotFound", err)
	}
	// Concurrent writers: every increment survives.
	const writers, each = 4, 10
	var wg sync.WaitGroup
	for w := range writers {
		c := a
		if w%2 == 1 {
			c = b
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				for {
					rec, rev, err := c.Tasks().Load(ctx, id)
					if err != nil {
						t.Error(err)
						return
					}
					next := append(append([]byte(nil), rec...), '+')
					err = c.Tasks().Swap(ctx, id, next, rev, exp)
					if errors.Is(err, server.ErrTaskConflict) {
						continue
					}
					if err != nil {
						t.Error(err)
						return
					}
					break
				}
			}
		}()
	}
	wg.Wait()
	rec, _, _ = a.Tasks().Load(ctx, id)
	if got := bytes.Count(rec, []byte("+")); got != writers*each {
		t.Errorf("%d of %d compare-and-swap increments kept", got, writers*each)
	}
}

func backendHeartbeat(t *testing.T, a, b server.Cluster) {
	ctx := t.Context()
	replica := fmt.Sprintf("contract-replica-%d", time.Now().UnixNano())
	if alive, err := b.Alive(ctx, replica); err != nil || alive {
		t.Fatalf("Alive before any heartbeat: %v %v", alive, err)
	}
	if err := a.Heartbeat(ctx, replica, time.Second); err != nil {
		t.Fatal(err)
	}
	if alive, err := b.Alive(ctx, replica); err != nil || !alive {
		t.Fatalf("Alive after a heartbeat: %v %v", alive, err)
	}
	time.Sleep(1500 * time.Millisecond)
	if alive, err := b.Alive(ctx, replica); err != nil || alive {
		t.Fatalf("Alive after its ttl: %v %v", alive, err)
	}
	// A heartbeat with ttl 0 is younger than its ttl never: not alive
	// (not "no expiry", as a Redis SET without one would mean).
	if err := a.Heartbeat(ctx, replica, time.Minute); err != nil {
		t.Fatal(err)
	}
	if err := a.Heartbeat(ctx, replica, 0); err != nil {
		t.Fatal(err)
	}
	if alive, err := b.Alive(ctx, replica); err != nil || alive {
		t.Fatalf("Alive after a heartbeat with ttl 0: %v %v", alive, err)
	}
}
