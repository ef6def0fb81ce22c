package server

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

type nestedItem struct {
	Name  string   `json:"name"`
	Value int      `json:"value"`
	Tags  []string `json:"tags"`
}

type nestedArgs struct {
	Items []nestedItem `json:"items"`
}

// nestedItemSchema is nestedItem's schema: every field required.
const nestedItemSchema = `{"type":"object","required":["name","value","tags"],"properties":{"name":{"type":"string"},"value":{"type":"integer","minimum":0},"tags":{"type":"array","items":{"type":"string"}}}}`

// countItemsTool answers how many items it got, and keeps the last one's
// name in *kept. Its schema puts the items array under a one-branch
// "anyOf" when whole is set: the same verdicts, but one that the
// element-wise reading of large arguments leaves to a tape of them all.
func countItemsTool(name string, whole bool, kept *string) Tool {
	items := `{"type":"array","items":` + nestedItemSchema + `}`
	if whole {
		items = `{"anyOf":[` + items + `]}`
	}
	schema := `{"type":"object","required":["items"],"properties":{"items":` + items + `}}`
	return NewTool(ToolInfo{Name: name, InputSchema: json.RawMessage(schema)},
		func(ctx context.Context, in nestedArgs) (string, error) {
			if len(in.Items) > 0 {
				*kept = in.Items[len(in.Items)-1].Name
			}
			return "items=" + strconv.Itoa(len(in.Items)), nil
		})
}

// nestedItemsArgs are {"items":[…]} with n items.
func nestedItemsArgs(n int) string {
	var b strings.Builder
	b.WriteString(`{"items":[`)
	for k := range n {
		if k > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"item-%07d","value":%d,"tags":["alpha","beta"]}`, k, k%1000)
	}
	b.WriteString(`]}`)
	return b.String()
}

// TestLargeArrayArgumentWithoutItsTape: over stdio and HTTP, the large
// array of a large message's arguments is validated and decoded an element
// at a time: the call allocates at least most of a tape of the arguments
// (8 bytes a value) less than the same call to a tool whose equivalent
// schema makes the decoder read them whole; both answer alike, and an
// invalid element deep in the array is refused naming its pointer (a tool
// error the model reads).
func TestLargeArrayArgumentWithoutItsTape(t *testing.T) {
	const n = 60000 // about 3.5 MB
	args := nestedItemsArgs(n)
	whole, perr := jsonscan.ParseTape([]byte(args), 600)
	if perr != nil {
		t.Fatal(perr)
	}
	tapeBytes := uint64(8 * whole.Nodes())
	whole.Release()
	var kept string
	s, err := New(Options{Name: "t", Version: "1", Tools: []Tool{countItemsTool("lazy", false, &kept), countItemsTool("whole", true, &kept)}})
	if err != nil {
		t.Fatal(err)
	}
	transports := map[string]func(t *testing.T, tool, args string) string{
		"stdio": func(t *testing.T, tool, args string) string {
			p := startStdio(t, s, 0)
			p.request("1", "tools/call", `{"name":"`+tool+`","arguments":`+args+`}`)
			return jsonOf(t, p.next())
		},
		"http": func(t *testing.T, tool, args string) string {
			w := serveOnce(t, s.HTTPHandler(HTTPOptions{MaxBodyBytes: 16 << 20}), callBody("1", tool, args), stdHeaders("tools/call", tool))
			return w.Body.String()
		},
	}
	for name, call := range transports {
		t.Run(name, func(t *testing.T) {
			measure := func(tool string) uint64 {
				low := ^uint64(0)
				for range 3 {
					var before, after runtime.MemStats
					runtime.GC()
					runtime.ReadMemStats(&before)
					out := call(t, tool, args)
					runtime.ReadMemStats(&after)
					if !strings.Contains(out, "items="+strconv.Itoa(n)) || kept != fmt.Sprintf("item-%07d", n-1) {
						t.Fatalf("%s answered %.300s (last item %q)", tool, out, kept)
					}
					low = min(low, after.TotalAlloc-before.TotalAlloc)
				}
				return low
			}
			lazy, full := measure("lazy"), measure("whole")
			if full < lazy+tapeBytes*8/10 {
				t.Errorf("allocated %d B element-wise, %d B whole: want at least 80%% of the tape (%d B) less", lazy, full, tapeBytes)
			}
			bad := strings.Replace(args, `"item-0054321","value":321`, `"item-0054321","value":-1`, 1)
			for _, tool := range []string{"lazy", "whole"} {
				out := call(t, tool, bad)
				if !strings.Contains(out, `/items/54321/value: value -1 is less than the minimum 0`) || !strings.Contains(out, `"isError":true`) {
					t.Errorf("%s: an invalid element answered %.300s", tool, out)
				}
			}
		})
	}
}
