package clustertest

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/server"
)

// Bench measures what a cluster costs, against the embedded default in the
// same run: Fanout is the time from AddTools on one replica until a listen
// stream on another has the list_changed notification (the fan-out
// latency); TaskFanout the time from tasks/cancel on the task's replica
// until a listen stream on another has its notifications/tasks; ToolCall is a plain tools/call (no cluster work); Task is a
// task created on one replica and polled to completed on another (a record
// Create, the owner's Swap, the reader's Load).
func Bench(b *testing.B, connect func(testing.TB) server.Cluster) {
	b.Run("Fanout", func(b *testing.B) {
		r := newReplicas(b, connect, 2)
		listen := r.listen(b, 0, `{"toolsListChanged":true}`)
		b.ResetTimer()
		for range b.N {
			if err := r.servers[1].AddTools(transient()); err != nil {
				b.Fatal(err)
			}
			if n := listen.next(b); n.method != "notifications/tools/list_changed" {
				b.Fatalf("got %s", n.method)
			}
		}
	})
	b.Run("TaskFanout", func(b *testing.B) {
		r := newReplicas(b, connect, 2)
		for range b.N {
			b.StopTimer()
			id := r.createTask(b, 0, "wait_for_cancel")
			listen, _ := r.listenAck(b, 1, `{"taskIds":["`+id+`"]}`)
			listen.nextStatus(b, id, server.TaskWorking, 5*time.Second)
			b.StartTimer()
			r.call(b, 0, "tasks/cancel", `{"taskId":"`+id+`"}`)
			listen.nextStatus(b, id, server.TaskCancelled, 5*time.Second)
			b.StopTimer()
			<-r.cancelled
			b.StartTimer()
		}
	})
	for _, mode := range []struct {
		name    string
		connect func(testing.TB) server.Cluster
		reader  int // the replica that polls the task
	}{{"embedded", nil, 0}, {"cluster", connect, 1}} {
		b.Run("ToolCall/"+mode.name, func(b *testing.B) {
			r := newReplicas(b, mode.connect, 2)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				r.call(b, 0, "tools/call", `{"name":"echo","arguments":{}}`)
			}
		})
		b.Run("Task/"+mode.name, func(b *testing.B) {
			r := newReplicas(b, mode.connect, 2)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				id := r.createTask(b, 0, "quick_task")
				for {
					var m struct{ Status string }
					_ = json.Unmarshal(r.call(b, mode.reader, "tasks/get", `{"taskId":"`+id+`"}`), &m)
					if m.Status == server.TaskCompleted {
						break
					}
				}
			}
		})
	}
}
