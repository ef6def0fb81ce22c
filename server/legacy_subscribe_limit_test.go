package server

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// A legacy session subscribes to at most maxSessionSubscriptions URIs:
// one more is refused with -32602, a URI it holds
// already may be subscribed again, and an unsubscribe makes room.
func TestLegacySubscriptionsPerSessionAreBounded(t *testing.T) {
	f := newFixture(t)
	p := startLegacyStdio(t, f.s)
	p.initialize("2025-06-18", `{}`)
	uri := func(i int) string { return "test://items/" + strconv.Itoa(i) + "/data" }
	subscribe := func(id, method, u string) map[string]any {
		p.call(id, method, `{"uri":"`+u+`"}`)
		m, _ := p.response(id)
		return m
	}
	for i := range maxSessionSubscriptions {
		if m := subscribe(strconv.Itoa(i+1), "resources/subscribe", uri(i)); m["error"] != nil {
			t.Fatalf("subscription %d refused: %v", i, m)
		}
	}
	m := subscribe("5001", "resources/subscribe", uri(maxSessionSubscriptions))
	e, _ := m["error"].(map[string]any)
	if e == nil || e["code"] != float64(-32602) || !strings.Contains(e["message"].(string), "1024 URIs") {
		t.Fatalf("subscription past the limit: %v", m)
	}
	if m := subscribe("5002", "resources/subscribe", uri(0)); m["error"] != nil {
		t.Fatalf("subscribing a held URI again: %v", m)
	}
	if m := subscribe("5003", "resources/unsubscribe", uri(0)); m["error"] != nil {
		t.Fatalf("unsubscribe: %v", m)
	}
	if m := subscribe("5004", "resources/subscribe", uri(maxSessionSubscriptions)); m["error"] != nil {
		t.Fatalf("after an unsubscribe: %v", m)
	}
}

// Long URIs: a session holds maxSessionSubscriptionBytes of them at most.
func TestLegacySubscriptionBytesPerSessionAreBounded(t *testing.T) {
	f := newFixture(t)
	p := startLegacyStdio(t, f.s)
	p.initialize("2025-06-18", `{}`)
	pad := strings.Repeat("x", 16<<10)
	for i := 0; ; i++ {
		if i > maxSessionSubscriptionBytes/len(pad) {
			t.Fatalf("%d URIs of 16 KiB held", i)
		}
		id := strconv.Itoa(i + 1)
		p.call(id, "resources/subscribe", `{"uri":"test://items/`+id+pad+`/data"}`)
		m, _ := p.response(id)
		if e, _ := m["error"].(map[string]any); e != nil {
			if e["code"] != float64(-32602) || i < maxSessionSubscriptionBytes/len(pad)-1 {
				t.Fatalf("subscription %d: %v", i, m)
			}
			return
		}
	}
}

// A legacy GET stream that is behind by more than its buffer holds gets
// every message once it reads again; once it ends, a send fails instead
// of waiting.
func TestLegacyStreamBehindLosesNothing(t *testing.T) {
	f := newFixture(t)
	l := f.s.newLegacySession(nil)
	ch, gone := make(chan []byte, 4), make(chan struct{})
	l.stream, l.streamGone = ch, gone
	const n = 50
	errs := make(chan error, 1)
	go func() {
		for i := range n {
			if err := l.sendStream([]byte(strconv.Itoa(i))); err != nil {
				errs <- err
				return
			}
		}
		errs <- nil
	}()
	time.Sleep(50 * time.Millisecond) // the sender fills the buffer and waits
	for i := range n {
		if got := string(<-ch); got != strconv.Itoa(i) {
			t.Fatalf("message %d is %q", i, got)
		}
	}
	if err := <-errs; err != nil {
		t.Fatalf("sendStream: %v", err)
	}
	for range cap(ch) {
		ch <- nil
	}
	go func() {
		time.Sleep(20 * time.Millisecond)
		close(gone)
	}()
	if err := l.sendStream([]byte("x")); err != errStreamBroken {
		t.Fatalf("send to an ended stream: %v", err)
	}
}
