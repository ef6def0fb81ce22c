package rediscluster

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/server"
)

// Tasks behind replicas across a Redis restart (README, "Running several
// replicas").

// restartableRedis is a redis-server on a unix socket that the test can
// restart, as an operator's Redis restarts (no persistence: no snapshot, no
// append-only file).
type restartableRedis struct {
	bin, dir, sock string
	cmd            *exec.Cmd
}

func (r *restartableRedis) start(t *testing.T) {
	t.Helper()
	_ = os.Remove(r.sock)
	r.cmd = exec.Command(r.bin, "--port", "0", "--unixsocket", r.sock, "--save", "", "--appendonly", "no", "--dir", r.dir)
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for range 250 {
		if _, err := os.Stat(r.sock); err == nil {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("redis-server did not open its socket")
}

func (r *restartableRedis) stop() { _ = r.cmd.Process.Kill(); _ = r.cmd.Wait() }

const taskMeta = `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}}`

func callTask(t *testing.T, s *server.Server, method, params string) (map[string]any, map[string]any) {
	t.Helper()
	msg := `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":{"_meta":` + taskMeta + `,` + params + `}}`
	var out struct {
		Result map[string]any `json:"result"`
		Error  map[string]any `json:"error"`
	}
	body := s.HandleBytes(t.Context(), []byte(msg), nil).Body
	if err := json.Unmarshal(body, &out); err != nil {
		t.Fatalf("%s: %s", method, body)
	}
	return out.Result, out.Error
}

// Redis restarts (without persistence) while a task runs on replica A.
// Its heartbeats and the pub/sub come back by themselves, and A re-creates
// the task's record it still holds: once the tool has finished, replica B
// answers tasks/get "completed" as A does, rather than -32602 "Unknown
// task" for the same live task until its TTL.
func TestTaskSurvivesRedisRestart(t *testing.T) {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Fatal("redis-server is not installed (apt-get install redis-server)")
	}
	dir := t.TempDir()
	rs := &restartableRedis{bin: bin, dir: dir, sock: filepath.Join(dir, "redis.sock")}
	rs.start(t)
	t.Cleanup(rs.stop)
	url := "unix://" + rs.sock
	release := make(chan struct{})
	mk := func() *server.Server { return jobServer(t, connect(t, url), release) }
	a, b := mk(), mk()
	res, rpcErr := callTask(t, a, "tools/call", `"name":"job","arguments":{}`)
	id, _ := res["taskId"].(string)
	if rpcErr != nil || id == "" {
		t.Fatalf("tools/call: %v %v", res, rpcErr)
	}
	if res, _ := callTask(t, b, "tasks/get", `"taskId":"`+id+`"`); res["status"] != server.TaskWorking {
		t.Fatalf("before the restart, B: %v", res)
	}
	rs.stop()
	rs.start(t)
	for deadline := time.Now().Add(5 * time.Second); b.Ready(t.Context()) != nil || a.Ready(t.Context()) != nil; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("replicas not ready after Redis came back")
		}
	}
	time.Sleep(1500 * time.Millisecond) // heartbeats renewed
	close(release)
	var ra, rb, eb map[string]any
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		ra, _ = callTask(t, a, "tasks/get", `"taskId":"`+id+`"`)
		rb, eb = callTask(t, b, "tasks/get", `"taskId":"`+id+`"`)
		if rb["status"] == server.TaskCompleted {
			return
		}
	}
	t.Fatalf("after the restart the owner says %v, replica B says %v (error %v)", ra["status"], rb["status"], eb)
}
