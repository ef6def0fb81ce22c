package natscluster

import (
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
