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
	return startNATSWith(t, port, true)
}

// startNATSWith runs a nats-server on port (-1: any), with JetStream and
// its own, fresh store or without JetStream.
func startNATSWith(t *testing.T, port int, jetStream bool) *natsserver.Server {
	t.Helper()
	ns, err := natsserver.NewServer(&natsserver.Options{
		Host: "127.0.0.1", Port: port, JetStream: jetStream, StoreDir: t.TempDir(), NoLog: true, NoSigs: true,
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
// answers". The buckets New created are gone: the replica creates them
// again at the first call that finds one missing, so task-augmented
// tools/call works again within seconds of the reconnect (not -32603 "no
// response from stream" for as long as the replica runs, Ready nil all
// along), and Ready is nil.
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
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if !nc.IsConnected() {
			continue
		}
		last = replicaCall(t, a, "tools/call", `"name":"quick","arguments":{}`)
		if last.Error == nil {
			if err := a.Ready(t.Context()); err != nil {
				t.Fatalf("Ready once task calls work again: %v", err)
			}
			return
		}
	}
	ready := a.Ready(t.Context())
	msg, _ := json.Marshal(last.Error)
	t.Fatalf("10 s after NATS came back (connected: %v), a task-augmented tools/call still fails: %s; Ready: %v", nc.IsConnected(), msg, ready)
}

// The nats-server comes back without JetStream at all (a configuration
// that lost "-js"): the buckets cannot be created again, so Ready (the
// /readyz probe) reports the replica unready — "200 only while it takes
// work and its cluster answers" — rather than nil while every task call
// fails; and ready again once a server with JetStream is back.
func TestReplicaIsUnreadyWhileItsBucketsCannotBeCreated(t *testing.T) {
	ns := startNATSAt(t, -1)
	nc, err := nats.Connect(ns.ClientURL(), nats.MaxReconnects(-1), nats.ReconnectWait(50*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	c, err := New(nc, Options{Name: "test"})
	if err != nil {
		t.Fatal(err)
	}
	a := replicaServer(t, c)
	port := ns.Addr().(*net.TCPAddr).Port
	restart := func(jetStream bool) {
		ns.Shutdown()
		ns.WaitForShutdown()
		ns = startNATSWith(t, port, jetStream)
		t.Cleanup(ns.Shutdown)
		for deadline := time.Now().Add(5 * time.Second); !nc.IsConnected(); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("the client did not reconnect")
			}
		}
	}
	restart(false)
	if err := a.Ready(t.Context()); err == nil {
		t.Fatal("Ready is nil while NATS has no JetStream (no bucket, every task call fails)")
	}
	restart(true)
	if err := a.Ready(t.Context()); err != nil {
		t.Fatalf("Ready once NATS has JetStream again: %v", err)
	}
}
