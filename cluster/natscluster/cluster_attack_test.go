package natscluster

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/server"
)

// Attack tests of the NATS backend behind replicas (README, "Running
// several replicas").

const attackMeta = `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}}`

func attackServer(t *testing.T, c server.Cluster, tools ...server.Tool) *server.Server {
	t.Helper()
	tools = append(tools, server.NewTool(server.ToolInfo{Name: "quick", TaskSupport: server.TaskSupportRequired},
		func(ctx context.Context, _ struct{}) (string, error) { return "done", nil }))
	srv, err := server.New(server.Options{Name: "r", Version: "1", Tools: tools, Cluster: c,
		StateKeys: [][]byte{[]byte("0123456789abcdef0123456789abcdef")},
		Logger:    slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	})
	return srv
}

type attackResp struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func attackCall(t *testing.T, s *server.Server, method, params string) attackResp {
	t.Helper()
	msg := `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":{"_meta":` + attackMeta + `,` + params + `}}`
	body := s.HandleBytes(t.Context(), []byte(msg), nil).Body
	var r attackResp
	if err := json.Unmarshal(body, &r); err != nil {
		t.Fatalf("%s: %s: %v", method, body, err)
	}
	return r
}

// A tasks/get whose taskId is long (any client can send one) must be
// answered -32602 "Unknown task" like any other unknown id, and must not
// cost the replica its NATS connection: today the id becomes part of a NATS
// subject longer than the server's max_control_line (4096), nats-server
// answers -ERR 'maximum control line exceeded', and nats.go closes the
// connection for good (no reconnect) — the replica can no longer create
// tasks, publish changes or beat.
func TestAttackLongTaskIDKillsNATSConnection(t *testing.T) {
	url := startNATS(t)
	a := attackServer(t, connect(t, url))
	b := attackServer(t, connect(t, url))
	_ = a
	long := strings.Repeat("a", 5000)
	r := attackCall(t, b, "tasks/get", `"taskId":"`+long+`"`)
	if r.Error == nil || r.Error.Code != -32602 || !strings.Contains(r.Error.Message, "Unknown task") {
		t.Errorf("tasks/get with a 5000-char taskId: %+v, want -32602 Unknown task", r.Error)
	}
	// The replica must still work afterwards.
	r = attackCall(t, b, "tools/call", `"name":"quick","arguments":{}`)
	if r.Error != nil {
		t.Fatalf("tools/call of a task tool after the long tasks/get: error %d %s (the replica lost its cluster)", r.Error.Code, r.Error.Message)
	}
	if err := b.Ready(t.Context()); err != nil {
		t.Fatalf("replica not ready after one long tasks/get: %v", err)
	}
}

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
	a := attackServer(t, connect(t, url), big)
	b := attackServer(t, connect(t, url), big)
	r := attackCall(t, a, "tools/call", `"name":"big","arguments":{}`)
	var created struct{ TaskID string }
	if r.Error != nil || json.Unmarshal(r.Result, &created) != nil || created.TaskID == "" {
		t.Fatalf("tools/call: %+v %s", r.Error, r.Result)
	}
	var statusA, statusB string
	for deadline := time.Now().Add(4 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		var ma, mb struct{ Status string }
		_ = json.Unmarshal(attackCall(t, a, "tasks/get", `"taskId":"`+created.TaskID+`"`).Result, &ma)
		_ = json.Unmarshal(attackCall(t, b, "tasks/get", `"taskId":"`+created.TaskID+`"`).Result, &mb)
		statusA, statusB = ma.Status, mb.Status
		if statusB == server.TaskCompleted || statusB == server.TaskFailed {
			return
		}
	}
	t.Fatalf("owner says %q, the other replica still says %q after 4 s", statusA, statusB)
}
