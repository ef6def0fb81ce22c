package client

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// TestListenQueueBoundsBytes: a consumer that reads nothing while large
// notifications arrive has its stream ended with ErrListenOverflow before
// the queue holds more than maxListenQueueBytes, whatever their count.
func TestListenQueueBoundsBytes(t *testing.T) {
	stopped := false
	q := newListenQueue(func() { stopped = true })
	big := json.RawMessage(`{"message":"` + strings.Repeat("x", 1<<20) + `"}`)
	pushed := 0
	for range 100 {
		q.push("notifications/message", big)
		if q.err != nil {
			break
		}
		pushed++
	}
	if !stopped || !errors.Is(q.err, ErrListenOverflow) {
		t.Fatalf("after %d notifications of 1 MiB: stopped %v, err %v", pushed, stopped, q.err)
	}
	if q.bytes > maxListenQueueBytes || pushed >= maxListenQueue {
		t.Fatalf("the queue holds %d bytes in %d notifications (bounds %d bytes)", q.bytes, pushed, maxListenQueueBytes)
	}
	done := make(chan struct{})
	for range pushed {
		if _, err := q.next(done); err != nil {
			t.Fatalf("a queued notification: %v", err)
		}
	}
	if _, err := q.next(done); !errors.Is(err, ErrListenOverflow) {
		t.Fatalf("after the queued ones: %v, want ErrListenOverflow", err)
	}
}

// TestProgressRelayBoundsBytes: a progress callback that is slow holds at
// most maxQueuedProgressBytes of queued notifications; the newest are
// kept, and one larger than the whole budget is dropped.
func TestProgressRelayBoundsBytes(t *testing.T) {
	release := make(chan struct{})
	var got []float64
	r := &progressRelay{fn: func(p mcp.ProgressNotificationParams) {
		<-release
		got = append(got, p.Progress)
	}}
	const size = 300 << 10
	for i := range 20 {
		r.push(mcp.ProgressNotificationParams{Progress: float64(i)}, size)
		r.mu.Lock()
		if r.bytes > maxQueuedProgressBytes {
			t.Fatalf("after %d pushes the relay holds %d bytes", i+1, r.bytes)
		}
		r.mu.Unlock()
	}
	r.push(mcp.ProgressNotificationParams{Progress: 99}, maxQueuedProgressBytes+1)
	close(release)
	r.flush()
	if len(got) == 0 || got[len(got)-1] != 19 {
		t.Fatalf("delivered %v: want the newest (19) last, and the oversized one (99) dropped", got)
	}
	if len(got) > 1+maxQueuedProgressBytes/size {
		t.Fatalf("delivered %d notifications of %d bytes: more than the budget holds", len(got), size)
	}
}
