package natscluster

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/server"
)

// A record in the object store whose object is gone (the object store's
// TTL removed it a moment before the key — the object is written first —,
// or drop deleted it after a Create or Swap whose reply was lost though
// the write took) is reported gone by Load (ErrTaskNotFound: "expired with
// the object store's TTL"), yet Create of that id answers ErrTaskExists.
// server.TaskStore: Create fails with ErrTaskExists only "when id is
// taken"; README (cluster): the owner "re-creates, until the TTL, a record
// the store lost". With the two answers disagreeing the owner can never
// re-create it: server.storeTask loops Load → ErrTaskNotFound → Create →
// ErrTaskExists → Load ... with no bound but the task's expiry, a busy
// loop of store round trips that also holds up keepTasks for every other
// task of the replica.
func TestLargeRecordWithLostObjectCanBeRecreated(t *testing.T) {
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
