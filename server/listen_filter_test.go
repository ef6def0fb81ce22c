package server

import (
	"strings"
	"testing"
	"time"
)

// A server without the tasks extension (no tool supports tasks, no
// cluster) does not support notifications/tasks, so a listen filter that
// names taskIds asks for a notification type it does not support.
// subscriptions.mdx, "Acknowledgment": "The notifications field in the
// acknowledgment reflects the subset the server agreed to honor.
// Notification types the server does not support are omitted." (and
// SERVER-CHECKLIST L10). Like any other unsupported member
// ("unknownThing", TestListenAckTaggingAndFilter) it is left out of the
// ack, not refused with -32021 for an extension the server does not offer
// (a server serving tasks still refuses it so:
// TestListenTaskIDsNeedTheExtension).
func TestListenTaskIDsOmittedWhenServerServesNoTasks(t *testing.T) {
	s, err := New(Options{Name: "tools-only", Tools: []Tool{weatherTool()}})
	if err != nil {
		t.Fatal(err)
	}
	if s.capabilities().Extensions != nil {
		t.Fatalf("precondition: server offers extensions %v", s.capabilities().Extensions)
	}
	l := startListen(t, s, "1", `{"toolsListChanged":true,"taskIds":["0123456789abcdef0123456789abcdef"]}`)
	select {
	case resp := <-l.done:
		t.Fatalf("listen ended at once with %s; want an ack with the taskIds left out", resp.Body)
	case n := <-l.w.ch:
		if n.Method != "notifications/subscriptions/acknowledged" {
			t.Fatalf("first message %s %s", n.Method, n.Params)
		}
		if !strings.Contains(string(n.Params), `"notifications":{"toolsListChanged":true}`) {
			t.Errorf("ack %s: want only toolsListChanged", n.Params)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("no ack and no response")
	}
}
