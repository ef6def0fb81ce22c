package rediscluster

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/server"
	"github.com/redis/go-redis/v9"
)

// Redis loses its keys (a restart without persistence; FLUSHALL here, the
// same loss without the reconnect) while a task runs on replica A. The
// README ("Running several replicas") says A "re-creates, until the TTL,
// a record the store lost (Redis restarted without persistence)" and that
// a task is reported failed only when "its replica died (no heartbeat for
// 4 s)"; TestTaskSurvivesRedisRestart holds that a live task survives the
// restart. A re-creates the record at its next write (here the task asks
// for input), and renews its heartbeat first: a tasks/get on replica B as
// soon as the record is back must not find a live record whose replica is
// not Alive, which would mark the task failed for good ("the replica
// running this task … stopped before it finished") and cancel A's tool.
func TestLiveTaskIsNotOrphanedAfterRedisLosesItsKeys(t *testing.T) {
	url := startRedis(t)
	raw := redis.NewClient(&redis.Options{Network: "unix", Addr: strings.TrimPrefix(url, "unix://")})
	t.Cleanup(func() { raw.Close() })
	ask := make(chan struct{})
	mk := func() *server.Server {
		srv, err := server.New(server.Options{Name: "r", Version: "1", Cluster: connect(t, url),
			Tools: []server.Tool{server.NewTool(server.ToolInfo{Name: "job", TaskSupport: server.TaskSupportRequired},
				func(ctx context.Context, _ struct{}) (string, error) {
					select {
					case <-ask:
					case <-ctx.Done():
						return "", ctx.Err()
					}
					if _, err := server.Ask(ctx, "name", &mcp.ElicitRequest{Params: &mcp.ElicitRequestFormParams{
						Message: "Name?",
						RequestedSchema: mcp.ElicitRequestFormParamsRequestedSchema{
							Properties: map[string]mcp.PrimitiveSchemaDefinition{"name": &mcp.StringSchema{}},
						},
					}}); err != nil {
						return "", err
					}
					return "done", nil
				})},
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
			defer cancel()
			_ = srv.Shutdown(ctx)
		})
		return srv
	}
	a, b := mk(), mk()
	res, rpcErr := callTask(t, a, "tools/call", `"name":"job","arguments":{}`)
	id, _ := res["taskId"].(string)
	if rpcErr != nil || id == "" {
		t.Fatalf("tools/call: %v %v", res, rpcErr)
	}
	ctx := t.Context()
	beat, rec := "test:replica:"+a.ReplicaID(), "test:task:"+id
	// Just after one of A's heartbeats (its key's TTL back near 4 s) …
	for deadline := time.Now().Add(3 * time.Second); ; time.Sleep(time.Millisecond) {
		if ttl, _ := raw.PTTL(ctx, beat).Result(); ttl > 3950*time.Millisecond {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no heartbeat of A seen")
		}
	}
	// … Redis loses everything, and the task asks for input.
	if err := raw.FlushAll(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	close(ask)
	for deadline := time.Now().Add(3 * time.Second); ; time.Sleep(time.Millisecond) {
		if n, _ := raw.Exists(ctx, rec).Result(); n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("A did not re-create the record")
		}
	}
	beating, _ := raw.Exists(ctx, beat).Result()
	got, gotErr := callTask(t, b, "tasks/get", `"taskId":"`+id+`"`)
	if got["status"] != server.TaskInputRequired && got["status"] != server.TaskWorking {
		t.Fatalf("replica B, once A re-created the record of its running task after Redis lost its keys (A's heartbeat key present: %d): status %v, message %v (error %v); want input_required", beating, got["status"], got["statusMessage"], gotErr)
	}
}
