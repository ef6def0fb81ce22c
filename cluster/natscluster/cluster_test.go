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
	"github.com/mcpgen/mcpgen/server/clustertest"
	natsserver "github.com/nats-io/nats-server/v2/server"
)

// startNATS runs a real nats-server with JetStream in this process.
func startNATS(t testing.TB) string {
	t.Helper()
	ns, err := natsserver.NewServer(&natsserver.Options{
		Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: t.TempDir(), NoLog: true, NoSigs: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		t.Fatal("nats-server did not start")
	}
	t.Cleanup(ns.Shutdown)
	return ns.ClientURL()
}

func connect(t testing.TB, url string) *Cluster {
	t.Helper()
	c, err := Connect(url, Options{Name: "test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestBackend(t *testing.T) {
	url := startNATS(t)
	clustertest.Backend(t, connect(t, url), connect(t, url))
}

func TestReplicas(t *testing.T) {
	url := startNATS(t)
	clustertest.Replicas(t, func(t testing.TB) server.Cluster { return connect(t, url) })
}

func TestConnectFails(t *testing.T) {
	if _, err := Connect("nats://127.0.0.1:1", Options{}); err == nil {
		t.Fatal("Connect to a closed port succeeded")
	}
}

// BenchmarkCluster: fan-out latency and the cost per call, against the
// embedded default in the same run (clustertest.Bench).
func BenchmarkCluster(b *testing.B) {
	url := startNATS(b)
	clustertest.Bench(b, func(t testing.TB) server.Cluster { return connect(t, url) })
}

const replicaMeta = `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}}`

func replicaServer(t *testing.T, c server.Cluster, tools ...server.Tool) *server.Server {
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

type replicaResp struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func replicaCall(t *testing.T, s *server.Server, method, params string) replicaResp {
	t.Helper()
	msg := `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":{"_meta":` + replicaMeta + `,` + params + `}}`
	body := s.HandleBytes(t.Context(), []byte(msg), nil).Body
	var r replicaResp
	if err := json.Unmarshal(body, &r); err != nil {
		t.Fatalf("%s: %s: %v", method, body, err)
	}
	return r
}

// A tasks/get whose taskId is long (any client can send one) is answered
// -32602 "Unknown task" like any other unknown id, and does not cost the
// replica its NATS connection: were the id part of a NATS subject longer
// than the server's max_control_line (4096), nats-server would answer
// -ERR 'maximum control line exceeded' and nats.go close the connection for
// good (no reconnect) — the replica could no longer create tasks, publish
// changes or beat.
func TestLongTaskIDIsUnknownAndKeepsTheConnection(t *testing.T) {
	url := startNATS(t)
	a := replicaServer(t, connect(t, url))
	b := replicaServer(t, connect(t, url))
	_ = a
	long := strings.Repeat("a", 5000)
	r := replicaCall(t, b, "tasks/get", `"taskId":"`+long+`"`)
	if r.Error == nil || r.Error.Code != -32602 || !strings.Contains(r.Error.Message, "Unknown task") {
		t.Errorf("tasks/get with a 5000-char taskId: %+v, want -32602 Unknown task", r.Error)
	}
	// The replica must still work afterwards.
	r = replicaCall(t, b, "tools/call", `"name":"quick","arguments":{}`)
	if r.Error != nil {
		t.Fatalf("tools/call of a task tool after the long tasks/get: error %d %s (the replica lost its cluster)", r.Error.Code, r.Error.Message)
	}
	if err := b.Ready(t.Context()); err != nil {
		t.Fatalf("replica not ready after one long tasks/get: %v", err)
	}
}

// A task whose result exceeds NATS's max_payload (1 MiB by default) is
// polled to its end on any replica, as the README says of every task: its
// record goes to the object store, and the other replica answers
// completed, with the whole result, within a few seconds (not "working"
// until the TTL because the final status could not be stored).
func TestLargeTaskResultIsReadOnOtherReplicas(t *testing.T) {
	checkTaskResultReadOnOtherReplica(t, startNATS(t), 1100<<10)
}

// checkTaskResultReadOnOtherReplica runs a task tool whose result is size
// bytes on one replica of the NATS at url and requires another replica to
// answer completed, with the whole result, within 4 s.
func checkTaskResultReadOnOtherReplica(t *testing.T, url string, size int) {
	t.Helper()
	big := server.NewTool(server.ToolInfo{Name: "big", TaskSupport: server.TaskSupportRequired},
		func(ctx context.Context, _ struct{}) (string, error) { return strings.Repeat("x", size), nil })
	a := replicaServer(t, connect(t, url), big)
	b := replicaServer(t, connect(t, url), big)
	r := replicaCall(t, a, "tools/call", `"name":"big","arguments":{}`)
	var created struct{ TaskID string }
	if r.Error != nil || json.Unmarshal(r.Result, &created) != nil || created.TaskID == "" {
		t.Fatalf("tools/call: %+v %s", r.Error, r.Result)
	}
	var statusA, statusB string
	for deadline := time.Now().Add(4 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		var ma, mb struct {
			Status string
			Result struct{ Content []struct{ Text string } }
		}
		_ = json.Unmarshal(replicaCall(t, a, "tasks/get", `"taskId":"`+created.TaskID+`"`).Result, &ma)
		_ = json.Unmarshal(replicaCall(t, b, "tasks/get", `"taskId":"`+created.TaskID+`"`).Result, &mb)
		statusA, statusB = ma.Status, mb.Status
		if statusB == server.TaskCompleted {
			if len(mb.Result.Content) != 1 || len(mb.Result.Content[0].Text) != size {
				t.Fatalf("the other replica's completed task lacks the whole result: %d content blocks", len(mb.Result.Content))
			}
			return
		}
		if statusB == server.TaskFailed {
			t.Fatalf("the other replica says failed, want completed with the result")
		}
	}
	t.Fatalf("owner says %q, the other replica still says %q after 4 s", statusA, statusB)
}
