package server

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/jsonrpc"
)

// TestStateTTLBelowASecond: Options.StateTTL "is how long a sealed
// requestState stays valid"; mrtr.mdx: servers SHOULD include "a short
// expiry (TTL), rejecting state presented after it lapses". The expiry was
// sealed in whole Unix seconds, so a 200 ms TTL kept a state valid until
// the end of its second. On a clock the test sets, a state sealed early in
// a second opens 150 ms later and is refused 250 ms later.
func TestStateTTLBelowASecond(t *testing.T) {
	s, err := New(Options{Name: "x", Version: "1", StateKey: []byte("0123456789abcdef0123456789abcdef"),
		StateTTL: 200 * time.Millisecond, Tools: []Tool{NewTool(ToolInfo{Name: "multi_round"}, multiRound)}})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1_800_000_000, 10e6) // 10 ms into a second
	s.now = func() time.Time { return now }
	_, state := inputRequests(t, callTool(t, s, "multi_round", ""))
	answer := `,"requestState":"` + state + `","inputResponses":{"step1":{"action":"accept","content":{"name":"Eve"}}}`
	now = now.Add(150 * time.Millisecond)
	if r := callTool(t, s, "multi_round", answer); r.Error != nil {
		t.Fatalf("a requestState sealed with a 200 ms TTL refused 150 ms later: %d %q", r.Error.Code, r.Error.Message)
	}
	now = now.Add(100 * time.Millisecond)
	r := callTool(t, s, "multi_round", answer)
	if r.Error == nil {
		t.Fatalf("a requestState sealed with a 200 ms TTL still opens 250 ms later: %s; want -32602 state expired", r.Result)
	}
	if r.Error.Code != jsonrpc.CodeInvalidParams || !strings.Contains(r.Error.Message, "expired") {
		t.Errorf("error %d %q; want -32602 state expired", r.Error.Code, r.Error.Message)
	}
}

// TestSecondResolutionStateStillOpens: a requestState of the first format
// (version 1, its expiry in whole Unix seconds), sealed by a server before
// an upgrade, still opens until the end of its expiry's second, so rounds
// in flight during a rolling upgrade continue.
func TestSecondResolutionStateStillOpens(t *testing.T) {
	s, err := New(Options{Name: "x", Version: "1", StateKey: []byte("0123456789abcdef0123456789abcdef"), StateTTL: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1_800_000_000, 10e6)
	s.now = func() time.Time { return now }
	digest := sha256.Sum256([]byte("tools/call x"))
	token := sealSeconds(s, []byte(`{"round":1}`), digest, now.Add(s.stateTTL).Unix())
	now = now.Add(500 * time.Millisecond) // past the TTL, within the second
	if state, err := s.unseal(token, digest); err != nil || string(state) != `{"round":1}` {
		t.Fatalf("version-1 state within its second: %q %v", state, err)
	}
	now = now.Add(time.Second)
	if _, err := s.unseal(token, digest); err == nil || !strings.Contains(err.Error(), "expired") {
		t.Errorf("version-1 state after its second: %v; want expired", err)
	}
}

// sealSeconds seals state as the first format did: version 1, expiry in
// Unix seconds.
func sealSeconds(s *Server, state []byte, digest [sha256.Size]byte, expiry int64) string {
	out := make([]byte, sealHeader+nonceSize)
	out[0] = sealVersionSeconds
	binary.BigEndian.PutUint64(out[1:9], uint64(expiry))
	copy(out[9:sealHeader], digest[:])
	rand.Read(out[sealHeader:])
	out = s.ring.aeads[0].Seal(out, out[sealHeader:], state, out[:sealHeader])
	return base64.RawURLEncoding.EncodeToString(out)
}
