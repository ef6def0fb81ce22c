package server

import (
	"strings"
	"testing"
	"time"
)

// legacyFaultInit initializes a 2025-03-26 legacy session on a fault-kit
// stdio connection.
func legacyFaultInit(t *testing.T, f *faultStdio) {
	t.Helper()
	f.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"old","version":"1"}}}`)
	if m := f.reply(); m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	f.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

func legacyToolCall(id, tool string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"` + tool + `","arguments":{}}}`
}

// TestAttackStdioBatchesBypassMaxInFlightPerConn: Limits.MaxInFlightPerConn
// "caps the requests one stdio connection has in flight … At the cap the
// server stops reading that connection until one is answered" (limits.go,
// README "How a request flows": "stdio: at MaxInFlightPerConn the next line
// is not read"), and README Compatibility says a batch's requests go
// "each through the limits like a request of its own". With the cap at 2,
// three batch lines of two blocking calls each run all six handlers at once.
func TestAttackStdioBatchesBypassMaxInFlightPerConn(t *testing.T) {
	k := limitServer(t, Limits{MaxInFlightPerConn: 2})
	f := startFaultStdio(t, k.s, 0)
	legacyFaultInit(t, f)
	for b := 0; b < 3; b++ {
		id1, id2 := string(rune('1'+2*b)), string(rune('2'+2*b))
		f.send("[" + legacyToolCall(id1, "until_cancel") + "," + legacyToolCall(id2, "until_cancel") + "]")
	}
	running := 0
	deadline := time.After(500 * time.Millisecond)
loop:
	for {
		select {
		case <-k.started:
			running++
		case <-deadline:
			break loop
		}
	}
	f.closeIn(8 * time.Second)
	if running > 2 {
		t.Fatalf("%d requests of one stdio connection ran at once with MaxInFlightPerConn 2; want at most 2", running)
	}
}

// TestAttackStdioBatchUnansweredAtEOF: ServeStdio's contract (stdio.go): "At
// the end of in, … other requests get up to 2 s to finish and be answered,
// then the ones left are answered with -32603 {"reason":"shutdown"}"; a
// request sent alone is. The same request sent in a batch gets no answer
// at all: the batch response never comes.
func TestAttackStdioBatchUnansweredAtEOF(t *testing.T) {
	k := limitServer(t, Limits{})
	f := startFaultStdio(t, k.s, 0)
	legacyFaultInit(t, f)
	f.send("[" + legacyToolCall("7", "until_cancel") + "]")
	k.waitFor(t, k.started, "until_cancel")
	_, _, rest := f.closeIn(8 * time.Second)
	for _, line := range rest {
		if strings.Contains(line, `"id":7`) && strings.Contains(line, reasonShutdown) {
			return
		}
	}
	t.Fatalf("after the end of input, the batched request got no answer (output %q); want -32603 reason shutdown in a batch response", rest)
}

// TestAttackStdioSingleAnsweredAtEOF is the control: the same request not
// batched is answered with the shutdown error.
func TestAttackStdioSingleAnsweredAtEOF(t *testing.T) {
	k := limitServer(t, Limits{})
	f := startFaultStdio(t, k.s, 0)
	legacyFaultInit(t, f)
	f.send(legacyToolCall("7", "until_cancel"))
	k.waitFor(t, k.started, "until_cancel")
	_, _, rest := f.closeIn(8 * time.Second)
	for _, line := range rest {
		if strings.Contains(line, `"id":7`) && strings.Contains(line, reasonShutdown) {
			return
		}
	}
	t.Fatalf("output %q", rest)
}
