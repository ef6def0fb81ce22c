package server

import (
	"context"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// visiblePanicServer: a server whose Options.Visible panics for the
// resource test://a while armed, as a Visible func with a bug does (a nil
// map, a failed type assertion on a context value the caller's HTTP
// middleware puts in a request's context but a legacy session's delivery
// context, README: "a context holding only the subscriber's principal",
// lacks).
func visiblePanicServer(t testing.TB, armed *atomic.Bool) *Server {
	s, err := New(Options{Name: "vis", Version: "1", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Tools:     []Tool{weatherTool()},
		Resources: []Resource{NewResource(ResourceInfo{URI: "test://a", Name: "a"}, func(ctx context.Context) (string, error) { return "A", nil })},
		Visible: func(ctx context.Context, it Item) bool {
			if armed.Load() && it.Kind == ItemResource && it.Name == "test://a" {
				select {
				case visibleCalled <- struct{}{}:
				default:
				}
				panic("visible bug")
			}
			return true
		}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// visibleCalled is signalled just before the armed Visible panics.
var visibleCalled = make(chan struct{}, 1)

// runChildScenario runs the test named in a child process with
// MCPGEN_CHILD_SCENARIO=1 and returns what the child's scenario
// wrote after "CHILD-OUTPUT", failing when the child process died.
func runChildScenario(t *testing.T, name string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+name+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), "MCPGEN_CHILD_SCENARIO=1")
	got, err := cmd.CombinedOutput()
	i := strings.Index(string(got), "CHILD-OUTPUT")
	if err != nil || i < 0 {
		first := string(got)
		if j := strings.Index(first, "goroutine "); j > 0 {
			first = first[:j]
		}
		t.Fatalf("the server process died (%v); want the panic recovered and the server serving on:\n%s", err, first)
	}
	return string(got[i:])
}

// legacyStdio starts a 2025-11-25 stdio session on s (initialize done,
// subscribed to nothing) and returns its client side.
func legacyStdioSession(t *testing.T, s *Server) *faultStdio {
	f := startFaultStdio(t, s, 0)
	f.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
	if m := f.reply(); idOf(m) != "1" {
		t.Fatalf("initialize: %v", m)
	}
	f.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return f
}

// TestVisiblePanicInLegacySubscribeIsInternalError: README "Middleware and
// observability": Options.Visible decides per request what exists for the
// caller; "tool, prompt and resource functions and handlers are always
// recovered (-32603, logged), and so is the interceptor chain as a whole"
// — the server keeps serving. A 2025-11-25 stdio session's
// resources/subscribe asks Visible (checkSubscribe) outside any recovery:
// the request whose Visible check panics kills the whole server process,
// every other client with it, instead of getting -32603. The same panic in
// a 2026-07-28 resources/read is answered -32603 and the server goes on.
// (The scenario runs in a child process, so that the crash is observed
// rather than taking the test binary down.)
func TestVisiblePanicInLegacySubscribeIsInternalError(t *testing.T) {
	if os.Getenv("MCPGEN_CHILD_SCENARIO") == "1" {
		var armed atomic.Bool
		armed.Store(true)
		f := legacyStdioSession(t, visiblePanicServer(t, &armed))
		f.send(`{"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":"test://a"}}`)
		m := f.reply()
		os.Stdout.WriteString("CHILD-OUTPUT code=" + strconv.Itoa(errorCode(m)) + "\n")
		return
	}
	out := runChildScenario(t, "TestVisiblePanicInLegacySubscribeIsInternalError")
	if !strings.Contains(out, "code=-32603") {
		t.Fatalf("resources/subscribe whose Visible check panicked: %s, want -32603", out)
	}
}

// TestVisiblePanicInLegacyUpdateDeliveryHidesTheUpdate: the same for the delivery
// of resources/updated to a legacy session (mayHear asks Visible "at each
// update", README "Visibility"), which runs on the session's notification
// goroutine with no recovery: ResourceUpdated, called by the application,
// crashes the server process when Visible panics there. A 2026-07-28
// listen stream asks the same rule inside its request, where the panic is
// recovered.
func TestVisiblePanicInLegacyUpdateDeliveryHidesTheUpdate(t *testing.T) {
	if os.Getenv("MCPGEN_CHILD_SCENARIO") == "1" {
		var armed atomic.Bool
		s := visiblePanicServer(t, &armed)
		f := legacyStdioSession(t, s)
		f.send(`{"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":"test://a"}}`)
		if m := f.reply(); idOf(m) != "2" || errorCode(m) != 0 {
			t.Fatalf("subscribe: %v", m)
		}
		armed.Store(true)
		s.ResourceUpdated("test://a")
		select { // the session's goroutine asks Visible (and dies there)
		case <-visibleCalled:
			time.Sleep(100 * time.Millisecond)
		case <-time.After(5 * time.Second):
			t.Fatal("Visible was never asked for the update")
		}
		armed.Store(false)
		f.send(`{"jsonrpc":"2.0","id":3,"method":"ping"}`)
		m := f.reply()
		os.Stdout.WriteString("CHILD-OUTPUT ping=" + idOf(m) + "\n")
		return
	}
	out := runChildScenario(t, "TestVisiblePanicInLegacyUpdateDeliveryHidesTheUpdate")
	if !strings.Contains(out, "ping=3") {
		t.Fatalf("after the update: %s, want the server still answering", out)
	}
}

// TestVisiblePanicInLegacyHTTPSubscribeIsInternalError: the same over Streamable
// HTTP, where a remote client triggers it: the legacy session's handler
// runs on a pooled worker goroutine (serveLimited), outside net/http's
// per-connection recovery, so a resources/subscribe whose Visible check
// panics takes the whole HTTP server down instead of being answered
// -32603.
func TestVisiblePanicInLegacyHTTPSubscribeIsInternalError(t *testing.T) {
	if os.Getenv("MCPGEN_CHILD_SCENARIO") == "1" {
		var armed atomic.Bool
		armed.Store(true)
		s := visiblePanicServer(t, &armed)
		h := startLimitedHTTP(t, s)
		sess := &lgHTTP{t: t, url: h.url}
		resp := sess.post(lgBody("1", "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}`))
		resp.Body.Close()
		if sess.sid = resp.Header.Get("Mcp-Session-Id"); resp.StatusCode != 200 || sess.sid == "" {
			t.Fatalf("initialize: %d sid %q", resp.StatusCode, sess.sid)
		}
		_, m, _ := sess.rpc("2", "resources/subscribe", `{"uri":"test://a"}`)
		os.Stdout.WriteString("CHILD-OUTPUT code=" + strconv.Itoa(errorCode(m)) + "\n")
		return
	}
	out := runChildScenario(t, "TestVisiblePanicInLegacyHTTPSubscribeIsInternalError")
	if !strings.Contains(out, "code=-32603") {
		t.Fatalf("resources/subscribe whose Visible check panicked: %s, want -32603", out)
	}
}
