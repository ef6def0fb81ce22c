package budget

import (
	"fmt"

	"github.com/mcpgen/mcpgen/bench/internal/driver"
	"github.com/mcpgen/mcpgen/bench/internal/payload"
	"github.com/mcpgen/mcpgen/bench/internal/peers/mcpgenpeer"
	"github.com/mcpgen/mcpgen/bench/internal/weather"
)

// Ops are the guarded operations: mcpgen's in-process paths of the
// compare table's in-process rows (the weather call; resources/read,
// a tool result, string and nested arguments of 1 MB, nested at 64 KB to
// keep the guard fast), and start-up with 1 and 100 tools.
func Ops() []Op {
	ops := []Op{call("inproc", driver.Call{Tool: weather.ToolName,
		Arguments: []byte(`{"location":"Paris","units":"metric"}`), Expected: weather.Text("Paris", "metric")}, 2000)}
	mb := 1 << 20
	ops = append(ops,
		call("read-1m-inproc", driver.Call{Method: "resources/read", URI: payload.BlobURI(mb)}, 5),
		call("result-1m-inproc", driver.Call{Tool: payload.ResultTool, Arguments: payload.ResultArguments(mb), Expected: payload.Text(mb)}, 5),
		call("string-1m-inproc", driver.Call{Tool: payload.StringTool, Arguments: payload.StringArguments(mb), Expected: payload.LenText(mb)}, 5),
		call("nested-64k-inproc", driver.Call{Tool: payload.NestedTool, Arguments: payload.NestedArguments(64 << 10),
			Expected: payload.ItemsText(payload.NestedItems(64 << 10))}, 5),
	)
	for _, n := range []int{1, 100} {
		ops = append(ops, Op{Name: fmt.Sprintf("startup-%d", n), N: 3, Setup: func() (func() error, func(), error) {
			return func() error { return mcpgenpeer.InProcess{}.Start(n) }, func() {}, nil
		}})
	}
	return ops
}

// call guards one request through mcpgen's InProcess path (Server.HandleBytes).
func call(name string, c driver.Call, n int) Op {
	return Op{Name: name, N: n, Setup: func() (func() error, func(), error) {
		do, cleanup, err := driver.InProcessCall(mcpgenpeer.InProcess{}, c)
		return do, cleanup, err
	}}
}
