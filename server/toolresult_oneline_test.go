package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

type crlfKey string

func (k crlfKey) MarshalText() ([]byte, error) { return []byte("k\r\n" + string(k)), nil }

type indentedPtr struct{}

func (p *indentedPtr) MarshalJSON() ([]byte, error) {
	return []byte("{\r\n\t\"p\" :\n [ 1 ,\r\n 2 ]\n}\n"), nil
}

type crlfText struct{}

func (crlfText) MarshalText() ([]byte, error) { return []byte("a\r\nb\u2028\"\\"), nil }

type oddValues struct {
	Any    any                `json:"any"`
	Keys   map[crlfKey]string `json:"keys"`
	Ptr    indentedPtr        `json:"ptr"`
	PtrP   *indentedPtr       `json:"ptrp"`
	TM     crlfText           `json:"tm"`
	Str    string             `json:"str,string"`
	Int    int                `json:"int,string"`
	M      map[string]any     `json:"m"`
	Bytes  []byte             `json:"bytes"`
	Nested []json.RawMessage  `json:"nested"`
	Pad    string             `json:"pad"`
}

// TestToolResultOneLineWhateverTheValue: a tool result encoded in place
// is marked one line (response does not look for CR or LF), so no value a
// tool returns may put one on the wire: CR and LF in map keys from
// MarshalText, a pointer receiver's indented MarshalJSON, raw JSON laid
// out on lines inside an interface, a slice and a map, ",string" fields,
// a json.RawMessage or map result (its JSON as the text only), a string
// result, an error's text and the server's name; with the text's quotes
// at every block offset. Each answer is one line of JSON.
func TestToolResultOneLineWhateverTheValue(t *testing.T) {
	mk := func(pad int) oddValues {
		return oddValues{
			Any:    json.RawMessage("[\r\n1\n,\t\"x\\n\"\r]"),
			Keys:   map[crlfKey]string{"z": "v\n", "a\r": "\r"},
			PtrP:   &indentedPtr{},
			Str:    "q\n\"r",
			Int:    5,
			M:      map[string]any{"\n": "\r", "x": json.RawMessage("{\n}"), "y": []any{"\n"}},
			Bytes:  []byte("\n\n\n"),
			Nested: []json.RawMessage{json.RawMessage("\n\r 1 \n"), json.RawMessage("\"\\n\"")},
			Pad:    strings.Repeat("\"", pad),
		}
	}
	var tools []Tool
	for pad := 0; pad < 20; pad++ {
		v := mk(pad)
		tools = append(tools,
			NewTool(ToolInfo{Name: fmt.Sprintf("s%d", pad)}, func(ctx context.Context, in noArgs) (oddValues, error) { return v, nil }),
			NewTool(ToolInfo{Name: fmt.Sprintf("p%d", pad)}, func(ctx context.Context, in noArgs) (*oddValues, error) { return &v, nil }),
			NewTool(ToolInfo{Name: fmt.Sprintf("r%d", pad)}, func(ctx context.Context, in noArgs) (json.RawMessage, error) {
				return json.RawMessage("{\r\n \"a\" : \"" + strings.Repeat("\\\"", pad) + "\" \n}\n"), nil
			}),
			NewTool(ToolInfo{Name: fmt.Sprintf("m%d", pad)}, func(ctx context.Context, in noArgs) (map[string]any, error) {
				return map[string]any{"a\n": strings.Repeat("\r", pad), "b": v}, nil
			}),
			NewTool(ToolInfo{Name: fmt.Sprintf("a%d", pad)}, func(ctx context.Context, in noArgs) (any, error) {
				return json.RawMessage("[\n" + strings.Repeat(" ", pad) + "1\r\n]"), nil
			}),
			NewTool(ToolInfo{Name: fmt.Sprintf("t%d", pad)}, func(ctx context.Context, in noArgs) (string, error) {
				return strings.Repeat("\n\r", pad), nil
			}),
			NewTool(ToolInfo{Name: fmt.Sprintf("e%d", pad)}, func(ctx context.Context, in noArgs) (string, error) {
				return "", fmt.Errorf("bad\r\n%s", strings.Repeat("\n", pad))
			}),
			NewTool(ToolInfo{Name: fmt.Sprintf("n%d", pad)}, func(ctx context.Context, in noArgs) (int, error) { return pad, nil }),
		)
	}
	s, err := New(Options{Name: "n\nx", Title: "t\r\n", Version: "1\r", Tools: tools})
	if err != nil {
		t.Fatal(err)
	}
	for pad := 0; pad < 20; pad++ {
		for _, k := range "sprmaten" {
			name := fmt.Sprintf("%c%d", k, pad)
			for round := range 3 {
				msg := []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":%q,"arguments":{}}}`, round+1, name))
				body := s.HandleBytes(context.Background(), msg, nil).Body
				if bytes.ContainsAny(body, "\r\n") {
					t.Fatalf("%s: not one line: %q", name, body)
				}
				if !json.Valid(body) {
					t.Fatalf("%s: invalid %q", name, body)
				}
			}
		}
	}
}
