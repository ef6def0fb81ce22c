package natscluster

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/server"
)

// A task whose result exceeds NATS's max_payload (1 MiB by default) is
// completed on its owner, but its final status never reaches the store:
// every other replica answers tasks/get "working" until the TTL, although
// the README says a task created on one replica is polled to its end on
// any other. Want: the other replica sees a terminal status (completed, or
// failed with the reason) within a few seconds.
func TestAttackLargeTaskResultNeverFinishesElsewhere(t *testing.T) {
	url := startNATS(t)
	big := server.NewTool(server.ToolInfo{Name: "big", TaskSupport: server.TaskSupportRequired},
		func(ctx context.Context, _ struct{}) (string, error) { return strings.Repeat("x", 1100<<10), nil })
	a := replicaServer(t, connect(t, url), big)
	b := replicaServer(t, connect(t, url), big)
	r := replicaCall(t, a, "tools/call", `"name":"big","arguments":{}`)
	var created struct{ TaskID string }
	if r.Error != nil || json.Unmarshal(r.Result, &created) != nil || created.TaskID == "" {
		t.Fatalf("tools/call: %+v %s", r.Error, r.Result)
	}
	var statusA, statusB string
	for deadline := time.Now().Add(4 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		var ma, mb struct{ Status string }
		_ = json.Unmarshal(replicaCall(t, a, "tasks/get", `"taskId":"`+created.TaskID+`"`).Result, &ma)
		_ = json.Unmarshal(replicaCall(t, b, "tasks/get", `"taskId":"`+created.TaskID+`"`).Result, &mb)
		statusA, statusB = ma.Status, mb.Status
		if statusB == server.TaskCompleted || statusB == server.TaskFailed {
			return
		}
	}
	t.Fatalf("owner says %q, the other replica still says %q after 4 s", statusA, statusB)
}
