package server

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp"
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

// listToolsHandler takes over tools/list and tools/call from the
// registry (Options.Handlers: "take over the matching requests from the
// registries").
type listToolsHandler struct{}

func (listToolsHandler) CallTool(ctx context.Context, p *mcp.CallToolRequestParams) (mcp.CallToolOutcome, error) {
	return nil, errors.New("unused")
}

func (listToolsHandler) ListTools(ctx context.Context, p *mcp.PaginatedRequestParams) (*mcp.ListToolsResult, error) {
	return &mcp.ListToolsResult{Tools: []mcp.Tool{}}, nil
}

// With a ToolsHandler answering tools/list, server/discover declares
// tools without listChanged (discover.go: the list is the handler's, which
// registry changes do not reach), and a listen asking for toolsListChanged
// is not granted it either (both read Server.listChanges).
// subscriptions.mdx: the acknowledgment "reflects the subset the server
// agreed to honor. Notification types the server does not support are
// omitted."; tools.mdx: listChanged "indicates whether the server will
// emit notifications when the list of available tools changes"
// (SERVER-CHECKLIST L10: leave out of the ack any type the server lacks a
// capability for).
func TestListenAckGrantsOnlyListChangesDiscoverDeclares(t *testing.T) {
	s, err := New(Options{Name: "handler-tools", Tools: []Tool{weatherTool()}, Handlers: []any{listToolsHandler{}}})
	if err != nil {
		t.Fatal(err)
	}
	caps := s.capabilities()
	if caps.Tools == nil || caps.Tools.ListChanged != nil {
		t.Fatalf("precondition: discover tools capability %+v", caps.Tools)
	}
	l := startListen(t, s, "1", `{"toolsListChanged":true}`)
	ack := l.next(t)
	if ack.Method != "notifications/subscriptions/acknowledged" {
		t.Fatalf("first message %s", ack.Method)
	}
	if strings.Contains(string(ack.Params), "toolsListChanged") {
		t.Errorf("ack %s grants toolsListChanged, which server/discover does not declare (tools %+v)", ack.Params, caps.Tools)
	}
}

// A listen's resourceSubscriptions are bounded as a legacy session's
// resources/subscribe are (1024 URIs, 256 KiB of them): each URI is held
// for as long as the stream is open. More is -32602 naming the member and
// the limit; duplicates are granted once.
func TestListenResourceSubscriptionsAreBounded(t *testing.T) {
	f := newFixture(t)
	uris := func(n int, uri string) string {
		return `["` + strings.Repeat(uri+`","`, n-1) + uri + `"]`
	}
	for name, list := range map[string]string{
		"count": uris(maxListenResourceSubscriptions+1, "test://static-text"),
		"bytes": uris(2, "test://"+strings.Repeat("x", maxListenResourceSubscriptionBytes/2)),
	} {
		l := startListen(t, f.s, "2", `{"resourceSubscriptions":`+list+`}`)
		select {
		case resp := <-l.done:
			body := string(resp.Body)
			if !strings.Contains(body, `"code":-32602`) || !strings.Contains(body, "params.notifications.resourceSubscriptions") ||
				!strings.Contains(body, "at most 1024 URIs and 256 KiB") {
				t.Errorf("%s over the bound: %s; want -32602 naming the member and the limit", name, body)
			}
		case n := <-l.w.ch:
			t.Errorf("%s over the bound: %s %.200s; want -32602 naming the member and the limit", name, n.Method, n.Params)
		case <-time.After(2 * time.Second):
			t.Errorf("%s over the bound: no answer", name)
		}
		l.stop()
	}
	l := startListen(t, f.s, "1", `{"resourceSubscriptions":`+uris(maxListenResourceSubscriptions, "test://static-text")+`}`)
	ack := l.next(t)
	if ack.Method != "notifications/subscriptions/acknowledged" ||
		!strings.Contains(string(ack.Params), `"notifications":{"resourceSubscriptions":["test://static-text"]}`) {
		t.Errorf("at the bound: %s %s; want the ack granting the URI once", ack.Method, ack.Params)
	}
}
