package floorpeer

import (
	"encoding/json"
	"testing"

	"github.com/mcpgen/mcpgen/bench/internal/weather"
)

// BenchmarkLeastJSONCall is the least a server that reads JSON does for the
// benchmark's tools/call, for the budget sweep's reference (bench/README.md,
// "What 60 % of the stdio floor allows"): encoding/json decodes the request
// into the few members it needs (no validation, no _meta), the tool's body
// runs, and encoding/json writes a one-text result. No MCP server does
// less; mcpgen's whole in-process call (bench/internal/peers/mcpgenpeer
// BenchmarkInProcess) also checks the arguments against the tool's schema,
// the protocol's _meta and the envelope's exact keys.
func BenchmarkLeastJSONCall(b *testing.B) {
	req := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"}},"name":"weather_current","arguments":{"location":"Paris","units":"metric"}}}`)
	type content struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	type reply struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  struct {
			Content    []content `json:"content"`
			ResultType string    `json:"resultType"`
		} `json:"result"`
	}
	b.ReportAllocs()
	for b.Loop() {
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Name      string `json:"name"`
				Arguments struct {
					Location string `json:"location"`
					Units    string `json:"units"`
				} `json:"arguments"`
			} `json:"params"`
		}
		if err := json.Unmarshal(req, &msg); err != nil {
			b.Fatal(err)
		}
		var out reply
		out.JSONRPC, out.ID = "2.0", msg.ID
		out.Result.Content = []content{{Type: "text", Text: weather.Text(msg.Params.Arguments.Location, msg.Params.Arguments.Units)}}
		out.Result.ResultType = "complete"
		if _, err := json.Marshal(&out); err != nil {
			b.Fatal(err)
		}
	}
}
