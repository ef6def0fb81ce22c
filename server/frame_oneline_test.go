package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/jsonrpc"
)

// multiLine is a structured tool output with CR and LF in every place its
// encoding could take them from: a string, raw JSON laid out on lines and
// a marshaler that writes indented JSON.
type multiLine struct {
	Text   string          `json:"text"`
	Raw    json.RawMessage `json:"raw"`
	Pretty indented        `json:"pretty"`
}

// indented marshals itself over several lines.
type indented struct{}

func (indented) MarshalJSON() ([]byte, error) { return []byte("{\r\n  \"a\": [\n    1\n  ]\n}"), nil }

// multiLineText is multiLine as a fmt.Stringer whose text has CR and LF.
type multiLineText struct{ multiLine }

func (m multiLineText) String() string { return "line 1\r\nline 2\n" + m.Text }

// TestToolTextOneLine: a tool's result encoded in place (encodeIn marks it
// oneLine, and response does not look for CR or LF) is one line whatever
// its strings, raw JSON and marshalers hold, as a Stringer (encodeAround)
// or not (appendResult), and it is the response AppendResult builds
// around the result.
func TestToolTextOneLine(t *testing.T) {
	out := multiLine{Text: "a\r\nb\n", Raw: json.RawMessage("{\n\"k\" :\r\n [1,\n2]}")}
	s, err := New(Options{Name: "n\nx", Version: "1\r", Tools: []Tool{
		NewTool(ToolInfo{Name: "plain"}, func(ctx context.Context, in noArgs) (multiLine, error) { return out, nil }),
		NewTool(ToolInfo{Name: "stringer"}, func(ctx context.Context, in noArgs) (multiLineText, error) {
			return multiLineText{out}, nil
		}),
	}})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"plain", "stringer"} {
		for round := range 3 { // the Stringer's room is learnt from the first
			msg := []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":%q,"arguments":{}}}`, round+1, name))
			body := s.HandleBytes(context.Background(), msg, nil).Body
			if bytes.ContainsAny(body, "\r\n") {
				t.Fatalf("%s: not one line: %q", name, body)
			}
			var env struct {
				Result json.RawMessage `json:"result"`
			}
			if err := json.Unmarshal(body, &env); err != nil {
				t.Fatalf("%s: %v: %s", name, err, body)
			}
			if !strings.Contains(string(env.Result), `"raw":{"k":[1,2]}`) || !strings.Contains(string(env.Result), `"pretty":{"a":[1]}`) {
				t.Fatalf("%s: %s", name, env.Result)
			}
			decoded, _ := jsonrpc.Decode(msg)
			if want := jsonrpc.AppendResult(nil, decoded.ID, env.Result); !bytes.Equal(body, want) {
				t.Fatalf("%s: %s, want %s", name, body, want)
			}
		}
	}
}
