package natscluster

import (
	"bytes"
	"strconv"
	"testing"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"
)

// startNATSMaxPayload runs a nats-server with JetStream whose max_payload
// is maxPayload (an operator's setting; 1 MiB by default).
func startNATSMaxPayload(t testing.TB, maxPayload int32) string {
	t.Helper()
	ns, err := natsserver.NewServer(&natsserver.Options{
		Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: t.TempDir(), NoLog: true, NoSigs: true,
		MaxPayload: maxPayload,
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

// README ("Running several replicas"): NATS keeps "a JetStream object
// store, which chunks, for a task record larger than one message — a result
// or input requests over the server's max_payload, 1 MiB by default"; and
// server.TaskStore: a store "takes ... any record size (a task's result can
// be megabytes)". nats.go's object store sends 128 KiB chunks whatever the
// server's max_payload, so on a server whose max_payload is below that
// (64 KiB here) no record over one message could be stored ("maximum
// payload exceeded"), and below ~4 KiB no record at all: the store sizes
// the chunks (and the room left for headers) from the server's max_payload.
func TestLargeRecordOnServerWithSmallMaxPayload(t *testing.T) {
	for _, tc := range []struct {
		maxPayload int32
		sizes      []int
	}{
		{64 << 10, []int{200 << 10}},             // a tool's result over max_payload
		{2 << 10, []int{100, 1500, 3000, 20000}}, // a tiny max_payload: every size
	} {
		url := startNATSMaxPayload(t, tc.maxPayload)
		c := connect(t, url)
		ctx, store := t.Context(), c.Tasks()
		exp := time.Now().Add(time.Minute)
		for _, size := range tc.sizes {
			id := "big" + strconv.Itoa(size)
			record := bytes.Repeat([]byte("x"), size)
			if err := store.Create(ctx, id, record, exp); err != nil {
				t.Fatalf("Create of a %d-byte record on a server with max_payload %d: %v", size, tc.maxPayload, err)
			}
			got, _, err := store.Load(ctx, id)
			if err != nil || !bytes.Equal(got, record) {
				t.Fatalf("Load (max_payload %d): %d bytes, %v; want the %d-byte record", tc.maxPayload, len(got), err, size)
			}
		}
	}
}

// The same seen by a client: on a nats-server with max_payload 64 KiB, a
// task whose result is 200 KiB completes on its owner, yet another replica
// answers "working" (the final status could not be stored) instead of
// "completed" with the result, as the README promises for "a result ...
// over the server's max_payload".
func TestTaskResultOverSmallMaxPayloadIsReadOnOtherReplicas(t *testing.T) {
	checkTaskResultReadOnOtherReplica(t, startNATSMaxPayload(t, 64<<10), 200<<10)
}
