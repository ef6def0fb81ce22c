package clustertest

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/server"
)

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
// re-creates it) is given up for good: its completion is never reported.
func TestAttackListenStreamGivesUpTaskTheStoreLostForAMoment(t *testing.T) {
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
