package clustertest

import (
	"context"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/server"
)

// The store loses every key (a Redis restart without persistence) while a
// task runs on replica A, which re-creates the record at its next write
// (here the task asks for input). A renews its heartbeat before: a
// tasks/get on replica B as soon as the record is back must not find a
// live record whose replica is not alive, which would mark the task
// failed for good and cancel A's tool (README: a task reads failed only
// when its replica died, no heartbeat for 4 s).
func TestLiveTaskIsNotOrphanedAfterStoreLosesItsKeys(t *testing.T) {
	m := NewMemory()
	ask := make(chan struct{})
	job := server.NewTool(server.ToolInfo{Name: "job", TaskSupport: server.TaskSupportRequired},
		func(ctx context.Context, _ struct{}) (string, error) {
			select {
			case <-ask:
			case <-ctx.Done():
				return "", ctx.Err()
			}
			if _, err := server.Ask(ctx, "name", askName()); err != nil {
				return "", err
			}
			return "done", nil
		})
	a, b := newReplica(t, m, job), newReplica(t, m, job)
	id, _ := callOK(t, a, "tools/call", `"name":"job","arguments":{}`)["taskId"].(string)
	m.mu.Lock()
	clear(m.tasks)
	clear(m.beats)
	m.mu.Unlock()
	close(ask)
	for deadline := time.Now().Add(3 * time.Second); ; time.Sleep(time.Millisecond) {
		m.mu.Lock()
		_, back := m.tasks[id]
		m.mu.Unlock()
		if back {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("A did not re-create the record")
		}
	}
	got := callOK(t, b, "tasks/get", `"taskId":"`+id+`"`)
	if got["status"] != server.TaskInputRequired && got["status"] != server.TaskWorking {
		t.Fatalf("replica B, once A re-created the record the store lost: status %v (%v); want input_required", got["status"], got["statusMessage"])
	}
}
