package server

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// The identity taken from the decoder's reading (mrtr_fused.go) against the
// separate reading it replaces (fuseIdentity off): the same answers, byte
// for byte, for every combination of a requestState (none, sealed for
// these arguments, for others, malformed) and arguments (valid, refused by
// the schema, by the Go type, given up by the lazy path), the same
// Unmarshaler calls, and the seals of first rounds bound to identity's
// digest.

type fusedPlainArgs struct {
	Items []wideItem `json:"items"`
	Grid  [][]int    `json:"grid,omitempty"`
	Label string     `json:"label,omitempty"`
}

// fusedUnmarshals counts fusedCounted's UnmarshalJSON calls.
var fusedUnmarshals atomic.Int64

type fusedCounted struct{ raw []byte }

func (c *fusedCounted) UnmarshalJSON(b []byte) error {
	fusedUnmarshals.Add(1)
	c.raw = append(c.raw[:0], b...)
	return nil
}

func (c fusedCounted) MarshalJSON() ([]byte, error) { return c.raw, nil }

type fusedCountedArgs struct {
	Items []fusedCounted `json:"items"`
	Grid  [][]int        `json:"grid,omitempty"`
	Label string         `json:"label,omitempty"`
}

// fusedTool answers input_required with a state on a first round and the
// decoded arguments' digest and the state on the next.
func fusedTool[T any](name string) Tool { return fusedTaskTool[T](name, TaskSupportNone) }

// fusedTaskTool is fusedTool with the task support given.
func fusedTaskTool[T any](name string, support TaskSupport) Tool {
	info := ToolInfo{Name: name, InputSchema: json.RawMessage(wideToolSchema), TaskSupport: support}
	return NewTool(info, func(ctx context.Context, in T) (string, error) {
		if State(ctx) == nil {
			if err := SetState(ctx, []byte(`{"step":1}`)); err != nil {
				return "", err
			}
			return "", &InputRequiredError{}
		}
		b, err := json.Marshal(in)
		return fmt.Sprintf("%x|%s", sha256.Sum256(b), State(ctx)), err
	})
}

// fusedTools are the tools of the comparison: a plain In, one with a
// json.RawMessage (decoded in two readings), one with an Unmarshaler per
// element, the same plain one behind a middleware, a json.RawMessage In
// (validated, not decoded), a plain one Options.Visible hides on the
// server that has it, and plain ones with optional task support (run in
// the request: fusedMessage declares no tasks) and required task support
// (-32021 without tasks, after the state's comparison).
var fusedTools = []string{"plain", "wide", "counted", "wrapped", "raw", "hidden", "tasked", "required"}

// fusedVisibleCalls counts the calls of the Options.Visible of
// newFusedServer(t, true).
var fusedVisibleCalls atomic.Int64

// newFusedServer is the server of fusedTools, with an Options.Visible
// that hides "hidden" when visible is set (so that the others are read
// after it).
func newFusedServer(t testing.TB, visible bool) *Server {
	mw := func(next ToolHandler) ToolHandler {
		return func(ctx context.Context, call *ToolCall) (*mcp.CallToolResult, error) { return next(ctx, call) }
	}
	opts := Options{Name: "t", Version: "1", Tools: []Tool{
		fusedTool[fusedPlainArgs]("plain"), fusedTool[wideToolArgs]("wide"), fusedTool[fusedCountedArgs]("counted"),
		WrapTool(fusedTool[fusedPlainArgs]("wrapped"), mw), fusedTool[json.RawMessage]("raw"), fusedTool[fusedPlainArgs]("hidden"),
		fusedTaskTool[fusedPlainArgs]("tasked", TaskSupportOptional), fusedTaskTool[fusedPlainArgs]("required", TaskSupportRequired),
	}}
	if visible {
		opts.Visible = func(_ context.Context, item Item) bool {
			fusedVisibleCalls.Add(1)
			return item.Name != "hidden"
		}
	}
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range fusedTools { // each tool has sealed a state: first rounds take the reading's digest
		s.HandleBytes(context.Background(), fusedMessage(name, []byte(`{"items":[]}`), "", false), nil)
	}
	return s
}

// newFusedServers are newFusedServer without Options.Visible and with it.
func newFusedServers(t testing.TB) []*Server {
	return []*Server{newFusedServer(t, false), newFusedServer(t, true)}
}

// fusedPad makes a message of at least jsonscan.LargeArgsMessage bytes:
// its arguments are then only checked by the message's parse and read
// lazily by the decoder.
func fusedPad() string {
	return `"_pad":"` + strings.Repeat("x", jsonscan.LargeArgsMessage()) + `",`
}

func fusedMessage(tool string, args []byte, state string, pad bool) []byte {
	var b bytes.Buffer
	b.WriteString(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{`)
	if pad {
		b.WriteString(fusedPad())
	}
	b.WriteString(`"name":"` + tool + `","arguments":`)
	b.Write(args)
	if state != "" {
		b.WriteString(`,"requestState":"` + state + `"`)
	}
	b.WriteString(`,` + testMeta + `}}`)
	return b.Bytes()
}

// fusedArgs builds arguments of at least jsonscan.LazyMin bytes from
// element v (and w, once, element 2k of the items): layouts with one large
// array, two in the canonical order, two out of it, and around an element
// w.
func fusedArgs(v, w []byte, layout, k uint8) []byte {
	var b bytes.Buffer
	least := 1 // elements of each array
	if len(w) > 0 {
		least = 2*int(k) + 1
	}
	arr := func(min int, el func(i int) []byte) {
		b.WriteByte('[')
		for i := 0; i < least || b.Len() < min; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(el(i))
		}
		b.WriteByte(']')
	}
	items := func(i int) []byte {
		if i == 2*int(k) && len(w) > 0 {
			return w
		}
		return v
	}
	grid := func(i int) []byte { return []byte(fmt.Sprintf("[%d,%d]", i, i+1)) }
	switch layout % 4 {
	case 0:
		b.WriteString(`{"items":`)
		arr(jsonscan.LazyMin()+10, items)
		b.WriteString(`}`)
	case 1: // grid before items: the canonical order
		b.WriteString(`{"label":"l","grid":`)
		arr(jsonscan.LazyMin()+10, grid)
		b.WriteString(`,"items":`)
		arr(b.Len()+jsonscan.LazyMin()+10, items)
		b.WriteString(`}`)
	case 2: // items before grid: read out of the canonical order
		b.WriteString(`{"items":`)
		arr(jsonscan.LazyMin()+10, items)
		b.WriteString(`,"grid":`)
		arr(b.Len()+jsonscan.LazyMin()+10, grid)
		b.WriteString(`,"label":"l"}`)
	default: // w as a member beside the array
		b.WriteString(`{"items":`)
		arr(jsonscan.LazyMin()+10, func(int) []byte { return v })
		b.WriteString(`,"grid":`)
		if len(w) > 0 {
			b.Write(w)
		} else {
			b.WriteString(`[]`)
		}
		b.WriteString(`}`)
	}
	return b.Bytes()
}

// fusedStates are the requestStates of the comparison for args: none,
// sealed for args, sealed for other arguments, malformed.
func fusedStates(s *Server, tool string, args []byte) []string {
	state := []byte(`{"step":1}`)
	return []string{"",
		s.seal(state, wantDigest(mcp.MethodToolsCall, tool, args, "")),
		s.seal(state, wantDigest(mcp.MethodToolsCall, tool, append(append([]byte{}, args...), ' '), "x")),
		"bm90IGEgc3RhdGU"}
}

// fusedCalls are the calls of user code one request made: the
// Unmarshalers' and Options.Visible's.
type fusedCalls struct{ unmarshals, visible int64 }

// fusedAnswer is tool's answer to args with state and the user code it
// called, the reading's identity on or off.
func fusedAnswer(s *Server, tool string, args []byte, state string, fused bool) ([]byte, fusedCalls) {
	defer func(old bool) { fuseIdentity = old }(fuseIdentity)
	fuseIdentity = fused
	u, v := fusedUnmarshals.Load(), fusedVisibleCalls.Load()
	resp := s.HandleBytes(context.Background(), fusedMessage(tool, args, state, true), nil)
	return resp.Body, fusedCalls{fusedUnmarshals.Load() - u, fusedVisibleCalls.Load() - v}
}

// checkFused compares the answers of tool to args under every state (or
// only the one of them only names, when 0 to 3) with and without the
// reading's identity; a first round's sealed state must be bound to
// identity's digest.
func checkFused(t *testing.T, s *Server, tool string, args []byte, only int) {
	for k, state := range fusedStates(s, tool, args) {
		if only >= 0 && only != k {
			continue
		}
		got, gotCalls := fusedAnswer(s, tool, args, state, true)
		want, wantCalls := fusedAnswer(s, tool, args, state, false)
		if gotCalls != wantCalls {
			t.Fatalf("%s, state %d, %.200q: user code called %+v, %+v before", tool, k, args, gotCalls, wantCalls)
		}
		if state == "" {
			var m struct {
				Result struct {
					RequestState string `json:"requestState"`
				} `json:"result"`
			}
			if json.Unmarshal(got, &m) == nil && m.Result.RequestState != "" {
				_, digest, err := s.open(m.Result.RequestState)
				if err != nil || digest != wantDigest(mcp.MethodToolsCall, tool, args, "") {
					t.Fatalf("%s, %.200q: the first round's state is not bound to identity's digest (%v)", tool, args, err)
				}
				got = bytes.Replace(got, []byte(m.Result.RequestState), nil, 1)
				if err := json.Unmarshal(want, &m); err != nil || m.Result.RequestState == "" {
					t.Fatalf("%s, %.200q: only the reading's identity sealed a state: %.300s", tool, args, want)
				}
				want = bytes.Replace(want, []byte(m.Result.RequestState), nil, 1)
			}
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%s, state %d, %.200q: answers differ:\nfused:    %.400s\nseparate: %.400s", tool, k, args, got, want)
		}
	}
}

var fusedSeeds = []string{
	`{"name":"n","value":1,"tags":["a"],"sub":{"k":[1]}}`,
	`{"name":"n"}`,
	`{"name":"","value":1}`,       // minLength
	`{"name":"n","value":-1}`,     // minimum
	`{"name":"n","tags":["c"]}`,   // enum
	`{"name":"n","value":1.5}`,    // not an integer
	`{"name":"n","sub":[1]}`,      // not an object
	`{"name":"n","value":1e1001}`, // beyond the number limits
	`{"name":"\u00e9\ud83d\ude00<>&\u2028","sub":{"\u006b":["\"]"]}}`,
	`{"name":"n","value":null}`, // the default
	`{"value":1}`,               // required
	`{"name":"n","sub":{"k":1,"k":2}}`,
	`{"name":"n","sub":` + strings.Repeat(`[`, 600) + strings.Repeat(`]`, 600) + `}`, // deeper than the arguments may nest
	`17`,
}

// TestFusedIdentitySameAnswers: the seeds in every layout, tool and state.
func TestFusedIdentitySameAnswers(t *testing.T) {
	for n, s := range newFusedServers(t) {
		for i, v := range fusedSeeds {
			for layout := range uint8(4) {
				for _, tool := range fusedTools {
					// At the real sizes, a part of it (the breadth is
					// TestFusedIdentitySmallSizes' and FuzzFusedIdentity's).
					if i%3 != 0 && tool != "plain" && tool != "counted" ||
						n == 1 && (i%3 != 0 || layout > 1 || tool != "plain" && tool != "raw" && tool != "hidden") {
						continue
					}
					checkFused(t, s, tool, fusedArgs([]byte(fusedSeeds[0]), []byte(v), layout, 3), -1)
					if layout == 0 {
						checkFused(t, s, tool, fusedArgs([]byte(v), nil, layout, 0), -1)
					}
				}
			}
		}
	}
}

// TestFusedIdentityTaken: the digest is the reading's where it can be (one
// large array, or two in the canonical order, to a tool with a decoder of
// its own and no middleware: first rounds, states sealed for the
// arguments and for others alike), else the separate reading's.
func TestFusedIdentityTaken(t *testing.T) {
	for _, s := range newFusedServers(t) {
		checkFusedTaken(t, s)
		for sizes := range uint8(18) { // and at the fuzzer's small sizes: the same paths
			func() {
				defer smallLazySizes(sizes)()
				checkFusedTaken(t, s)
			}()
		}
	}
}

// checkFusedTaken is TestFusedIdentityTaken at the sizes set.
func checkFusedTaken(t *testing.T, s *Server) {
	t.Helper()
	v := []byte(fusedSeeds[0])
	for _, c := range []struct {
		tool   string
		layout uint8
		taken  bool
	}{
		{"plain", 0, true}, {"wide", 0, true}, {"counted", 0, true}, {"plain", 1, true}, {"counted", 1, true},
		{"plain", 2, false}, {"wrapped", 0, false}, {"raw", 0, true}, {"raw", 2, true},
		{"hidden", 0, true}, // but a first round's (Options.Visible hides it first)
		{"tasked", 0, true}, {"tasked", 1, true}, {"tasked", 2, false}, {"required", 0, false},
	} {
		args := fusedArgs(v, nil, c.layout, 0)
		for k, state := range fusedStates(s, c.tool, args)[:3] {
			before := fusedDigests.Load()
			fusedAnswer(s, c.tool, args, state, true)
			want := c.taken && !(c.tool == "hidden" && s.opts.Visible != nil && state == "")
			if taken := fusedDigests.Load() > before; taken != want {
				t.Errorf("%s, layout %d, state %d, lazy arrays from %d bytes: digest taken from the reading %v, want %v",
					c.tool, c.layout, k, jsonscan.LazyMin(), taken, want)
			}
		}
	}
}

// FuzzFusedIdentity: any element (v, and w once) in any layout, to any
// tool, under any state. The lazy paths are taken at small sizes
// (smallLazySizes: arguments off the message's tape from 128 bytes, lazy
// arrays from 8 to 128 bytes, windows of 1 to 16 nodes, the canonical form
// hashed every 1 or 64 bytes), so that each input costs microseconds,
// not two messages of a megabyte.
func FuzzFusedIdentity(f *testing.F) {
	for i, v := range fusedSeeds {
		f.Add([]byte(fusedSeeds[0]), []byte(v), uint8(i), uint8(i%3), uint8(i), uint8(i), uint8(i))
		f.Add([]byte(v), []byte(nil), uint8(0), uint8(i), uint8(0), uint8(i+1), uint8(i*5))
	}
	servers := newFusedServers(f)
	f.Fuzz(func(t *testing.T, v, w []byte, layout, k, tool, state, sizes uint8) {
		if len(v) == 0 || len(v) > 2000 || len(w) > 2000 {
			return
		}
		defer smallLazySizes(sizes)()
		args := fusedArgs(v, w, layout, k%8)
		if !json.Valid(args) {
			return // refused with the message, before any of this
		}
		s := servers[int(tool)/len(fusedTools)%len(servers)]
		checkFused(t, s, fusedTools[int(tool)%len(fusedTools)], args, int(state%4))
	})
}

// smallLazySizes lowers the sizes of the lazy paths to one of 18
// combinations (see FuzzFusedIdentity); restore puts them back.
func smallLazySizes(sizes uint8) (restore func()) {
	array := [...]int{8, 32, 128}[sizes%3]
	window := [...]int{1, 3, 16}[sizes/3%3]
	flush := [...]int{1, 64}[sizes/9%2]
	restoreSizes := jsonscan.SetLazySizesForTest(jsonscan.LazySizes{Message: 128, Array: array, WindowNodes: window})
	oldFlush := canonicalFlush
	canonicalFlush = flush
	return func() { restoreSizes(); canonicalFlush = oldFlush }
}

// TestFusedIdentitySmallSizes is TestFusedIdentitySameAnswers at the
// fuzzer's small sizes, each of them.
func TestFusedIdentitySmallSizes(t *testing.T) {
	servers := newFusedServers(t)
	for sizes := range uint8(18) {
		func() {
			defer smallLazySizes(sizes)()
			for i, v := range fusedSeeds {
				for layout := range uint8(4) {
					s := servers[(i+int(sizes))%len(servers)]
					tool := fusedTools[(i+int(layout)+int(sizes))%len(fusedTools)]
					checkFused(t, s, tool, fusedArgs([]byte(fusedSeeds[0]), []byte(v), layout, 3), -1)
					checkFused(t, s, tool, fusedArgs([]byte(v), nil, layout, 0), -1)
				}
			}
		}()
	}
}

// TestFusedIdentityTasks: a request that declares the tasks extension runs
// a tool with task support as a task (BeforeTask, the task made, the
// arguments decoded from a copy in another goroutine), so its
// requestState is compared at once, from the separate reading, as before:
// no digest is taken from a reading, and a state of other arguments is
// refused before any task is made.
func TestFusedIdentityTasks(t *testing.T) {
	for _, s := range newFusedServers(t) {
		for sizes := range uint8(19) {
			restore := func() {}
			if sizes < 18 {
				restore = smallLazySizes(sizes)
			}
			args := fusedArgs([]byte(fusedSeeds[0]), nil, 0, 0)
			states := fusedStates(s, "tasked", args)
			for k, state := range states[1:3] {
				before := fusedDigests.Load()
				msg := bytes.Replace(fusedMessage("tasked", args, state, true), []byte(`clientCapabilities":{}`),
					[]byte(`clientCapabilities":{"extensions":{"`+TasksExtension+`":{}}}`), 1)
				body := string(s.HandleBytes(context.Background(), msg, nil).Body)
				s.tasks.running.Wait() // the task (its state given: it finishes) ran at these sizes
				if fusedDigests.Load() != before {
					t.Errorf("state %d, sizes %d: a task's request took its digest from a reading", k+1, sizes)
				}
				if refused := strings.Contains(body, errOtherRequest.Error()); refused != (k == 1) || !refused && !strings.Contains(body, `"taskId"`) {
					t.Errorf("state %d, sizes %d: %.300s", k+1, sizes, body)
				}
			}
			restore()
		}
	}
}
