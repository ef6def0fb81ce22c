package natscluster

import (
	"bytes"
	"errors"
	"testing"
	"time"

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
