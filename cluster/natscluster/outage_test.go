package natscluster

import (
	"context"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/server"
)

// NATS is unreachable for a while (a restart, a network partition; nats.go
// reconnects for ever): each change a replica publishes then waits out the
// 5 s flush deadline, so its queue of 1024 changes fills, and from then on
// every Server.ResourceUpdated (and AddTools, RemoveTools, ...) of the
// application blocks about 5 s, call after call, for as long as the outage
// lasts — although the change is for the other replicas only (the
// replica's own listen streams were told already) and the README says the
// changes travel at most once ("pub/sub is at most once"), so nothing asks
// the application to wait for a backend that is down.
func TestResourceUpdatedDoesNotBlockWhileNATSIsDown(t *testing.T) {
	ns := startNATSAt(t, -1)
	c := connect(t, ns.ClientURL())
	a, err := server.New(server.Options{Name: "r", Version: "1", Cluster: c,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		_ = a.Shutdown(ctx)
	})
	ns.Shutdown()
	ns.WaitForShutdown()
	for deadline := time.Now().Add(2 * time.Second); c.nc.IsConnected(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the client did not notice NATS was gone")
		}
	}
	done := make(chan int, 1)
	var returned atomic.Int64
	go func() {
		for i := range 1100 {
			a.ResourceUpdated("file:///watched")
			returned.Add(1)
			if i == 1099 {
				done <- i
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		t.Fatalf("%d of 1100 ResourceUpdated calls returned after 2 s while NATS is down: the application blocks on the cluster's outbox", returned.Load())
	}
}
