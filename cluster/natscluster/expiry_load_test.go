package natscluster

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/server"
	natsserver "github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// Load reads a record past its expiry and deletes it (expiry.go). The
// deletes are housekeeping: should NATS not answer them (a partition just
// after the read; here, a user who may read the buckets but not write
// them, whose writes are never acknowledged), Load still returns
// ErrTaskNotFound within its context — server.TaskStore calls are bounded
// by theirs (a tasks/get, a listen's re-read each second) — not up to
// twice the 5 s object-drop timeout later.
func TestLoadOfExpiredRecordReturnsWithinItsContext(t *testing.T) {
	ns, err := natsserver.NewServer(&natsserver.Options{
		Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: t.TempDir(), NoLog: true, NoSigs: true,
		Users: []*natsserver.User{
			{Username: "rw", Password: "rw"},
			{Username: "ro", Password: "ro", Permissions: &natsserver.Permissions{
				Publish: &natsserver.SubjectPermission{Deny: []string{"$KV.test_tasks.>", "$O.test_records.>"}},
			}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		t.Fatal("nats-server did not start")
	}
	t.Cleanup(ns.Shutdown)
	open := func(user string) *Cluster {
		nc, err := nats.Connect(ns.ClientURL(), nats.UserInfo(user, user), nats.ErrorHandler(func(*nats.Conn, *nats.Subscription, error) {}))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(nc.Close)
		c, err := New(nc, Options{Name: "test"})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	rw := open("rw")
	if err := rw.Tasks().Create(t.Context(), "t1", []byte(`{"v":1}`), time.Now().Add(100*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	ro := open("ro")
	time.Sleep(200 * time.Millisecond)
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, _, err = ro.Tasks().Load(ctx, "t1")
	if took := time.Since(start); !errors.Is(err, server.ErrTaskNotFound) || took > time.Second {
		t.Fatalf("Load of an expired record, its deletes unanswered, with a 300 ms context: %v after %v; want ErrTaskNotFound within the context", err, took.Round(time.Millisecond))
	}
}
