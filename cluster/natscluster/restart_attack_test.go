package natscluster

import (
	"encoding/json"
	"net"
	"testing"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// startNATSAt runs a nats-server with JetStream on port (-1: any) with its
// own, fresh store.
func startNATSAt(t *testing.T, port int) *natsserver.Server {
	t.Helper()
	ns, err := natsserver.NewServer(&natsserver.Options{
		Host: "127.0.0.1", Port: port, JetStream: true, StoreDir: t.TempDir(), NoLog: true, NoSigs: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		t.Fatal("nats-server did not start")
	}
	return ns
}

// The nats-server restarts without its JetStream state (a container
// without a volume, a fresh node: what "Redis restarted without
// persistence" is to the Redis store). The README (Running several
// replicas) says the owner "re-creates, until the TTL, a record the store
// lost" and that /readyz is 200 only "while it takes work and its cluster
// answers". The buckets New created at start are gone and nothing creates
// them again: once the connection is back, every task-augmented tools/call
// is -32603 ("stream not found") for as long as the replica runs, its
// heartbeat fails, and Ready still reports the replica ready, so the
// balancer keeps sending it work it cannot do.
func TestReplicaWorksAfterNATSRestartLosingJetStreamState(t *testing.T) {
	ns := startNATSAt(t, -1)
	url := ns.ClientURL()
	nc, err := nats.Connect(url, nats.MaxReconnects(-1), nats.ReconnectWait(50*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	c, err := New(nc, Options{Name: "test"})
	if err != nil {
		t.Fatal(err)
	}
	a := replicaServer(t, c)
	if r := replicaCall(t, a, "tools/call", `"name":"quick","arguments":{}`); r.Error != nil {
		t.Fatalf("tools/call before the restart: %+v", r.Error)
	}
	port := ns.Addr().(*net.TCPAddr).Port
	ns.Shutdown()
	ns.WaitForShutdown()
	ns2 := startNATSAt(t, port) // same address, empty JetStream store
	t.Cleanup(ns2.Shutdown)
	var last replicaResp
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if !nc.IsConnected() {
			continue
		}
		last = replicaCall(t, a, "tools/call", `"name":"quick","arguments":{}`)
		if last.Error == nil {
			return
		}
	}
	ready := a.Ready(t.Context())
	msg, _ := json.Marshal(last.Error)
	t.Fatalf("5 s after NATS came back (connected: %v), a task-augmented tools/call still fails: %s; Ready: %v", nc.IsConnected(), msg, ready)
}
