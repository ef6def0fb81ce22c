package server

import (
	"bytes"
	"encoding/base64"
	"log/slog"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/jsonrpc"
)

var (
	oldKey = []byte("old-key-old-key-old-key-old-key!")
	newKey = []byte("new-key-new-key-new-key-new-key!")
)

// A rotation as the README describes it: replicas that seal with the old
// key and open both, then seal with the new key and open both, then drop
// the old key. Requests in flight survive the first two steps; a state
// sealed with a dropped key is refused with -32602.
func TestStateKeyRingRotation(t *testing.T) {
	ring := func(keys ...[]byte) func(*Options) {
		return func(o *Options) { o.StateKey, o.StateKeys = nil, keys }
	}
	before := newFixture(t, ring(oldKey))
	step1 := newFixture(t, ring(oldKey, newKey))
	step2 := newFixture(t, ring(newKey, oldKey))
	after := newFixture(t, ring(newKey))

	_, sealedOld := inputRequests(t, callTool(t, before.s, "multi_round", ""))
	for name, f := range map[string]*fixture{"step1": step1, "step2": step2} {
		r := callTool(t, f.s, "multi_round", `,"requestState":"`+sealedOld+`","inputResponses":{"step1":{"action":"accept","content":{"name":"Bob"}}}`)
		if _, st := inputRequests(t, r); st == "" {
			t.Errorf("%s did not continue a state sealed with the old key: %s", name, r.Result)
		}
	}
	// step2 seals with the new key: the fully rotated replica opens it.
	_, sealedNew := inputRequests(t, callTool(t, step2.s, "multi_round", ""))
	r := callTool(t, after.s, "multi_round", `,"requestState":"`+sealedNew+`","inputResponses":{"step1":{"action":"accept","content":{"name":"Bob"}}}`)
	if _, st := inputRequests(t, r); st == "" {
		t.Errorf("rotated replica refused a state sealed with the new key: %s", r.Result)
	}
	// The old key is gone: its states are refused.
	wantError(t, callTool(t, after.s, "multi_round", `,"requestState":"`+sealedOld+`"`), jsonrpc.CodeInvalidParams)
}

func TestParseStateKeys(t *testing.T) {
	std := base64.StdEncoding.EncodeToString(oldKey)
	url := base64.RawURLEncoding.EncodeToString([]byte("\xfb\xff" + string(newKey)))
	ring, err := ParseStateKeys(" " + std + " ," + url)
	if err != nil || len(ring) != 2 || !bytes.Equal(ring[0], oldKey) || !bytes.Equal(ring[1][2:], newKey) {
		t.Fatalf("ParseStateKeys: %q %v", ring, err)
	}
	if ring, err := ParseStateKeys("  "); err != nil || ring != nil {
		t.Errorf("empty: %q %v", ring, err)
	}
	for in, want := range map[string]string{
		std + ",not*base64":                            "state key 2: not base64",
		base64.StdEncoding.EncodeToString([]byte("x")): "state key 1: 1 bytes; at least 16",
		std + ",": "state key 2: 0 bytes",
	} {
		if _, err := ParseStateKeys(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseStateKeys(%q) = %v, want %q", in, err, want)
		}
	}
	if _, err := New(Options{Name: "x", StateKeys: [][]byte{oldKey, []byte("short")}}); err == nil || !strings.Contains(err.Error(), "StateKeys[1]") {
		t.Errorf("short key in the ring: %v", err)
	}
}

// Without a configured key the server says so once, at Run; with one it is
// silent.
func TestWarnUnkeyed(t *testing.T) {
	for _, keyed := range []bool{false, true} {
		var log bytes.Buffer
		opts := Options{Name: "x", Logger: slog.New(slog.NewTextHandler(&log, nil))}
		if keyed {
			opts.StateKeys = [][]byte{oldKey}
		}
		s, err := New(opts)
		if err != nil {
			t.Fatal(err)
		}
		s.warnUnkeyed(true)
		got := strings.Count(log.String(), "will not survive a restart or cross replicas")
		if want := map[bool]int{false: 1, true: 0}[keyed]; got != want {
			t.Errorf("keyed=%v: %d warnings, want %d:\n%s", keyed, got, want, log.String())
		}
		if !keyed && !strings.Contains(log.String(), "level=WARN") {
			t.Errorf("warning not at WARN: %s", log.String())
		}
	}
}
