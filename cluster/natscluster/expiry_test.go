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
// keeps expiring at expires". A record (small, or large with its object)
// past its expiry reads as gone, its id is free for Create — read first or
// not — and no object of it stays behind (clustertest.Memory and the Redis
// store expire them alike); the buckets' TTL (Options.TaskRetention) only
// bounds what nobody reads again.
func TestRecordExpiresAtItsExpiry(t *testing.T) {
	url := startNATS(t)
	c := connect(t, url)
	ctx, store := t.Context(), c.Tasks()
	large := bytes.Repeat([]byte("x"), 2<<20)
	for _, tc := range []struct {
		id     string
		record []byte
	}{{"small", []byte(`{"v":1}`)}, {"large", large}, {"unread", large}} {
		if err := store.Create(ctx, tc.id, tc.record, time.Now().Add(200*time.Millisecond)); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(500 * time.Millisecond)
	for _, id := range []string{"small", "large"} {
		if b, _, err := store.Load(ctx, id); !errors.Is(err, server.ErrTaskNotFound) {
			t.Errorf("Load of the %s record 300 ms past its expiry: %d bytes, %v; want ErrTaskNotFound", id, len(b), err)
		}
	}
	for _, id := range []string{"small", "large", "unread"} {
		if err := store.Create(ctx, id, []byte(`{"v":2}`), time.Now().Add(time.Minute)); err != nil {
			t.Errorf("Create of the %s record's id once it expired: %v, want nil (an expired id is not taken)", id, err)
		}
		if b, _, err := store.Load(ctx, id); err != nil || string(b) != `{"v":2}` {
			t.Errorf("Load of the %s record created again: %q, %v", id, b, err)
		}
	}
	if n := liveObjects(t, c); n != 0 {
		t.Errorf("%d objects still stored for large records past their expiry", n)
	}
}
