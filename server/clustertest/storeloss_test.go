package clustertest

import (
	"context"
	"sync/atomic"
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

// gapLink is replica B's connection to a store that lost its keys (a
// Redis restart without persistence): its next task read lands in the gap
// before the owner, replica A, re-creates the record (A looks at its
// records every taskStorePoll, so the gap lasts up to a second).
type gapLink struct {
	server.Cluster
	gone atomic.Bool
}

func (l *gapLink) Tasks() server.TaskStore { return gapStore{l.Cluster.Tasks(), l} }

type gapStore struct {
	server.TaskStore
	l *gapLink
}

func (s gapStore) Load(ctx context.Context, id string) ([]byte, uint64, error) {
	if s.l.gone.CompareAndSwap(true, false) {
		return nil, 0, server.ErrTaskNotFound
	}
	return s.TaskStore.Load(ctx, id)
}

// README (cluster): the owner "re-creates, until the TTL, a record the
// store lost (Redis restarted without persistence ...)", and a listen
// stream re-reads its tasks every 4 s; "only a task found gone (expired)
// is no longer reported". A task whose record a stream on another replica
// read while the store had lost it (not expired: its owner is alive and
// re-creates it) is read again until its expiry, and its completion is
// reported.
func TestListenStreamKeepsTaskTheStoreLostForAMoment(t *testing.T) {
	m := NewMemory()
	link := &gapLink{Cluster: m}
	toolA, release, _ := releasable()
	toolB, _, _ := releasable()
	a := newReplica(t, m, toolA)
	b := newReplica(t, link, toolB)
	id, _ := callOK(t, a, "tools/call", `"name":"job","arguments":{}`)["taskId"].(string)
	r := &replicas{servers: []*server.Server{a, b}}
	st := r.listen(t, 1, `{"taskIds":["`+id+`"]}`)
	st.nextStatus(t, id, server.TaskWorking, 5*time.Second)
	link.gone.Store(true)
	close(release)
	st.nextStatus(t, id, server.TaskCompleted, heartbeatTTL+2*time.Second)
}
