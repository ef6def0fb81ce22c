package server

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// TestRateLimitIPv6RotatorIsOneClient: README "Rate limits": an anonymous
// HTTP client is its remote address, an IPv6 one its /64. A lone caller
// with a /64 of its own (what one host usually holds) that sends every
// request from a new address of it once made a new client each time: on a
// server with no other traffic its old buckets went idle one refill period
// later and were replaced by fresh, full ones, so it had MaxClients times
// one client's rate (2020 requests admitted here, where one client's rate
// is 21). Keyed by the /64 it is one client. A caller rotating among many
// /64s holds that many keys and is that many clients, each with its own
// rate; the table's cap bounds how many are counted apart at once, so such
// a caller gets at most MaxClients clients' rate. (The keys come from
// rateKey, as for a request; take is what admitRate calls with them; the
// clock is simulated, so the counts are exact.)
func TestRateLimitIPv6RotatorIsOneClient(t *testing.T) {
	const (
		perSecond  = 10
		maxClients = 100
		span       = 2 * time.Second
	)
	rotate := func(addr func(n int) string) int {
		s, err := New(Options{Name: "rate", Version: "1", Limits: Limits{Rate: RateLimit{PerSecond: perSecond, Burst: 1, MaxClients: maxClients}}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Shutdown(t.Context()) })
		start := time.Now()
		admitted, n := 0, 0
		for at := time.Duration(0); at < span; at += 100 * time.Microsecond { // 20 000 requests, each from a new address
			ctx := withClientID(context.Background(), "http:"+addr(n)+":4242")
			if s.rate.take(s.rateKey(ctx), start.Add(at)) == 0 {
				admitted++
			}
			n++
		}
		return admitted
	}
	oneClient := 1 + int(perSecond*span.Seconds()) // its burst, plus perSecond a second
	if got := rotate(func(n int) string { return fmt.Sprintf("[2001:db8::%x]", n) }); got > oneClient {
		t.Errorf("a caller rotating the addresses of one /64 had %d requests admitted over %v; one client's rate is %d", got, span, oneClient)
	}
	if got := rotate(func(n int) string { return fmt.Sprintf("[2001:db8:%x::1]", n) }); got > maxClients*oneClient {
		t.Errorf("a caller rotating /64s had %d requests admitted over %v; MaxClients clients' rate is %d", got, span, maxClients*oneClient)
	}
}

// TestRateLimitAddressClient: an IPv4 address (an IPv4-mapped IPv6 one
// too) is its own client, an IPv6 address counts by its /64.
func TestRateLimitAddressClient(t *testing.T) {
	for in, want := range map[string]string{
		"10.0.0.1":            "10.0.0.1",
		"::ffff:10.0.0.1":     "10.0.0.1",
		"2001:db8::1":         "2001:db8::/64",
		"2001:db8::ffff:1":    "2001:db8::/64",
		"2001:db8:0:1::1":     "2001:db8:0:1::/64",
		"2001:DB8::abcd:1234": "2001:db8::/64",
		"fe80::1%eth0":        "fe80::/64",
		"::1":                 "::/64",
		"pipe":                "pipe",
	} {
		if got := addressClient(in); got != want {
			t.Errorf("addressClient(%q) = %q, want %q", in, got, want)
		}
	}
}
