package server

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"
)

// TestHTTPKeepAliveOptionInterval: HTTPOptions.KeepAlive picks the
// interval — 0 the 15 s default, a negative value none, anything under
// 1 s is raised to 1 s.
func TestHTTPKeepAliveOptionInterval(t *testing.T) {
	for _, c := range []struct{ in, want time.Duration }{
		{0, defaultKeepAlive},
		{-1, 0},
		{-time.Hour, 0},
		{time.Nanosecond, time.Second},
		{999 * time.Millisecond, time.Second},
		{time.Second, time.Second},
		{2 * time.Minute, 2 * time.Minute},
	} {
		h := newHTTPHandler(newFakeCore(), HTTPOptions{KeepAlive: c.in})
		if h.keepAlive != c.want {
			t.Errorf("KeepAlive %v: interval %v, want %v", c.in, h.keepAlive, c.want)
		}
	}
}

// TestHTTPKeepAliveOptionOnTheWire: a listen stream of a handler with
// KeepAlive 1 ns gets its comments once a second (the floor), one with a
// negative KeepAlive none, over the same window.
func TestHTTPKeepAliveOptionOnTheWire(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	open := func(keepAlive time.Duration) *keepAliveReader {
		srv := httptest.NewServer(newHTTPHandler(newFakeCore(), HTTPOptions{KeepAlive: keepAlive}))
		t.Cleanup(srv.Close)
		resp := httpPost(t, ctx, srv.Client(), srv.URL, reqBody("1", methodListen, ""), stdHeaders(methodListen, ""))
		t.Cleanup(func() { resp.Body.Close() })
		return readKeepAlives(resp.Body)
	}
	floor, none := open(time.Nanosecond), open(-1)
	time.Sleep(2600 * time.Millisecond)
	if n, _ := floor.comments(); n < 1 || n > 3 {
		t.Errorf("KeepAlive 1ns: %d comments in 2.6 s, want 1–3 (one per second)", n)
	}
	if n, _ := none.comments(); n != 0 {
		t.Errorf("KeepAlive -1: %d comments, want none", n)
	}
}
