package server

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"
)

// A subscriptions/listen POST admitted before the drain but still in its
// interceptor when Shutdown begins (any interceptor that does work before
// next: auth lookups, tracing; here it waits, to make the window
// deterministic) is waited for like any admitted request, and is served:
// acknowledged, then ended by the drain with its result. (It used to be
// forgotten: the drain counted requests in flight but not listen streams,
// so Shutdown returned at once, and the listen then answered with its
// result without the acknowledgement.)
//
// Shutdown's doc: "A request admitted before the drain is served to its
// end: its interceptors call next" and "It returns nil when everything
// finished within ctx"; step 2 ends listen streams "once the stream has
// sent the changes that were waiting for it". subscriptions.mdx,
// "Acknowledgment": "The server MUST send
// notifications/subscriptions/acknowledged as the first message carrying
// the subscription's ID in _meta" — the result carries that ID too.
func TestDrainWaitsForListenInInterceptorAndAcknowledgesIt(t *testing.T) {
	entered := make(chan struct{}, 1)
	release := make(chan struct{})
	hold := func(next Handler) Handler {
		return func(ctx context.Context, req *Request) (json.RawMessage, error) {
			if req.Method == "subscriptions/listen" {
				entered <- struct{}{}
				<-release
			}
			return next(ctx, req)
		}
	}
	s, err := New(Options{Name: "i", Version: "1", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Interceptors: []Interceptor{hold}, Tools: []Tool{weatherTool()}})
	if err != nil {
		t.Fatal(err)
	}
	h := startLimitedHTTP(t, s)
	got := make(chan string, 1)
	go func() {
		r := newPost(t, h.url, reqBody("9", methodListen, `"notifications":{"toolsListChanged":true}`), stdHeaders(methodListen, ""))
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			got <- "error: " + err.Error()
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		got <- string(b)
	}()
	select {
	case <-entered:
	case <-time.After(5 * time.Second):
		t.Fatal("the listen never reached the interceptor")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	shut := make(chan error, 1)
	go func() { shut <- s.Shutdown(ctx) }()
	waitUntil(t, "the drain to begin", s.isClosing)

	shutDone := false
	select {
	case err := <-shut:
		shutDone = true
		t.Errorf("Shutdown returned %v while an admitted listen request was still in its interceptor, unanswered", err)
	case <-time.After(300 * time.Millisecond):
	}
	close(release)
	var body string
	select {
	case body = <-got:
	case <-time.After(5 * time.Second):
		t.Fatal("the listen was not ended by the drain")
	}
	// Refusing it would be fine (an error carries no subscription id); a
	// result carries the subscription id, so the ack must come before it.
	var data []string
	for _, line := range strings.Split(body, "\n") {
		if d, ok := strings.CutPrefix(line, "data: "); ok {
			data = append(data, d)
		}
	}
	if len(data) > 0 && strings.Contains(data[len(data)-1], `"result"`) &&
		(len(data) < 2 || !strings.Contains(data[0], `"notifications/subscriptions/acknowledged"`)) {
		t.Errorf("listen stream %q: a result with no acknowledgement before it", body)
	}
	// Admitted before the drain, it is served: acknowledged with what it
	// asked for, then ended gracefully.
	if len(data) != 2 || !strings.Contains(data[0], `"notifications":{"toolsListChanged":true}`) ||
		!strings.Contains(data[1], `"result"`) {
		t.Errorf("listen stream %q: want the acknowledgement, then the result", body)
	}
	if !shutDone {
		select {
		case <-shut:
		case <-time.After(5 * time.Second):
			t.Error("Shutdown did not return")
		}
	}
}
