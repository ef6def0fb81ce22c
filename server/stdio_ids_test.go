package server

import (
	"strings"
	"testing"
	"time"
)

// Two requests whose string ids are different lone surrogates ("\ud800"
// and "\udc00") are different requests: JSON-RPC ids are compared as JSON
// values, and jsonrpc.ID documents "two ids are equal exactly when they
// denote the same JSON value". The server must not refuse the second as
// "still in flight" (basic/index.mdx: a request ID MUST NOT match the ID of
// any other request the sender has issued — the client did not reuse one),
// and each answer must carry the id of its own request ("Result responses
// MUST include the same ID as the request they correspond to").
func TestStdioLoneSurrogateIDsAreDistinct(t *testing.T) {
	f := newFixture(t)
	p := startStdio(t, f.s, 0)
	p.request(`"\ud800"`, "tools/call", `{"name":"slow","arguments":{"tag":"a"}}`)
	select {
	case <-f.gate.started:
	case <-time.After(3 * time.Second):
		t.Fatal("slow tool did not start")
	}
	p.request(`"\udc00"`, "tools/call", `{"name":"echo","arguments":{"text":"quick"}}`)
	var line string
	select {
	case line = <-p.lines:
	case <-time.After(3 * time.Second):
		t.Fatal("no answer to the second request")
	}
	close(f.gate.release)
	if strings.Contains(line, `"error"`) {
		t.Errorf("request with id \"\\udc00\" was refused while \"\\ud800\" is in flight (different ids): %s", line)
	}
	if !strings.Contains(strings.ToLower(line), `"id":"\udc00"`) {
		t.Errorf("answer to id \"\\udc00\" does not carry that id: %s", line)
	}
}

// notifications/cancelled names one request by id; cancelling "\udc00"
// (no such request in flight: ignored, cancellation.mdx "unknown
// requests" ) must not cancel the request "\ud800".
func TestStdioCancelOfLoneSurrogateIDSparesOtherRequest(t *testing.T) {
	f := newFixture(t)
	p := startStdio(t, f.s, 0)
	p.request(`"\ud800"`, "tools/call", `{"name":"slow","arguments":{"tag":"a"}}`)
	select {
	case <-f.gate.started:
	case <-time.After(3 * time.Second):
		t.Fatal("slow tool did not start")
	}
	p.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"\udc00","reason":"other request"}}`)
	select {
	case tag := <-f.gate.cancelled:
		t.Errorf("cancelling id \"\\udc00\" cancelled the request with id \"\\ud800\" (tag %q)", tag)
	case <-time.After(300 * time.Millisecond):
	}
	close(f.gate.release)
}

// A notifications/cancelled whose params name "requestId" twice is a
// malformed notification: cancellation.mdx "Invalid cancellation
// notifications SHOULD be ignored: ... Malformed notifications", and the
// README's rule that a repeated member of params is refused (no two readers
// of one message may disagree: the first "requestId" names no request in
// flight, the last one does). The stdio server ignores it, as a legacy
// session's reader (exactObject) refuses the same params: one rule.
func TestStdioCancelWithRepeatedRequestIdIgnored(t *testing.T) {
	f := newFixture(t)
	p := startStdio(t, f.s, 0)
	p.request(`"slow-1"`, "tools/call", `{"name":"slow","arguments":{"tag":"a"}}`)
	select {
	case <-f.gate.started:
	case <-time.After(3 * time.Second):
		t.Fatal("slow tool did not start")
	}
	p.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"other","requestId":"slow-1"}}`)
	select {
	case tag := <-f.gate.cancelled:
		t.Errorf("a malformed notifications/cancelled (requestId repeated) cancelled request %q", tag)
	case <-time.After(300 * time.Millisecond):
	}
	close(f.gate.release)
}
