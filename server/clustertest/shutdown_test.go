package clustertest

import (
	"context"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/server"
)

// The owner's write of a task's final status fails (a store blip), and
// the owner is shut down before its next pass over its tasks (a rolling
// deploy: SIGTERM drains). README ("Running several replicas"): the owner
// "writes again a change whose write failed", and Shutdown "drains the
// server in the order that loses no answer": leaving the cluster writes
// the failed change once more, so another replica reports the task
// completed, not failed once the owner's heartbeat lapses. Every Swap
// fails until Shutdown begins, so no pass of the owner's can store the
// status before it: only Shutdown's own write can.
func TestShutdownStoresFinalStatusWhoseWriteFailed(t *testing.T) {
	m := NewMemory()
	ga, gb := &gated{Cluster: m}, &gated{Cluster: m}
	toolA, release, returned := releasable()
	toolB, _, _ := releasable()
	a := newReplica(t, ga, toolA)
	b := newReplica(t, gb, toolB)
	id, _ := callOK(t, a, "tools/call", `"name":"job","arguments":{}`)["taskId"].(string)
	ga.failSwapWhile = func() bool { return a.Ready(context.Background()) == nil }
	close(release)
	<-returned
	for deadline := time.Now().Add(2 * time.Second); ga.swapsFailed.Load() == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the owner never tried to write the final status")
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if err := a.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	var status any
	for deadline := time.Now().Add(6 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		status = callOK(t, b, "tasks/get", `"taskId":"`+id+`"`)["status"]
		if status == server.TaskCompleted {
			return
		}
		if status == server.TaskFailed {
			break
		}
	}
	t.Fatalf("the task the owner completed before it shut down reads %v on another replica, want completed (its result)", status)
}
