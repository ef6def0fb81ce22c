package clustertest

import (
	"context"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/server"
)

// The owner's write of a task's final status fails once (a store blip)
// just before the owner is shut down (a rolling deploy: SIGTERM drains).
// README ("Running several replicas"): the owner "writes again a change
// whose write failed (a store blip or failover: other replicas see the
// task end within seconds ...)", and Shutdown "drains the server in the
// order that loses no answer". Shutdown instead waits for the task, then
// leaves the cluster (stopping the pass that writes the status again)
// without trying the failed write once more: the record stays "working",
// and once the owner's heartbeat lapses every other replica reports the
// completed task as failed ("the replica running this task stopped before
// it finished") — the tool's result is lost.
func TestShutdownKeepsFinalStatusWhoseWriteFailed(t *testing.T) {
	m := NewMemory()
	ga, gb := &gated{Cluster: m}, &gated{Cluster: m}
	toolA, release, returned := releasable()
	toolB, _, _ := releasable()
	a := newReplica(t, ga, toolA)
	b := newReplica(t, gb, toolB)
	id, _ := callOK(t, a, "tools/call", `"name":"job","arguments":{}`)["taskId"].(string)
	ga.failSwap.Store(true)
	close(release)
	<-returned
	for deadline := time.Now().Add(2 * time.Second); ga.failSwap.Load(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the owner never wrote the final status")
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
