package natscluster

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/server"
	"github.com/nats-io/nats.go/jetstream"
)

// A record over max_payload lives in the object store; once a Swap replaces
// it (or a lost Create or Swap leaves one), no object stays behind.
func TestLargeRecordObjectsAreDeleted(t *testing.T) {
	url := startNATS(t)
	c := connect(t, url)
	ctx, store := t.Context(), c.Tasks()
	exp := time.Now().Add(time.Minute)
	large := bytes.Repeat([]byte("x"), 2<<20)
	if err := store.Create(ctx, "big", large, exp); err != nil {
		t.Fatal(err)
	}
	if err := store.Create(ctx, "big", large, exp); err == nil {
		t.Fatal("second Create succeeded")
	}
	_, rev, err := store.Load(ctx, "big")
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Swap(ctx, "big", large, rev+1000, exp); err == nil {
		t.Fatal("Swap on a wrong revision succeeded")
	}
	if n := liveObjects(t, c); n != 1 {
		t.Fatalf("%d objects after a lost Create and a lost Swap, want the record's 1", n)
	}
	if err := store.Swap(ctx, "big", []byte(`{"small":true}`), rev, exp); err != nil {
		t.Fatal(err)
	}
	if n := liveObjects(t, c); n != 0 {
		t.Fatalf("%d objects after the large record was replaced, want 0", n)
	}
}

// A record in the object store whose object is gone (the object store's
// TTL removed it a moment before the key, the object being written first)
// is reported gone by Load (ErrTaskNotFound), so Create of that id takes
// it: server.TaskStore fails Create with ErrTaskExists only "when id is
// taken", and the owner (README, cluster) "re-creates, until the TTL, a
// record the store lost".
func TestLargeRecordWhoseObjectIsGoneCanBeCreatedAgain(t *testing.T) {
	url := startNATS(t)
	c := connect(t, url)
	ctx, store := t.Context(), c.Tasks()
	exp := time.Now().Add(time.Minute)
	id := strings.Repeat("ab", 16)
	large := bytes.Repeat([]byte("x"), 2<<20)
	if err := store.Create(ctx, id, large, exp); err != nil {
		t.Fatal(err)
	}
	infos, err := c.records.List(ctx)
	if err != nil || len(infos) != 1 {
		t.Fatalf("objects: %v %v", len(infos), err)
	}
	if err := c.records.Delete(ctx, infos[0].Name); err != nil { // as its TTL would
		t.Fatal(err)
	}
	if _, _, err := store.Load(ctx, id); !errors.Is(err, server.ErrTaskNotFound) {
		t.Fatalf("Load of a record whose object is gone: %v, want ErrTaskNotFound", err)
	}
	if err := store.Create(ctx, id, []byte(`{"again":true}`), exp); err != nil {
		t.Fatalf("Create after Load reported the record gone: %v (Load and Create disagree on whether %s exists)", err, id)
	}
	if b, _, err := store.Load(ctx, id); err != nil || string(b) != `{"again":true}` {
		t.Fatalf("Load after the re-create: %q %v", b, err)
	}
}

// A write of a large record that answers an error although it was stored
// (a lost reply) keeps its object: the key references it, so Load still
// returns the record; a write that did not take leaves no object behind.
func TestLargeRecordWriteWithLostReplyKeepsItsObject(t *testing.T) {
	url := startNATS(t)
	c := connect(t, url)
	ctx, store := t.Context(), c.Tasks().(taskStore)
	lostReply := errors.New("nats: timeout")
	large := bytes.Repeat([]byte("x"), 2<<20)
	key := storeKey("big")
	value, object, err := store.pack(ctx, key, large, time.Now().Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.kv.Create(ctx, key, value); err != nil {
		t.Fatal(err)
	}
	if err := store.settle(ctx, key, object, lostReply); err != nil {
		t.Fatalf("settle of a write that took: %v, want nil", err)
	}
	if b, _, err := store.Load(ctx, "big"); err != nil || !bytes.Equal(b, large) {
		t.Fatalf("Load after a write whose reply was lost: %d bytes, %v", len(b), err)
	}
	_, other, err := store.pack(ctx, key, large, time.Now().Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if err := store.settle(ctx, key, other, lostReply); !errors.Is(err, lostReply) {
		t.Fatalf("settle of a write that did not take: %v, want %v", err, lostReply)
	}
	if n := liveObjects(t, c); n != 1 {
		t.Fatalf("%d objects, want the record's 1", n)
	}
}

func liveObjects(t *testing.T, c *Cluster) int {
	t.Helper()
	infos, err := c.records.List(t.Context())
	if errors.Is(err, jetstream.ErrNoObjectsFound) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return len(infos)
}
