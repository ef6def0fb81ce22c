package clustertest

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/server"
)

// hungSwaps is a backend whose task Swaps hang until their context ends
// once hang is set (a store partitioned during the drain); it counts the
// heartbeats.
type hungSwaps struct {
	server.Cluster
	hang  atomic.Bool
	beats atomic.Int64
}

func (h *hungSwaps) Heartbeat(ctx context.Context, replica string, ttl time.Duration) error {
	h.beats.Add(1)
	return h.Cluster.Heartbeat(ctx, replica, ttl)
}

func (h *hungSwaps) Tasks() server.TaskStore { return hungSwapTasks{h.Cluster.Tasks(), h} }

type hungSwapTasks struct {
	server.TaskStore
	h *hungSwaps
}

func (s hungSwapTasks) Swap(ctx context.Context, id string, rec []byte, rev uint64, exp time.Time) error {
	if s.h.hang.Load() {
		<-ctx.Done()
		return ctx.Err()
	}
	return s.TaskStore.Swap(ctx, id, rec, rev, exp)
}

// README (Graceful shutdown): Shutdown lets tasks finish, cancels the rest
// marking them failed, and "with a cluster it then writes once more each
// task record whose last write failed (within the grace, or the moment
// past its end that Shutdown waits for the answers) ... and leaves the
// cluster". With the store hanging, the cancelled task's final write
// (mirrorTask, on context.Background, bounded by the 5 s cluster timeout
// only) holds tasks.wait past Shutdown's return, so leaving the cluster —
// the last writes, the end of the heartbeat — happens after Shutdown has
// returned: the replica goes on beating (others take it for alive) and
// writing seconds after the application was told it had shut down.
func TestShutdownLeavesTheClusterBeforeItReturnsWhenTheStoreHangs(t *testing.T) {
	h := &hungSwaps{Cluster: NewMemory()}
	job := server.NewTool(server.ToolInfo{Name: "job", TaskSupport: server.TaskSupportRequired},
		func(ctx context.Context, _ struct{}) (string, error) { <-ctx.Done(); return "", ctx.Err() })
	a := newReplica(t, h, job)
	callOK(t, a, "tools/call", `"name":"job","arguments":{}`)
	h.hang.Store(true)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_ = a.Shutdown(ctx)
	after := h.beats.Load()
	time.Sleep(2500 * time.Millisecond)
	if n := h.beats.Load() - after; n > 0 {
		t.Fatalf("%d heartbeats within 2.5 s after Shutdown returned: the replica had not left the cluster", n)
	}
}
