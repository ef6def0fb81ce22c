package natscluster

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/server"
)

// server.TaskStore: "Create stores a new record that expires at expires
// (ErrTaskExists when id is taken)", "Load returns the record ...
// (ErrTaskNotFound when id is unknown or expired)", "Swap ... The record
// keeps expiring at expires". The NATS store ignores expires: every record
// (and the object of a large one) is kept for TaskRetention (24 h by
// default) whatever its task's TTL (5 min by default), so Load returns an
// expired record and Create refuses its id as taken; the bucket keeps
// ~288 times the records the runtime can still use, without any bound on
// their number or size (clustertest.Memory and the Redis store expire them).
func TestRecordExpiresAtItsExpiry(t *testing.T) {
	url := startNATS(t)
	c := connect(t, url)
	ctx, store := t.Context(), c.Tasks()
	large := bytes.Repeat([]byte("x"), 2<<20)
	for _, tc := range []struct {
		id     string
		record []byte
	}{{"small", []byte(`{"v":1}`)}, {"large", large}} {
		if err := store.Create(ctx, tc.id, tc.record, time.Now().Add(200*time.Millisecond)); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(500 * time.Millisecond)
	for _, id := range []string{"small", "large"} {
		if b, _, err := store.Load(ctx, id); !errors.Is(err, server.ErrTaskNotFound) {
			t.Errorf("Load of the %s record 300 ms past its expiry: %d bytes, %v; want ErrTaskNotFound", id, len(b), err)
		}
		if err := store.Create(ctx, id, []byte(`{"v":2}`), time.Now().Add(time.Minute)); err != nil {
			t.Errorf("Create of the %s record's id once it expired: %v, want nil (an expired id is not taken)", id, err)
		}
	}
	if n := liveObjects(t, c); n != 0 {
		t.Errorf("%d objects still stored for a large record past its expiry", n)
	}
}
