package mcpgenpeer

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"testing"

	"github.com/mcpgen/mcpgen/server"

	"github.com/mcpgen/mcpgen/bench/internal/payload"
)

// BenchmarkInProcess is the inproc row (bench/README.md) as a Go benchmark:
// one weather_current call through Server.HandleBytes, for profiling.
func BenchmarkInProcess(b *testing.B) {
	call, cleanup, err := InProcess{}.Setup()
	if err != nil {
		b.Fatal(err)
	}
	defer cleanup()
	req := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"}},"name":"weather_current","arguments":{"location":"Paris","units":"metric"}}}`)
	if _, err := call(req); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := call(req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkInProcessMRTR is the mrtr-1m row in process: confirm_nested
// with about 1 MB of nested arguments through Server.HandleBytes, its
// first round (input_required, the state sealed) and its second (the
// answer and the state: unsealed, the items counted), a fresh copy of each
// request per round (a transport hands the server its own buffer).
func BenchmarkInProcessMRTR(b *testing.B) {
	call, cleanup, err := InProcess{}.Setup()
	if err != nil {
		b.Fatal(err)
	}
	defer cleanup()
	benchMRTR(b, call, "confirm_nested", true)
}

// BenchmarkInProcessMRTRPaths is BenchmarkInProcessMRTR on the other paths
// a multi round-trip tools/call takes: a server with Options.Visible
// (visible), a tool behind a middleware (wrapped), a tool with a
// json.RawMessage In (raw), a tool with optional task support called by
// a client that does not declare tasks (tasked: it runs in the request).
func BenchmarkInProcessMRTRPaths(b *testing.B) {
	ctx := context.Background()
	for _, c := range []struct {
		name, tool string
		tweak      func(*server.Options)
	}{
		{"visible", "confirm_nested", func(o *server.Options) {
			o.Visible = func(context.Context, server.Item) bool { return true }
		}},
		{"wrapped", "confirm_nested", func(o *server.Options) {
			o.ToolMiddleware = []server.ToolMiddleware{func(next server.ToolHandler) server.ToolHandler { return next }}
		}},
		{"raw", "confirm_raw", func(o *server.Options) { o.Tools = append(o.Tools, confirmRawTool()) }},
		{"tasked", "confirm_tasked", func(o *server.Options) { o.Tools = append(o.Tools, confirmTaskedTool()) }},
	} {
		opts := server.Options{Name: "mcpgen-weather", Version: "0.1.0"}
		(&Tools{}).MCPRegister(&opts)
		c.tweak(&opts)
		s, err := server.New(opts)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			benchMRTR(b, func(req []byte) ([]byte, error) { return s.HandleBytes(ctx, req, nil).Body, nil }, c.tool, c.tool != "confirm_raw")
		})
	}
}

// confirmRawTool is confirm_nested with a json.RawMessage In (the items
// are not counted: its answer is the size of the arguments).
func confirmRawTool() server.Tool {
	info := server.ToolInfo{Name: "confirm_raw", InputSchema: json.RawMessage(payload.NestedSchema)}
	return server.NewTool(info, func(ctx context.Context, in json.RawMessage) (string, error) {
		if err := confirmRound(ctx); err != nil {
			return "", err
		}
		return "bytes=" + strconv.Itoa(len(in)), nil
	})
}

// confirmTaskedTool is confirm_nested with optional task support.
func confirmTaskedTool() server.Tool {
	info := server.ToolInfo{Name: "confirm_tasked", InputSchema: json.RawMessage(payload.NestedSchema), TaskSupport: server.TaskSupportOptional}
	return server.NewTool(info, (&Tools{}).ConfirmNested)
}

// benchMRTR runs the two rounds of tool with about 1 MB of nested
// arguments through call as sub-benchmarks first and second (counted: the
// second answers the items' count).
func benchMRTR(b *testing.B, call func([]byte) ([]byte, error), tool string, counted bool) {
	args := payload.NestedArguments(1 << 20)
	meta := `,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}},"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"}}}}`
	first := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + string(args) + meta)
	reply, err := call(slices.Clone(first))
	if err != nil {
		b.Fatal(err)
	}
	var m struct {
		Result struct {
			RequestState string `json:"requestState"`
		} `json:"result"`
	}
	if err := json.Unmarshal(reply, &m); err != nil || m.Result.RequestState == "" {
		b.Fatalf("first round: %v: %.300s", err, reply)
	}
	state, _ := json.Marshal(m.Result.RequestState)
	second := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + string(args) +
		`,"inputResponses":{"` + payload.ConfirmKey + `":{"action":"accept","content":{"ok":true}}},"requestState":` + string(state) + meta)
	want := "bytes=" + strconv.Itoa(len(args))
	if counted {
		want = payload.ItemsText(payload.NestedItems(1 << 20))
	}
	if reply, err := call(slices.Clone(second)); err != nil || !bytes.Contains(reply, []byte(want)) {
		b.Fatalf("second round: %v: %.300s", err, reply)
	}
	rounds := []struct {
		name string
		req  []byte
	}{{"first", first}, {"second", second}}
	for _, rd := range rounds {
		b.Run(rd.name, func(b *testing.B) {
			buf := make([]byte, len(rd.req))
			b.ReportAllocs()
			for b.Loop() {
				copy(buf, rd.req)
				if _, err := call(buf); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
