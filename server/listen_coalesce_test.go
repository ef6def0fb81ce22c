package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// heldRecorder is a recorder whose Notify, once held, waits until it is
// let go: a listen stream whose client is not reading.
type heldRecorder struct {
	*recorder
	mu   sync.Mutex
	hold chan struct{} // nil: not held
	in   chan struct{} // a Notify is waiting on hold
}

func (h *heldRecorder) Notify(method string, params any) error {
	h.mu.Lock()
	hold := h.hold
	h.mu.Unlock()
	if hold != nil {
		select {
		case h.in <- struct{}{}:
		default:
		}
		<-hold
	}
	return h.recorder.Notify(method, params)
}

// A stream behind by more than its buffer holds still hears of every
// change: updates of 200 different resources and a tools list change,
// published while its writer was stuck, all arrive once it moves again.
func TestListenSlowStreamMissesNoChange(t *testing.T) {
	f := newFixture(t)
	const n = 200
	uris := make([]string, n)
	for i := range uris {
		uris[i] = fmt.Sprintf("test://items/%d/data", i)
	}
	subs, _ := json.Marshal(uris)
	w := &heldRecorder{recorder: newRecorder(), in: make(chan struct{}, 1)}
	w.recorder.ch = make(chan note, 4*n)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	msg := `{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":` +
		withMeta(`{"notifications":{"toolsListChanged":true,"resourceSubscriptions":`+string(subs)+`}}`, defaultMeta) + `}`
	done := make(chan Response, 1)
	go func() { done <- f.s.HandleBytes(ctx, []byte(msg), w) }()
	select {
	case ack := <-w.ch:
		if !strings.HasSuffix(ack.Method, "acknowledged") {
			t.Fatalf("first notification %s", ack.Method)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("no acknowledgement")
	}
	release := make(chan struct{})
	w.mu.Lock()
	w.hold = release
	w.mu.Unlock()

	f.s.ResourceUpdated(uris[0])
	select {
	case <-w.in: // the stream is stuck writing the first update
	case <-time.After(2 * time.Second):
		t.Fatal("the stream did not start writing")
	}
	for _, u := range uris[1:] {
		f.s.ResourceUpdated(u)
	}
	f.s.subs.publish(changeTools, "")
	f.s.ResourceUpdated(uris[1]) // still pending: needs no second notification
	w.mu.Lock()
	w.hold = nil
	w.mu.Unlock()
	close(release)

	got := map[string]int{}
	tools := 0
	deadline := time.After(5 * time.Second)
	for len(got) < n || tools == 0 {
		select {
		case note := <-w.ch:
			switch note.Method {
			case "notifications/resources/updated":
				var p struct {
					URI string `json:"uri"`
				}
				if err := json.Unmarshal(note.Params, &p); err != nil {
					t.Fatal(err)
				}
				got[p.URI]++
			case "notifications/tools/list_changed":
				tools++
			default:
				t.Fatalf("unexpected %s", note.Method)
			}
		case <-deadline:
			t.Fatalf("after 5 s: %d of %d resources heard of, %d tools list changes", len(got), n, tools)
		}
	}
	for u, c := range got {
		if c > 2 || c > 1 && u != uris[1] {
			t.Errorf("%s: %d notifications", u, c)
		}
	}
}
