package clustertest

import (
	"context"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/server"
)

// hungPublish is a backend whose Publish hangs until its context ends (a
// partitioned network: a Redis dial timing out, a NATS flush unanswered).
type hungPublish struct{ server.Cluster }

func (hungPublish) Publish(ctx context.Context, _ []byte) error {
	<-ctx.Done()
	return ctx.Err()
}

// README: the changes between replicas travel at most once, and the
// application's AddTools, RemoveTools, ResourceUpdated, … never wait for
// the backend: with Publish hanging, once the queue of 1024 changes is
// full each further change is dropped at once, not held ~5 s (one
// publish's timeout), call after call, for as long as the backend hangs.
func TestResourceUpdatedDoesNotBlockOnAHungBackend(t *testing.T) {
	a, err := server.New(server.Options{Name: "r", Version: "1", Cluster: hungPublish{NewMemory()},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		_ = a.Shutdown(ctx)
	})
	var returned atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 1100 {
			a.ResourceUpdated("file:///watched")
			returned.Add(1)
		}
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		t.Fatalf("%d of 1100 ResourceUpdated calls returned after 2 s while Publish hangs: the application blocks on the cluster's queue", returned.Load())
	}
}
