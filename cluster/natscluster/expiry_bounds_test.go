package natscluster

import (
	"errors"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/server"
)

// server.TaskStore: "Load returns the record ... (ErrTaskNotFound when id
// is unknown or expired)": a record is not expired before its expiry. The
// stored expiry is whole milliseconds; truncated, it made a record read as
// gone up to a millisecond early (the owner, finding it gone before its
// expiry, then re-creates it).
func TestStoredExpiryIsNotBeforeTheExpiry(t *testing.T) {
	base := time.Now().Add(time.Hour).Truncate(time.Millisecond)
	for _, d := range []time.Duration{0, 1, 500 * time.Microsecond, time.Millisecond - 1} {
		want := base.Add(d)
		got, _, ok := splitExpiry(withExpiry(want, []byte(`{}`)))
		if !ok || got.Before(want) {
			t.Errorf("expiry %v stored as %v (ok %v): a record would read as gone %v before its expiry", want, got, ok, want.Sub(got))
		}
	}
}

// server.TaskStore: "Swap replaces the record if its revision is still
// revision (ErrTaskConflict otherwise; ErrTaskNotFound when it is gone).
// The record keeps expiring at expires." A record past its expiry is gone
// (Load says so, and clustertest.Memory refuses the Swap): a Swap from a
// revision read before the expiry must not write it back.
func TestSwapOfAnExpiredRecordIsNotFound(t *testing.T) {
	url := startNATS(t)
	c := connect(t, url)
	ctx, store := t.Context(), c.Tasks()
	exp := time.Now().Add(150 * time.Millisecond)
	if err := store.Create(ctx, "t1", []byte(`{"v":1}`), exp); err != nil {
		t.Fatal(err)
	}
	_, rev, err := store.Load(ctx, "t1")
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	if err := store.Swap(ctx, "t1", []byte(`{"v":2}`), rev, exp); !errors.Is(err, server.ErrTaskNotFound) {
		t.Errorf("Swap of a record past its expiry: %v, want ErrTaskNotFound", err)
	}
}
