package server

import (
	"context"
	"encoding/json"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

type echoLenArgs struct {
	Data string `json:"data"`
}

// echoLenTool answers the length of its data argument, and keeps the
// argument in *kept for the test to look at after the call.
func echoLenTool(kept *string) Tool {
	return NewTool(ToolInfo{Name: "echo_len", Description: "length of data"},
		func(ctx context.Context, in echoLenArgs) (string, error) {
			*kept = in.Data
			return "len=" + strconv.Itoa(len(in.Data)), nil
		})
}

// TestLargeStringArgumentIsHeldOnce: over stdio and HTTP, whose transports
// read a large message into a buffer of its own, a string argument that is
// most of the message reaches the tool as a view of that buffer: the call
// allocates about one payload less than the same call through a tool
// middleware, which may keep or rewrite the bytes it is handed and so gets
// the argument copied. Both deliver the same text, and the text a tool
// kept is unchanged after the call.
func TestLargeStringArgumentIsHeldOnce(t *testing.T) {
	const size = 4 << 20
	data := strings.Repeat("abcdefgh", size/8)
	passThrough := func(next ToolHandler) ToolHandler { return next }
	var kept string
	plain, wrapped := echoLenTool(&kept), WrapTool(echoLenTool(&kept), passThrough)
	args := `{"data":"` + data + `"}`
	want := `"len=` + strconv.Itoa(size) + `"`

	transports := map[string]func(t *testing.T, tool Tool) string{
		"stdio": func(t *testing.T, tool Tool) string {
			s, err := New(Options{Name: "t", Version: "1", Tools: []Tool{tool}})
			if err != nil {
				t.Fatal(err)
			}
			p := startStdio(t, s, 0)
			p.request("1", "tools/call", `{"name":"echo_len","arguments":`+args+`}`)
			m := p.next()
			res, _ := m["result"].(map[string]any)
			return jsonOf(t, res["content"])
		},
		"http": func(t *testing.T, tool Tool) string {
			s, err := New(Options{Name: "t", Version: "1", Tools: []Tool{tool}})
			if err != nil {
				t.Fatal(err)
			}
			w := serveOnce(t, s.HTTPHandler(HTTPOptions{MaxBodyBytes: 16 << 20}), callBody("1", "echo_len", args), stdHeaders("tools/call", "echo_len"))
			r := decodeReply(t, w.Body.Bytes())
			return string(r.Result)
		},
	}
	for name, call := range transports {
		t.Run(name, func(t *testing.T) {
			measure := func(tool Tool) uint64 {
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				out := call(t, tool)
				runtime.ReadMemStats(&after)
				if !strings.Contains(out, want) {
					t.Fatalf("answer %.200s; want the text %s", out, want)
				}
				if kept != data {
					t.Fatal("the argument the tool kept is not the text sent")
				}
				return after.TotalAlloc - before.TotalAlloc
			}
			best := func(tool Tool) uint64 {
				low := ^uint64(0)
				for range 3 {
					low = min(low, measure(tool))
				}
				return low
			}
			viewed, copied := best(plain), best(wrapped)
			if copied < viewed+size*9/10 {
				t.Errorf("plain tool allocated %d B, wrapped %d B: want about one payload (%d B) less for the plain tool", viewed, copied, size)
			}
			runtime.GC()
			if kept != data {
				t.Error("the argument a tool kept changed after the call")
			}
		})
	}
}

// jsonOf is v encoded as JSON.
func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
