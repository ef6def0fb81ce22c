package rediscluster

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/server"
)

// blipCluster is a Redis Cluster whose next task Load fails once armed,
// as a Redis command fails on a connection reset, a timeout or a
// failover.
type blipCluster struct {
	*Cluster
	armed atomic.Bool
}

func (b *blipCluster) Tasks() server.TaskStore { return blipStore{b.Cluster.Tasks(), b} }

type blipStore struct {
	server.TaskStore
	b *blipCluster
}

func (s blipStore) Load(ctx context.Context, id string) ([]byte, uint64, error) {
	if s.b.armed.CompareAndSwap(true, false) {
		return nil, 0, errors.New("read unix ->redis.sock: read: connection reset by peer")
	}
	return s.TaskStore.Load(ctx, id)
}

type notes chan [2]string

func (n notes) Notify(method string, params any) error {
	b, _ := json.Marshal(params)
	n <- [2]string{method, string(b)}
	return nil
}

// README ("Running several replicas"): "A listen stream that names tasks
// … gets notifications/tasks — the whole task, as tasks/get would answer —
// on whichever replica it is open, each time one of them changes status",
// and a store blip is written again / retried. On replica B, the read of
// the record that follows a ChangeTask fails once (one Redis command
// fails); B's stream must not take the task for gone (only
// ErrTaskNotFound means that) but read it again a second later and report
// it completed.
func TestListenStreamReadsTaskAgainAfterStoreError(t *testing.T) {
	url := startRedis(t)
	release := make(chan struct{})
	mk := func(c server.Cluster) *server.Server { return jobServer(t, c, release) }
	bc := &blipCluster{Cluster: connect(t, url)}
	a, b := mk(connect(t, url)), mk(bc)
	res, rpcErr := callTask(t, a, "tools/call", `"name":"job","arguments":{}`)
	id, _ := res["taskId"].(string)
	if rpcErr != nil || id == "" {
		t.Fatalf("tools/call: %v %v", res, rpcErr)
	}
	st := make(notes, 64)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		msg := `{"jsonrpc":"2.0","id":"listen","method":"subscriptions/listen","params":{"_meta":` + taskMeta + `,"notifications":{"taskIds":["` + id + `"]}}}`
		b.HandleBytes(ctx, []byte(msg), st)
	}()
	t.Cleanup(func() { cancel(); <-done })
	next := func(d time.Duration) ([2]string, bool) {
		select {
		case n := <-st:
			return n, true
		case <-time.After(d):
			return [2]string{}, false
		}
	}
	if n, ok := next(5 * time.Second); !ok || n[0] != "notifications/subscriptions/acknowledged" {
		t.Fatalf("listen: %v", n)
	}
	if n, ok := next(5 * time.Second); !ok || n[0] != "notifications/tasks" {
		t.Fatalf("first task status: %v", n)
	}
	bc.armed.Store(true)
	close(release) // completes on A; B hears the ChangeTask and reads the record
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); {
		n, ok := next(time.Until(deadline))
		if !ok {
			break
		}
		var m map[string]any
		_ = json.Unmarshal([]byte(n[1]), &m)
		if m["status"] == server.TaskCompleted {
			return
		}
	}
	got, _ := callTask(t, b, "tasks/get", `"taskId":"`+id+`"`)
	t.Fatalf("the listen stream on B never reported the task completed after one failed store read (tasks/get on B says %v; the failed read was consumed: %v)", got["status"], !bc.armed.Load())
}
