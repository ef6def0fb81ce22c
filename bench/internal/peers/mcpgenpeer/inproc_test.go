package mcpgenpeer

import (
	"encoding/json"
	"testing"
)

const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"0"}}`

func callOnce(t *testing.T, call func([]byte) ([]byte, error), id, args string) (text string, isError bool, structured map[string]any) {
	t.Helper()
	reply, err := call([]byte(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"weather_current","arguments":` + args + `,` + meta + `}}`))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Result struct {
			Content           []struct{ Text string } `json:"content"`
			IsError           bool                    `json:"isError"`
			StructuredContent map[string]any          `json:"structuredContent"`
		} `json:"result"`
	}
	if err := json.Unmarshal(reply, &m); err != nil || string(m.ID) != id || len(m.Result.Content) == 0 {
		t.Fatalf("reply %s (%v)", reply, err)
	}
	return m.Result.Content[0].Text, m.Result.IsError, m.Result.StructuredContent
}

func TestInProcess(t *testing.T) {
	call, cleanup, err := InProcess{}.Setup()
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	text, isErr, sc := callOnce(t, call, "1", `{"location":"Paris"}`)
	if text != "Paris: 21.50 (metric)" || isErr || sc["temperature"] != 21.5 || sc["units"] != "metric" {
		t.Errorf("default units: %q %v %v", text, isErr, sc)
	}
	text, isErr, _ = callOnce(t, call, "2", `{"location":"Oslo","units":"imperial"}`)
	if text != "Oslo: 70.70 (imperial)" || isErr {
		t.Errorf("imperial: %q %v", text, isErr)
	}
	if _, isErr, _ = callOnce(t, call, "3", `{"location":"Oslo","units":"rankine"}`); !isErr {
		t.Error("units outside the enum must be a tool error")
	}
}
