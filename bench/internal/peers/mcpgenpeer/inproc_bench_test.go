package mcpgenpeer

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"

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
	args := payload.NestedArguments(1 << 20)
	meta := `,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}},"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"}}}}`
	first := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"confirm_nested","arguments":` + string(args) + meta)
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
	second := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"confirm_nested","arguments":` + string(args) +
		`,"inputResponses":{"` + payload.ConfirmKey + `":{"action":"accept","content":{"ok":true}}},"requestState":` + string(state) + meta)
	want := payload.ItemsText(payload.NestedItems(1 << 20))
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
