package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

type listenRun struct {
	w    *recorder
	done chan Response
	stop context.CancelFunc
}

func startListen(t *testing.T, s *Server, id, filter string) *listenRun {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	l := &listenRun{w: newRecorder(), done: make(chan Response, 1), stop: cancel}
	msg := `{"jsonrpc":"2.0","id":` + id + `,"method":"subscriptions/listen","params":` + withMeta(`{"notifications":`+filter+`}`, defaultMeta) + `}`
	go func() { l.done <- s.HandleBytes(ctx, []byte(msg), l.w) }()
	t.Cleanup(cancel)
	return l
}

func (l *listenRun) next(t *testing.T) note {
	t.Helper()
	select {
	case n := <-l.w.ch:
		return n
	case <-time.After(2 * time.Second):
		t.Fatal("no notification on the listen stream")
		return note{}
	}
}

func (l *listenRun) none(t *testing.T, d time.Duration) {
	t.Helper()
	select {
	case n := <-l.w.ch:
		t.Fatalf("unexpected notification %s %s", n.Method, n.Params)
	case <-time.After(d):
	}
}

func subID(t *testing.T, n note) string {
	t.Helper()
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if err := json.Unmarshal(n.Params, &p); err != nil {
		t.Fatal(err)
	}
	return string(p.Meta["io.modelcontextprotocol/subscriptionId"])
}

func TestListenAckTaggingAndFilter(t *testing.T) {
	f := newFixture(t)
	tools := startListen(t, f.s, "77", `{"toolsListChanged":true,"resourceSubscriptions":["test://static-text"],"unknownThing":true}`)
	ack := tools.next(t)
	if ack.Method != "notifications/subscriptions/acknowledged" || subID(t, ack) != "77" {
		t.Fatalf("first frame %s %s", ack.Method, ack.Params)
	}
	if !strings.Contains(string(ack.Params), `"notifications":{"resourceSubscriptions":["test://static-text"],"toolsListChanged":true}`) {
		t.Errorf("granted filter %s", ack.Params)
	}
	prompts := startListen(t, f.s, `"p-1"`, `{"promptsListChanged":true}`)
	if ack := prompts.next(t); subID(t, ack) != `"p-1"` {
		t.Fatalf("string id ack %s", ack.Params)
	}

	f.s.AddTools(NewTool(ToolInfo{Name: "transient", Description: "transient"}, func(ctx context.Context, in noArgs) (string, error) { return "", nil }))
	n := tools.next(t)
	if n.Method != "notifications/tools/list_changed" || subID(t, n) != "77" {
		t.Errorf("tools stream got %s %s", n.Method, n.Params)
	}
	prompts.none(t, 100*time.Millisecond) // filter honoured

	f.s.AddPrompts(NewPrompt(PromptInfo{Name: "transient", Description: "transient"}, func(ctx context.Context, in noArgs) (string, error) { return "x", nil }))
	if n := prompts.next(t); n.Method != "notifications/prompts/list_changed" || subID(t, n) != `"p-1"` {
		t.Errorf("prompts stream got %s %s", n.Method, n.Params)
	}
	tools.none(t, 100*time.Millisecond)

	f.s.ResourceUpdated("test://other")
	f.s.ResourceUpdated("test://static-text")
	if n := tools.next(t); n.Method != "notifications/resources/updated" || !strings.Contains(string(n.Params), `"uri":"test://static-text"`) || subID(t, n) != "77" {
		t.Errorf("resources/updated %s %s", n.Method, n.Params)
	}
	f.s.RemoveTools("transient")
	if n := tools.next(t); n.Method != "notifications/tools/list_changed" {
		t.Errorf("after RemoveTools %s", n.Method)
	}
	// Client cancellation ends the stream without a response.
	tools.stop()
	select {
	case resp := <-tools.done:
		if resp.Body != nil {
			t.Errorf("cancelled stream answered %s", resp.Body)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("cancelled stream did not end")
	}
}

func TestListenUnsupportedFilterOmitted(t *testing.T) {
	s, err := New(Options{Name: "tools-only", Tools: []Tool{weatherTool()}})
	if err != nil {
		t.Fatal(err)
	}
	l := startListen(t, s, "1", `{"promptsListChanged":true,"toolsListChanged":true,"resourcesListChanged":true}`)
	ack := l.next(t)
	if !strings.Contains(string(ack.Params), `"notifications":{"toolsListChanged":true}`) {
		t.Errorf("ack %s", ack.Params)
	}
}

func TestShutdownEndsListenStreams(t *testing.T) {
	f := newFixture(t)
	a := startListen(t, f.s, "5", `{"toolsListChanged":true}`)
	b := startListen(t, f.s, `"s"`, `{}`)
	a.next(t)
	b.next(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := f.s.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	for _, l := range []*listenRun{a, b} {
		resp := <-l.done
		var r reply
		if err := json.Unmarshal(resp.Body, &r); err != nil {
			t.Fatalf("%s: %v", resp.Body, err)
		}
		wantResult(t, r)
		if r.field(t, "resultType") != "complete" || string(r.ID) != r.fieldRaw(t, "_meta", "io.modelcontextprotocol/subscriptionId") {
			t.Errorf("listen result %s for id %s", r.Result, r.ID)
		}
	}
	// After shutdown new work is refused.
	wantError(t, rpc(t, f.s, "tools/list", `{}`), -32603)
}

// A listen stream waits on its wake channel alone: the end of its request
// (the client went away) wakes it too, and its handler returns at once
// with the context's error, leaving the set of streams.
func TestListenEndsWithItsRequest(t *testing.T) {
	f := newFixture(t)
	l := startListen(t, f.s, "7", `{"toolsListChanged":true}`)
	l.next(t)
	l.stop()
	select {
	case <-l.done:
	case <-time.After(2 * time.Second):
		t.Fatal("listen still open after its request was cancelled")
	}
	f.s.subs.mu.Lock()
	n := len(f.s.subs.set)
	f.s.subs.mu.Unlock()
	if n != 0 {
		t.Errorf("%d streams still subscribed", n)
	}
}

func (r reply) fieldRaw(t *testing.T, path ...string) string {
	t.Helper()
	v := r.field(t, path...)
	b, _ := json.Marshal(v)
	return string(b)
}

// The same matcher decides which resourceSubscriptions a
// subscriptions/listen request is granted (readable → guard → every
// template's match), so one listen request naming a 24 KiB URI holds its
// acknowledgement for seconds, and a 4 MiB request can name ~170 of them
// (minutes of CPU for one request). The acknowledgement of a stream
// subscribing to one such URI must come promptly.
func TestListenAcknowledgesALongSubscriptionURIPromptly(t *testing.T) {
	s := templateEchoServer(t, "x://h/{name}")
	uri := "x://h/" + strings.Repeat("a,", 12000) + "a"
	l := startListen(t, s, "1", `{"resourceSubscriptions":["`+uri+`"]}`)
	select {
	case n := <-l.w.ch:
		if n.Method != "notifications/subscriptions/acknowledged" {
			t.Fatalf("first frame %s", n.Method)
		}
	case <-time.After(time.Second):
		t.Fatalf("no acknowledgement of a listen stream subscribing to a %d-byte URI after 1 s (quadratic template matching)", len(uri))
	}
}
