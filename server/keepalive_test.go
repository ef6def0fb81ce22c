package server

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestKeepAlivesOneTicker: members of one interval are all sent
// keep-alives by one loop; one that leaves is no longer sent any, and the
// ticker stops when the last leaves (and starts again for a new member).
func TestKeepAlivesOneTicker(t *testing.T) {
	k := keepAliveEvery(3 * time.Millisecond)
	if keepAliveEvery(3*time.Millisecond) != k {
		t.Fatal("two sets for one interval")
	}
	var sent [100]atomic.Int64
	var members []*keepAlive
	for i := range sent {
		members = append(members, k.join(func() { sent[i].Add(1) }))
	}
	if k.count() != 100 {
		t.Fatalf("%d members, want 100", k.count())
	}
	for i := range sent {
		httpWaitFor(t, fmt.Sprintf("member %d sent 3 keep-alives", i), func() bool { return sent[i].Load() >= 3 })
	}
	members[0].leave()
	if k.count() != 99 {
		t.Fatalf("%d members after one left, want 99", k.count())
	}
	after := sent[0].Load()
	for _, m := range members[1:] {
		m.leave()
	}
	k.mu.Lock()
	running := k.stop != nil
	k.mu.Unlock()
	if k.count() != 0 || running {
		t.Fatalf("members %d, ticker running %v after all left", k.count(), running)
	}
	if n := sent[0].Load(); n > after+1 { // one send may race with leave
		t.Errorf("a member that left got %d more keep-alives", n-after)
	}
	kick := make(chan struct{}, 1)
	ka := k.join(func() {
		select {
		case kick <- struct{}{}:
		default:
		}
	})
	defer ka.leave()
	select {
	case <-kick:
	case <-time.After(5 * time.Second):
		t.Fatal("a member joining an emptied set is never sent a keep-alive")
	}
}

// TestKeepAlivesOnlyIdle: a member that writes more often than the
// interval is never sent a keep-alive, and an idle one gets about one per
// interval, never more.
func TestKeepAlivesOnlyIdle(t *testing.T) {
	const every, intervals = 200 * time.Millisecond, 10 // an interval no other test uses
	k := keepAliveEvery(every)
	var busySent, idleSent atomic.Int64
	busy := k.join(func() { busySent.Add(1) })
	defer busy.leave()
	idle := k.join(func() { idleSent.Add(1) })
	defer idle.leave()
	joined := time.Now()
	for time.Since(joined) < intervals*every {
		busy.wrote()
		time.Sleep(every / 8)
	}
	if n := busySent.Load(); n != 0 {
		t.Errorf("a stream writing every %v got %d keep-alives", every/8, n)
	}
	if n := idleSent.Load(); n < intervals/2 || n > intervals+1 {
		t.Errorf("idle stream got %d keep-alives in %d intervals, want about %d and never more", n, intervals, intervals)
	}
}

// TestHTTPListenKeepAliveShared: 20 listen streams all get keep-alive
// comments from the one shared ticker, and a stream that closes leaves it.
func TestHTTPListenKeepAliveShared(t *testing.T) {
	const every = 11 * time.Millisecond // an interval no other test uses
	h := newHTTPHandler(newFakeCore(), HTTPOptions{})
	h.keepAlive = every
	srv := httptest.NewServer(h)
	defer srv.Close()
	k := keepAliveEvery(every)
	var cancels []context.CancelFunc
	for i := range 20 {
		ctx, cancel := context.WithCancel(context.Background())
		cancels = append(cancels, cancel)
		resp := httpPost(t, ctx, srv.Client(), srv.URL, reqBody("1", methodListen, ""), stdHeaders(methodListen, ""))
		defer resp.Body.Close()
		buf := make([]byte, 0, 4096)
		deadline := time.Now().Add(5 * time.Second)
		for strings.Count(string(buf), "\n:\n") < 2 && time.Now().Before(deadline) {
			p := make([]byte, 512)
			n, err := resp.Body.Read(p)
			buf = append(buf, p[:n]...)
			if err != nil {
				break
			}
		}
		if strings.Count(string(buf), "\n:\n") < 2 {
			t.Fatalf("stream %d: fewer than two keep-alive comments in %q", i, buf)
		}
	}
	if n := k.count(); n != 20 {
		t.Fatalf("%d streams in the keep-alive set, want 20", n)
	}
	for _, c := range cancels {
		c()
	}
	deadline := time.Now().Add(5 * time.Second)
	for k.count() != 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if n := k.count(); n != 0 {
		t.Fatalf("%d closed streams still in the keep-alive set", n)
	}
}
