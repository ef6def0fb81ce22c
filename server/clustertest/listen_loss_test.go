package clustertest

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/server"
)

// lossyLink is a replica's connection to the cluster that, when told,
// drops the messages it would deliver (pub/sub is at most once) or fails
// its next task read (a store blip), whatever the backend.
type lossyLink struct {
	server.Cluster
	deaf     atomic.Bool
	failRead atomic.Bool
}

func (l *lossyLink) Subscribe(ctx context.Context, deliver func([]byte)) error {
	return l.Cluster.Subscribe(ctx, func(msg []byte) {
		if !l.deaf.Load() {
			deliver(msg)
		}
	})
}

func (l *lossyLink) Tasks() server.TaskStore { return lossyStore{l.Cluster.Tasks(), l} }

type lossyStore struct {
	server.TaskStore
	l *lossyLink
}

func (s lossyStore) Load(ctx context.Context, id string) ([]byte, uint64, error) {
	if s.l.failRead.CompareAndSwap(true, false) {
		return nil, 0, errors.New("clustertest: connection reset")
	}
	return s.TaskStore.Load(ctx, id)
}

// lossyListen runs a task on replica A and a listen on replica B (behind
// link) naming it, until its first status; it returns the stream, the
// task id and the function that completes the task.
func lossyListen(t *testing.T, link *lossyLink, m *Memory) (*stream, string, func()) {
	toolA, release, _ := releasable()
	toolB, _, _ := releasable()
	a := newReplica(t, m, toolA)
	b := newReplica(t, link, toolB)
	id, _ := callOK(t, a, "tools/call", `"name":"job","arguments":{}`)["taskId"].(string)
	r := &replicas{servers: []*server.Server{a, b}}
	st := r.listen(t, 1, `{"taskIds":["`+id+`"]}`)
	st.nextStatus(t, id, server.TaskWorking, 5*time.Second)
	return st, id, func() { close(release) }
}

// A read of the record after a ChangeTask fails once (a store blip): the
// stream reads it again at its next tick (taskStorePoll, 1 s) and reports
// the completion, instead of taking the task for gone.
func TestListenStreamReadsTaskAgainAfterStoreError(t *testing.T) {
	m := NewMemory()
	link := &lossyLink{Cluster: m}
	st, id, complete := lossyListen(t, link, m)
	link.failRead.Store(true)
	complete()
	st.nextStatus(t, id, server.TaskCompleted, 3*time.Second)
}

// The ChangeTask of the completion never reaches replica B: its stream
// reports the completion at its next re-read of the record (every
// heartbeatTTL, 4 s).
func TestListenStreamReportsStatusWhoseMessageWasLost(t *testing.T) {
	m := NewMemory()
	link := &lossyLink{Cluster: m}
	st, id, complete := lossyListen(t, link, m)
	link.deaf.Store(true)
	complete()
	st.nextStatus(t, id, server.TaskCompleted, heartbeatTTL+2*time.Second)
}
