package server

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"
)

// hungPublishCluster is a backend whose Publish hangs until its context
// ends (a partitioned network); the rest works.
type hungPublishCluster struct{ lostObjectCluster }

func (*hungPublishCluster) Publish(ctx context.Context, _ []byte) error {
	<-ctx.Done()
	return ctx.Err()
}

// Shutdown leaves the cluster within its context (and stopAfter past it):
// changes still queued for a backend that hangs are dropped, at most once
// like any change, rather than sent one 5 s timeout after the other long
// after Shutdown returned, the replica beating all along.
func TestShutdownDropsChangesAHungBackendCannotTake(t *testing.T) {
	s, err := New(Options{Name: "t", Version: "1", Cluster: &hungPublishCluster{},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	for range 100 {
		s.ResourceUpdated("file:///watched")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_ = s.Shutdown(ctx)
	select {
	case <-s.cl.sent:
	case <-time.After(s.lim.stopAfter + 2*time.Second):
		t.Fatal("the changes queued for a hung backend are still being sent after Shutdown returned")
	}
	select {
	case <-s.cl.beaten:
	case <-time.After(time.Second):
		t.Fatal("the replica still beats after Shutdown returned")
	}
}
