package server

import (
	"fmt"
	"testing"
	"time"
)

// TestAttackRateLimitLoneKeyRotator: README "Rate limits": "At most
// MaxClients buckets are kept ...: a bucket idle long enough to be full
// again is dropped when room is needed, and when none is, new clients
// share one overflow bucket — a caller rotating keys (addresses, tokens)
// gets one client's rate in all". A caller that rotates keys on a server
// with no other traffic (an IPv6 client has a /64 of addresses, and the
// client is its full remote IP address) fills the table with its own
// keys; each of them is idle again one refill period later, so each
// period it gets MaxClients fresh, full buckets: MaxClients times one
// client's rate, not one client's rate. (take is what admitRate calls for
// every request; the clock is simulated, so the count is exact.)
func TestAttackRateLimitLoneKeyRotator(t *testing.T) {
	const (
		perSecond  = 10
		maxClients = 100
	)
	tb := newRateTable(RateLimit{PerSecond: perSecond, Burst: 1, MaxClients: maxClients})
	start := time.Now()
	const span = 2 * time.Second
	admitted, n := 0, 0
	for at := time.Duration(0); at < span; at += 100 * time.Microsecond { // 20 000 requests, each from a new address
		if tb.take(fmt.Sprintf("http:2001:db8::%x", n), start.Add(at)) == 0 {
			admitted++
		}
		n++
	}
	// One client's rate over the span is its burst plus perSecond a second;
	// allow the table's first fill (maxClients new clients, one burst each)
	// on top.
	limit := 1 + int(perSecond*span.Seconds()) + maxClients
	if admitted > limit {
		t.Errorf("a lone caller rotating %d addresses over %v had %d requests admitted; one client's rate (plus the table's first fill) is %d",
			n, span, admitted, limit)
	}
}
