package server

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// The identity of a prompts/get taken from promptArguments' reading
// (mrtr_prompt.go) against the separate reading it replaces (fuseIdentity
// off): the same answers, byte for byte, and the same calls of
// Options.Visible, for every state (none, sealed for these arguments, for
// others, malformed), on arguments of any bytes, to a prompt that is
// visible and to one Options.Visible hides.

// newFusedPromptServer has prompts "p" (argument "a" required; input_required
// with a state on a first round, the arguments' digest and the state on the
// next) and "hidden", which its Options.Visible hides.
func newFusedPromptServer(t testing.TB) *Server {
	fn := func(ctx context.Context, in map[string]string) (string, error) {
		if State(ctx) == nil {
			if err := SetState(ctx, []byte(`{"step":1}`)); err != nil {
				return "", err
			}
			return "", &InputRequiredError{}
		}
		var b []byte
		for _, k := range slices.Sorted(maps.Keys(in)) {
			b = fmt.Appendf(b, "%q=%q;", k, in[k])
		}
		return fmt.Sprintf("%x|%s", sha256.Sum256(b), State(ctx)), nil
	}
	info := func(name string) PromptInfo {
		return PromptInfo{Name: name, Arguments: []PromptArgument{{Name: "a", Required: true}}}
	}
	s, err := New(Options{Name: "t", Version: "1",
		Prompts: []Prompt{NewPrompt(info("p"), fn), NewPrompt(info("hidden"), fn)},
		Visible: func(_ context.Context, item Item) bool {
			fusedVisibleCalls.Add(1)
			return item.Name != "hidden"
		}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// fusedPromptMessage is a prompts/get of prompt with args and state, of at
// least jsonscan.LargeArgsMessage bytes.
func fusedPromptMessage(prompt string, args []byte, state string) []byte {
	var b bytes.Buffer
	b.WriteString(`{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{` + fusedPad() + `"name":"` + prompt + `","arguments":`)
	b.Write(args)
	if state != "" {
		b.WriteString(`,"requestState":"` + state + `"`)
	}
	b.WriteString(`,` + testMeta + `}}`)
	return b.Bytes()
}

// fusedPromptArgs are arguments of at least jsonscan.LazyMin bytes
// around v, a member value: "a", v as member "v", then padding members.
func fusedPromptArgs(v []byte, layout uint8) []byte {
	var b bytes.Buffer
	b.WriteString(`{`)
	if layout%2 == 0 {
		b.WriteString(`"a":"x",`)
	}
	b.WriteString(`"v":`)
	b.Write(v)
	for i := 0; b.Len() < jsonscan.LazyMin()+10; i++ {
		fmt.Fprintf(&b, `,"p%d":"%s"`, i, "\\u00e9<\\n>\u2028")
	}
	b.WriteString(`}`)
	return b.Bytes()
}

// checkFusedPrompt compares the answers to prompt with args under every
// state (or only the one only names, 0 to 3) with and without the
// reading's identity.
func checkFusedPrompt(t *testing.T, s *Server, prompt string, args []byte, only int) {
	state := []byte(`{"step":1}`)
	states := []string{"",
		s.seal(state, wantDigest(mcp.MethodPromptsGet, prompt, args, "")),
		s.seal(state, wantDigest(mcp.MethodPromptsGet, prompt, append(append([]byte{}, args...), ' '), "x")),
		"bm90IGEgc3RhdGU"}
	for k, st := range states {
		if only >= 0 && only != k {
			continue
		}
		answer := func(fused bool) ([]byte, int64) {
			defer func(old bool) { fuseIdentity = old }(fuseIdentity)
			fuseIdentity = fused
			before := fusedVisibleCalls.Load()
			resp := s.HandleBytes(context.Background(), fusedPromptMessage(prompt, args, st), nil)
			return resp.Body, fusedVisibleCalls.Load() - before
		}
		got, gotCalls := answer(true)
		want, wantCalls := answer(false)
		if st == "" { // the first round's state: a fresh nonce each time
			var m struct {
				Result struct {
					RequestState string `json:"requestState"`
				} `json:"result"`
			}
			if json.Unmarshal(got, &m) == nil && m.Result.RequestState != "" {
				got = bytes.Replace(got, []byte(m.Result.RequestState), nil, 1)
			}
			if json.Unmarshal(want, &m) == nil && m.Result.RequestState != "" {
				want = bytes.Replace(want, []byte(m.Result.RequestState), nil, 1)
			}
		}
		if gotCalls != wantCalls {
			t.Fatalf("%s, state %d, %.200q: Visible called %d times, %d before", prompt, k, args, gotCalls, wantCalls)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%s, state %d, %.200q: answers differ:\nfused:    %.400s\nseparate: %.400s", prompt, k, args, got, want)
		}
	}
}

var fusedPromptSeeds = []string{
	`"v"`, `""`, `"\u00e9\ud83d\ude00<>&\u2028\"\\/"`, `"\ud800"`, `"\udc00\ud800x"`, `1`, `null`, `["a"]`, `{"a":"b"}`,
	`"a","v":"b"`, // a repeated name
	`"a","\u0061":"y"`, `"a","":"e"`, `"a","\u00e9":"z","e":"y"`,
}

// TestFusedPromptSameAnswers: the seeds in both layouts, to both prompts,
// under every state, at a small size (and the first four, in one layout,
// at the real sizes); the reading's digest is taken for valid arguments.
func TestFusedPromptSameAnswers(t *testing.T) {
	s := newFusedPromptServer(t)
	for _, small := range []bool{false, true} {
		func() {
			seeds, layouts := fusedPromptSeeds[:4], uint8(1)
			if small {
				defer smallLazySizes(7)()
				seeds, layouts = fusedPromptSeeds, 2
			}
			for _, v := range seeds {
				for layout := range layouts {
					for _, prompt := range []string{"p", "hidden"} {
						checkFusedPrompt(t, s, prompt, fusedPromptArgs([]byte(v), layout), -1)
					}
				}
			}
			before := fusedDigests.Load()
			checkFusedPrompt(t, s, "p", fusedPromptArgs([]byte(`"v"`), 0), 1)
			if fusedDigests.Load() == before {
				t.Error("the digest of valid arguments was not taken from their reading")
			}
		}()
	}
}

// FuzzFusedPrompt: any member value v in either layout, to either prompt,
// under any state, at the fuzzer's small sizes.
func FuzzFusedPrompt(f *testing.F) {
	for i, v := range fusedPromptSeeds {
		f.Add([]byte(v), uint8(i), uint8(i), uint8(i))
	}
	s := newFusedPromptServer(f)
	f.Fuzz(func(t *testing.T, v []byte, layout, state, sizes uint8) {
		if len(v) == 0 || len(v) > 2000 {
			return
		}
		defer smallLazySizes(sizes)()
		args := fusedPromptArgs(v, layout)
		if !json.Valid(args) {
			return // refused with the message, before any of this
		}
		prompt := "p"
		if layout&2 != 0 {
			prompt = "hidden"
		}
		checkFusedPrompt(t, s, prompt, args, int(state%4))
	})
}
