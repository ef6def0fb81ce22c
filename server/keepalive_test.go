package server

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestKeepAlivesOneTicker: members of one interval are all kicked by one
// ticker; one that leaves is no longer kicked, and the ticker stops when
// the last leaves (and starts again for a new member).
func TestKeepAlivesOneTicker(t *testing.T) {
	k := keepAliveEvery(3 * time.Millisecond)
	if keepAliveEvery(3*time.Millisecond) != k {
		t.Fatal("two sets for one interval")
	}
	var kicks []<-chan struct{}
	var leaves []func()
	for range 100 {
		c, l := k.join()
		kicks, leaves = append(kicks, c), append(leaves, l)
	}
	if k.members() != 100 {
		t.Fatalf("%d members, want 100", k.members())
	}
	for round := range 3 {
		for i, c := range kicks {
			select {
			case <-c:
			case <-time.After(5 * time.Second):
				t.Fatalf("round %d: member %d never kicked", round, i)
			}
		}
	}
	leaves[0]()
	if k.members() != 99 {
		t.Fatalf("%d members after one left, want 99", k.members())
	}
	for _, l := range leaves[1:] {
		l()
	}
	k.mu.Lock()
	running := k.stop != nil
	k.mu.Unlock()
	if k.members() != 0 || running {
		t.Fatalf("members %d, ticker running %v after all left", k.members(), running)
	}
	c, l := k.join()
	defer l()
	select {
	case <-c:
	case <-time.After(5 * time.Second):
		t.Fatal("a member joining an emptied set is never kicked")
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
	if n := k.members(); n != 20 {
		t.Fatalf("%d streams in the keep-alive set, want 20", n)
	}
	for _, c := range cancels {
		c()
	}
	deadline := time.Now().Add(5 * time.Second)
	for k.members() != 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if n := k.members(); n != 0 {
		t.Fatalf("%d closed streams still in the keep-alive set", n)
	}
}
