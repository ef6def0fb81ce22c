package clustertest

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/mcpgen/mcpgen/server"
)

// An id of a form no replica generates (any client can send one: 5000
// characters, or characters a backend's keys refuse) is an unknown task on
// every replica — tasks/get, tasks/update and tasks/cancel answer -32602,
// a listen does not grant it — and the task store is never asked for it.
func TestForeignTaskIDIsUnknownWithoutStoreLookup(t *testing.T) {
	m, seen := NewMemory(), &loadLog{}
	r := newReplicas(t, func(testing.TB) server.Cluster { return seenCluster{m, seen} }, 2)
	mine := r.createTask(t, 0, "quick_task")
	for _, id := range []string{strings.Repeat("a", 5000), "no such task", "ABCDEF0123456789ABCDEF0123456789", mine + "0"} {
		quoted, _ := json.Marshal(id)
		for _, call := range []struct{ method, params string }{
			{"tasks/get", `"taskId":` + string(quoted)},
			{"tasks/update", `"taskId":` + string(quoted) + `,"inputResponses":{}`},
			{"tasks/cancel", `"taskId":` + string(quoted)},
		} {
			msg := `{"jsonrpc":"2.0","id":1,"method":"` + call.method + `","params":{"_meta":` + meta + `,` + call.params + `}}`
			var resp struct {
				Error *struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			body := r.servers[1].HandleBytes(t.Context(), []byte(msg), nil).Body
			if err := json.Unmarshal(body, &resp); err != nil || resp.Error == nil || resp.Error.Code != -32602 || !strings.Contains(resp.Error.Message, "Unknown task") {
				t.Errorf("%s of a %d-character id: %s, want -32602 Unknown task", call.method, len(id), body)
			}
		}
		_, ack := r.listenAck(t, 1, `{"taskIds":[`+string(quoted)+`,"`+mine+`"]}`)
		if strings.Contains(string(ack.params), string(quoted)) || !strings.Contains(string(ack.params), mine) {
			t.Errorf("listen on %d-character id and a task's: acknowledged %s, want only the task's", len(id), ack.params)
		}
	}
	for _, id := range seen.ids() {
		if id != mine {
			t.Errorf("the task store was asked for %.40q (%d characters)", id, len(id))
		}
	}
}

// loadLog records the ids a task store was asked to load.
type loadLog struct {
	mu     sync.Mutex
	loaded []string
}

func (l *loadLog) ids() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.loaded...)
}

type seenCluster struct {
	*Memory
	log *loadLog
}

func (c seenCluster) Tasks() server.TaskStore { return seenTasks{c.Memory.Tasks(), c.log} }

type seenTasks struct {
	server.TaskStore
	log *loadLog
}

func (s seenTasks) Load(ctx context.Context, id string) ([]byte, uint64, error) {
	s.log.mu.Lock()
	s.log.loaded = append(s.log.loaded, id)
	s.log.mu.Unlock()
	return s.TaskStore.Load(ctx, id)
}
