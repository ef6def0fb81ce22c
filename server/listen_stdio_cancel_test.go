package server

import (
	"testing"
	"time"
)

// A stdio listen stream parked on its wake channel ends when the client
// cancels it (notifications/cancelled): its handler returns and it leaves
// the set of streams, with changes still being published.
func TestStdioListenEndsWhenCancelled(t *testing.T) {
	f := newFixture(t)
	p := startStdio(t, f.s, 0)
	p.send(`{"jsonrpc":"2.0","id":41,"method":"subscriptions/listen","params":` + withMeta(`{"notifications":{"toolsListChanged":true}}`, defaultMeta) + `}`)
	if m := p.next(); m["method"] != "notifications/subscriptions/acknowledged" {
		t.Fatalf("ack %v", m)
	}
	p.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":41}}`)
	deadline := time.Now().Add(2 * time.Second)
	for {
		f.s.subs.mu.Lock()
		n := len(f.s.subs.set)
		f.s.subs.mu.Unlock()
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("cancelled stdio listen stream still subscribed")
		}
		time.Sleep(5 * time.Millisecond)
	}
	// The connection still serves requests.
	p.send(`{"jsonrpc":"2.0","id":42,"method":"ping","params":` + withMeta(`{}`, defaultMeta) + `}`)
	if m := p.next(); idOf(m) != "42" {
		t.Fatalf("ping after the cancel: %v", m)
	}
}
