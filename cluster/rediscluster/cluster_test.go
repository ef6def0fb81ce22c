package rediscluster

import (
	"context"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/server"
	"github.com/mcpgen/mcpgen/server/clustertest"
)

// startRedis runs Debian's redis-server on a unix socket of the test
// (apt-get install redis-server; .ci/run installs it).
func startRedis(t testing.TB) string {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Fatal("redis-server is not installed (apt-get install redis-server)")
	}
	dir := t.TempDir()
	sock := filepath.Join(dir, "redis.sock")
	cmd := exec.Command(bin, "--port", "0", "--unixsocket", sock, "--save", "", "--appendonly", "no", "--dir", dir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	for range 100 {
		if _, err := os.Stat(sock); err == nil {
			return "unix://" + sock
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("redis-server did not open its socket")
	return ""
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
	url := startRedis(t)
	clustertest.Backend(t, connect(t, url), connect(t, url))
}

func TestReplicas(t *testing.T) {
	url := startRedis(t)
	clustertest.Replicas(t, func(t testing.TB) server.Cluster { return connect(t, url) })
}

func TestConnectFails(t *testing.T) {
	if _, err := Connect("redis://127.0.0.1:1", Options{}); err == nil {
		t.Fatal("Connect to a closed port succeeded")
	}
	if _, err := Connect("http://nope", Options{}); err == nil {
		t.Fatal("Connect accepted a non-Redis URL")
	}
}

// BenchmarkCluster: fan-out latency and the cost per call, against the
// embedded default in the same run (clustertest.Bench).
func BenchmarkCluster(b *testing.B) {
	url := startRedis(b)
	clustertest.Bench(b, func(t testing.TB) server.Cluster { return connect(t, url) })
}

// jobServer is a server on cluster c with one task tool, "job", that
// returns "done" once release is closed (or fails when cancelled); it is
// shut down when the test ends.
func jobServer(t *testing.T, c server.Cluster, release <-chan struct{}) *server.Server {
	t.Helper()
	srv, err := server.New(server.Options{Name: "r", Version: "1", Cluster: c,
		Tools: []server.Tool{server.NewTool(server.ToolInfo{Name: "job", TaskSupport: server.TaskSupportRequired},
			func(ctx context.Context, _ struct{}) (string, error) {
				select {
				case <-release:
					return "done", nil
				case <-ctx.Done():
					return "", ctx.Err()
				}
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
