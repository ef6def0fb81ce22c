package server

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// requestStates sealed before a path took its identity from the decoder's
// reading still open after it: the digest is of identity's text, byte for
// byte, whichever reading hashes it.

// oldStateServer is a server whose requestStates can be sealed in one
// build and opened in another: a fixed key, a fixed clock, and a tool
// with optional task support (run in the request: the messages declare no
// tasks) that asks once and then answers "ok" and its state.
func oldStateServer(t testing.TB) *Server {
	info := ToolInfo{Name: "tasked", InputSchema: json.RawMessage(wideToolSchema), TaskSupport: TaskSupportOptional}
	tool := NewTool(info, func(ctx context.Context, in fusedPlainArgs) (string, error) {
		if State(ctx) == nil {
			if err := SetState(ctx, []byte(`{"step":1}`)); err != nil {
				return "", err
			}
			return "", &InputRequiredError{}
		}
		return fmt.Sprintf("ok %d|%s", len(in.Items), State(ctx)), nil
	})
	s, err := New(Options{Name: "t", Version: "1", StateKey: []byte("0123456789abcdef0123456789abcdef"),
		StateTTL: time.Hour, Tools: []Tool{tool}})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1_800_000_000, 0)
	s.now = func() time.Time { return now }
	return s
}

// oldStates were sealed by oldStateServer at 61c37b5 (before the
// comparison of a tool with optional task support was left to the
// decoder's reading), for fusedArgs(fusedSeeds[0], nil, layout, 0) at the
// real sizes: layout 0 and 1, each with the reading's identity on (the
// seal's digest taken from the decoder's reading) and off (the separate
// reading). TestPrintOldStates prints them (MCPGEN_PRINT_OLD_STATES=1).
var oldStates = map[string]string{
	"layout 0, fused true":  "AgAAAaMYkz6ARqaFAxl9jd8FQj5YyT8j6z9K7Mrm0RRO4dFM8hlJlyaQ3WkkZ2PDzi4gjN3W9MwUnlEqVTqwhn1in3TvxPK6YkMdvd36Yg",
	"layout 0, fused false": "AgAAAaMYkz6ARqaFAxl9jd8FQj5YyT8j6z9K7Mrm0RRO4dFM8hlJlyaUocn96xA7zwmEtTQCZiGQ7YHPtTB8wdrkcjToDfwKRVhtKV4Xsw",
	"layout 1, fused true":  "AgAAAaMYkz6Aq762X8izWk97yQSf1t1SIcerzlBvDDjQuDxQkwsH9VMYBDJJgWt612y7s4jdxUQe3_3OO1MjgrEPkzCf--1YckPjSXuBlg",
	"layout 1, fused false": "AgAAAaMYkz6Aq762X8izWk97yQSf1t1SIcerzlBvDDjQuDxQkwsH9VMnYrTXxkWuJHPAazRdAPGr1QFhGit2dFbJSDwOHLxs7HreEp6Z0g",
}

// TestPrintOldStates prints oldStates as this build seals them.
func TestPrintOldStates(t *testing.T) {
	if os.Getenv("MCPGEN_PRINT_OLD_STATES") == "" {
		t.Skip("MCPGEN_PRINT_OLD_STATES not set")
	}
	s := oldStateServer(t)
	// A first seal, so that the tool's first rounds take their digest
	// from the reading where this build can.
	s.HandleBytes(context.Background(), fusedMessage("tasked", []byte(`{"items":[]}`), "", false), nil)
	for layout := range uint8(2) {
		for _, fused := range []bool{true, false} {
			args := fusedArgs([]byte(fusedSeeds[0]), nil, layout, 0)
			before := fusedDigests.Load()
			body, _ := fusedAnswer(s, "tasked", args, "", fused)
			if taken := fusedDigests.Load() > before; taken != fused {
				t.Fatalf("layout %d: digest taken from the reading %v, want %v", layout, taken, fused)
			}
			var m struct {
				Result struct {
					RequestState string `json:"requestState"`
				} `json:"result"`
			}
			if err := json.Unmarshal(body, &m); err != nil || m.Result.RequestState == "" {
				t.Fatalf("no state: %v %.300s", err, body)
			}
			fmt.Printf("\t%q: %q,\n", fmt.Sprintf("layout %d, fused %v", layout, fused), m.Result.RequestState)
		}
	}
}

// TestFusedIdentityOldStates: the states of an earlier build open on the
// path that now takes the digest from the decoder's reading (and it is
// taken there), and a state for other arguments is still refused.
func TestFusedIdentityOldStates(t *testing.T) {
	s := oldStateServer(t)
	if len(oldStates) != 4 {
		t.Fatalf("%d old states, want 4", len(oldStates))
	}
	for key, state := range oldStates {
		var layout uint8
		if _, err := fmt.Sscanf(key, "layout %d", &layout); err != nil {
			t.Fatal(err)
		}
		for _, other := range []bool{false, true} {
			args := fusedArgs([]byte(fusedSeeds[0]), nil, layout, 0)
			if other {
				args = fusedArgs([]byte(fusedSeeds[0]), nil, 1-layout, 0)
			}
			before := fusedDigests.Load()
			body, _ := fusedAnswer(s, "tasked", args, state, true)
			if other {
				if !strings.Contains(string(body), errOtherRequest.Error()) {
					t.Errorf("%s, given with other arguments: %.300s", key, body)
				}
				continue
			}
			if !strings.Contains(string(body), `ok `) || !strings.Contains(string(body), `{\"step\":1}`) {
				t.Errorf("%s: refused: %.300s", key, body)
			}
			if fusedDigests.Load() == before {
				t.Errorf("%s: the digest was not taken from the decoder's reading", key)
			}
		}
	}
}
