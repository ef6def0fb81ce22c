package server

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// keepAliveReader reads a listen stream line by line and records when each
// keep-alive comment arrived and how many notifications came.
type keepAliveReader struct {
	mu     sync.Mutex
	at     []time.Time
	events int
	done   chan struct{}
}

func readKeepAlives(body io.Reader) *keepAliveReader {
	r := &keepAliveReader{done: make(chan struct{})}
	go func() {
		defer close(r.done)
		sc := bufio.NewScanner(body)
		for sc.Scan() {
			r.mu.Lock()
			switch line := sc.Text(); {
			case line == ":":
				r.at = append(r.at, time.Now())
			case strings.HasPrefix(line, "data:"):
				r.events++
			}
			r.mu.Unlock()
		}
	}()
	return r
}

func (r *keepAliveReader) comments() (n int, maxGap time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := 1; i < len(r.at); i++ {
		maxGap = max(maxGap, r.at[i].Sub(r.at[i-1]))
	}
	return len(r.at), maxGap
}

// smallBuffers gives every accepted connection a tiny send buffer, so a
// client that stops reading fills it soon.
type smallBuffers struct{ net.Listener }

func (l smallBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetWriteBuffer(1024)
	}
	return c, err
}

// TestHTTPKeepAliveStuckClientClosed: a listen stream whose client stopped
// reading until its connection's buffers are full is closed by the shared
// loop's bounded keep-alive write (well before Limits.WriteTimeout, 30 s),
// its handler unwinds and leaves the keep-alive set, and the loop is not
// held up: another stream's keep-alives keep their pace meanwhile. The
// stuck stream costs the server its socket buffer, nothing more.
func TestHTTPKeepAliveStuckClientClosed(t *testing.T) {
	const every = 4 * time.Millisecond // an interval no other test uses
	k := limitServer(t, Limits{})
	core := newFakeCore()
	h := newHTTPHandler(core, HTTPOptions{})
	h.keepAlive = every
	srv := httptest.NewUnstartedServer(k.s.limitHTTP(h)) // with the deadlineWriter of WriteTimeout
	srv.Listener = smallBuffers{srv.Listener}
	srv.Start()
	defer srv.Close()
	set := keepAliveEvery(every)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp := httpPost(t, ctx, srv.Client(), srv.URL, reqBody("1", methodListen, ""), stdHeaders(methodListen, ""))
	defer resp.Body.Close()
	healthy := readKeepAlives(resp.Body)
	httpWaitFor(t, "the healthy stream's first keep-alives", func() bool { n, _ := healthy.comments(); return n >= 3 })

	d := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		return c.Control(func(fd uintptr) { _ = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 1024) })
	}}
	conn, err := d.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := reqBody(`"stuck"`, methodListen, "")
	head := "POST / HTTP/1.1\r\nHost: " + srv.Listener.Addr().String() + "\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n"
	hd := stdHeaders(methodListen, "")
	for i := 0; i < len(hd); i += 2 {
		head += hd[i] + ": " + hd[i+1] + "\r\n"
	}
	if _, err := io.WriteString(conn, head+"\r\n"+body); err != nil {
		t.Fatal(err)
	}
	httpWaitFor(t, "both streams in the keep-alive set", func() bool { return set.count() == 2 })
	n0, _ := healthy.comments()
	start := time.Now()
	select { // never reads: the loop's writes fill the buffers, then one times out
	case id := <-core.cancelled:
		if id != `"stuck"` {
			t.Fatalf("cancelled %s, want the stuck stream", id)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("a listen stream whose client stopped reading was not closed by its keep-alives")
	}
	httpWaitFor(t, "the stuck stream leaving the keep-alive set", func() bool { return set.count() == 1 })
	n1, gap := healthy.comments()
	if n1-n0 < 3 {
		t.Errorf("the healthy stream got %d keep-alives in %v (every %v)", n1-n0, time.Since(start), every)
	}
	if gap > 2*time.Second { // a write held for WriteTimeout would be 30 s
		t.Errorf("the healthy stream waited %v for a keep-alive: the loop was held up", gap)
	}
}

// noDeadline hides the ResponseWriter's write deadline (and everything but
// flushing), like a middleware that wraps it without Unwrap.
type noDeadline struct{ http.ResponseWriter }

func (w noDeadline) Flush() { w.ResponseWriter.(http.Flusher).Flush() }

// TestHTTPKeepAliveWithoutDeadline: where the ResponseWriter cannot set a
// write deadline, the loop does not write itself (it could block on a
// client that stopped reading) but the stream still gets its keep-alives.
func TestHTTPKeepAliveWithoutDeadline(t *testing.T) {
	const every = 7 * time.Millisecond // an interval no other test uses
	h := newHTTPHandler(newFakeCore(), HTTPOptions{})
	h.keepAlive = every
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(noDeadline{w}, r)
	}))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp := httpPost(t, ctx, srv.Client(), srv.URL, reqBody("1", methodListen, ""), stdHeaders(methodListen, ""))
	defer resp.Body.Close()
	r := readKeepAlives(resp.Body)
	httpWaitFor(t, "keep-alives on a writer without deadlines", func() bool { n, _ := r.comments(); return n >= 3 })
}

// TestHTTPKeepAliveOnlyWhenIdle: a listen stream that carries a
// notification more often than the keep-alive interval gets no keep-alive
// comments; once it goes quiet, it gets them again.
func TestHTTPKeepAliveOnlyWhenIdle(t *testing.T) {
	const every = 400 * time.Millisecond // an interval no other test uses
	core := newFakeCore()
	h := newHTTPHandler(core, HTTPOptions{})
	h.keepAlive = every
	srv := httptest.NewServer(h)
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp := httpPost(t, ctx, srv.Client(), srv.URL, reqBody("1", methodListen, ""), stdHeaders(methodListen, ""))
	defer resp.Body.Close()
	r := readKeepAlives(resp.Body)
	httpWaitFor(t, "the listen stream", func() bool { return core.listenerCount() == 1 })
	// 5 intervals, a notification every eighth of one. A loaded machine can
	// stall the sender for longer than an interval, and then a keep-alive is
	// due: such an attempt proves nothing and is repeated.
	sent, judged := 0, false
	for attempt := 0; attempt < 5 && !judged; attempt++ {
		// A keep-alive written before the first notification may still be
		// on its way to the reader: count from the eighth.
		var before int
		var maxGap time.Duration
		last := time.Now()
		for i := range 48 {
			core.broadcast("notifications/tools/list_changed")
			sent++
			time.Sleep(every / 8)
			now := time.Now()
			maxGap = max(maxGap, now.Sub(last))
			last = now
			if i == 7 {
				before, _ = r.comments()
			}
		}
		if maxGap >= every/2 {
			t.Logf("attempt %d: the sender stalled for %v; trying again", attempt, maxGap)
			continue
		}
		judged = true
		if n, _ := r.comments(); n != before {
			t.Errorf("a stream with a notification every %v got %d keep-alives (interval %v)", every/8, n-before, every)
		}
	}
	if !judged {
		t.Fatalf("the machine never let 40 notifications go out %v apart", every/8)
	}
	httpWaitFor(t, "the notifications", func() bool {
		r.mu.Lock()
		defer r.mu.Unlock()
		return r.events >= sent/2
	})
	httpWaitFor(t, "keep-alives once the stream is quiet", func() bool { n, _ := r.comments(); return n >= 2 })
}

// TestLegacyGETStreamKeepAlives: a legacy session's GET stream gets its
// keep-alives from the shared loop too, and leaves the set when it ends.
func TestLegacyGETStreamKeepAlives(t *testing.T) {
	const every = 9 * time.Millisecond // an interval no other test uses
	f := newFixture(t)
	h := newHTTPHandler(f.s, HTTPOptions{})
	h.keepAlive = every
	srv := httptest.NewServer(f.s.limitHTTP(h))
	defer srv.Close()
	c := openSession(t, srv.URL, fullCaps)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", c.sid)
	resp, err := srv.Client().Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET stream: %v %v", err, resp)
	}
	defer resp.Body.Close()
	r := readKeepAlives(resp.Body)
	httpWaitFor(t, "keep-alives on the GET stream", func() bool { n, _ := r.comments(); return n >= 3 })
	set := keepAliveEvery(every)
	if n := set.count(); n != 1 {
		t.Fatalf("%d streams in the keep-alive set, want 1", n)
	}
	cancel()
	httpWaitFor(t, "the closed GET stream leaving the keep-alive set", func() bool { return set.count() == 0 })
}
