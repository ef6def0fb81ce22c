package server

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"
)

// pipeline sends lines from a goroutine and fails the test when they are
// not all read within a few seconds (the server stopped reading).
func (p *lgPeer) pipeline(t *testing.T, lines []string) {
	t.Helper()
	sent := make(chan error, 1)
	go func() {
		for _, l := range lines {
			if err := p.write(l); err != nil {
				sent <- err
				return
			}
		}
		sent <- nil
	}()
	select {
	case err := <-sent:
		if err != nil {
			t.Fatalf("write: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("the server stopped reading its input: %d requests pipelined", len(lines))
	}
}

// collect reads output lines until it has seen wantRequests server
// requests and wantResponses responses.
func (p *lgPeer) collect(t *testing.T, wantRequests, wantResponses int) (requests, responses []map[string]any) {
	t.Helper()
	for len(requests) < wantRequests || len(responses) < wantResponses {
		var m map[string]any
		if err := json.Unmarshal([]byte(p.nextRaw()), &m); err != nil {
			t.Fatal(err)
		}
		switch {
		case m["method"] != nil && m["id"] != nil:
			requests = append(requests, m)
		case m["method"] == nil:
			responses = append(responses, m)
		}
	}
	return requests, responses
}

// TestLegacyStdioPipelinedAsksDoNotDeadlock: a legacy client that sends
// more requests than the connection's in-flight cap before it answers the
// server's elicitation requests is still read, so its answers arrive and
// every request completes. Before, the read loop stopped at the cap while
// every admitted request waited for an answer it could not read.
func TestLegacyStdioPipelinedAsksDoNotDeadlock(t *testing.T) {
	f := newFixture(t)
	f.s.lim.cfg.MaxInFlightPerConn = 2
	p := startLegacyStdio(t, f.s)
	p.initialize("2025-11-25", fullCaps)
	const n = 7 // within 2 slots × waitingPerSlot waiting
	var lines []string
	for i := 1; i <= n; i++ {
		lines = append(lines, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"ask_name"}}`, i))
	}
	p.pipeline(t, lines)
	asks, _ := p.collect(t, n, 0)
	var answers []string
	for _, a := range asks {
		answers = append(answers, `{"jsonrpc":"2.0","id":`+idOf(a)+`,"result":{"action":"accept","content":{"name":"Ada"}}}`)
	}
	p.pipeline(t, answers)
	_, responses := p.collect(t, 0, n)
	for _, m := range responses {
		if got := lgText(t, resultOf(t, m)); got != "Hello, Ada!" {
			t.Errorf("response %s: %q", idOf(m), got)
		}
	}
}

// TestLegacyStdioWaitingRequestsBounded: the requests waiting for the
// client's answers are bounded (waitingPerSlot per slot); past that an Ask
// fails with the busy error at once, and the waiting ones still complete.
func TestLegacyStdioWaitingRequestsBounded(t *testing.T) {
	f := newFixture(t)
	f.s.lim.cfg.MaxInFlightPerConn = 1
	p := startLegacyStdio(t, f.s)
	p.initialize("2025-11-25", fullCaps)
	const n = waitingPerSlot + 2
	var lines []string
	for i := 1; i <= n; i++ {
		lines = append(lines, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"ask_name"}}`, i))
	}
	p.pipeline(t, lines)
	asks, refused := p.collect(t, waitingPerSlot, n-waitingPerSlot)
	for _, m := range refused {
		if errorCode(m) != -32603 || reasonOf(m) != reasonBusy {
			t.Errorf("a request past the waiting bound: %v, want the busy error", m)
		}
	}
	var answers []string
	for _, a := range asks {
		answers = append(answers, `{"jsonrpc":"2.0","id":`+idOf(a)+`,"result":{"action":"accept","content":{"name":"Ada"}}}`)
	}
	p.pipeline(t, answers)
	_, done := p.collect(t, 0, waitingPerSlot)
	for _, m := range done {
		if got := lgText(t, resultOf(t, m)); got != "Hello, Ada!" {
			t.Errorf("response %s: %q", idOf(m), got)
		}
	}
}
