package server

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"testing"
)

type failingOut struct{}

func (failingOut) MarshalJSON() ([]byte, error) { return nil, errors.New("no encoding") }

// TestToolOutputEncoding: a tool's Out is encoded as json.Marshal encodes
// it (structuredContent and text), and an Out that does not encode fails
// the call with json.Marshal's error, as before the runtime had its own
// encoder.
func TestToolOutputEncoding(t *testing.T) {
	type out struct {
		Text  string            `json:"text"`
		N     float64           `json:"n"`
		Tags  map[string]int    `json:"tags,omitempty"`
		Inner *struct{ A bool } `json:"inner"`
		Fail  any               `json:"fail,omitempty"`
	}
	values := map[string]out{
		"ok":    {Text: "<b>&\u2028\xff", N: 1e21, Tags: map[string]int{"z": 1, "a": 2}},
		"nan":   {N: math.NaN()},
		"chan":  {Fail: make(chan int)},
		"fails": {Fail: failingOut{}},
	}
	s, err := New(Options{Name: "t", Version: "1", Tools: []Tool{
		NewTool(ToolInfo{Name: "enc", Description: "encodes"}, func(_ context.Context, in struct {
			Case string `json:"case" jsonschema:"required"`
		}) (out, error) {
			return values[in.Case], nil
		}),
	}})
	if err != nil {
		t.Fatal(err)
	}
	for name, v := range values {
		msg := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"enc","arguments":{"case":"` + name + `"}}}`
		resp := s.HandleBytes(context.Background(), []byte(msg), nil)
		var reply struct {
			Result *struct {
				Content           []struct{ Text string }
				StructuredContent json.RawMessage
			}
			Error *struct {
				Code    int
				Message string
			}
		}
		if err := json.Unmarshal(resp.Body, &reply); err != nil {
			t.Fatalf("%s: %v: %s", name, err, resp.Body)
		}
		want, wantErr := json.Marshal(v)
		if wantErr != nil {
			if reply.Error == nil || reply.Error.Code != -32603 || reply.Error.Message != "Internal error: "+wantErr.Error() {
				t.Errorf("%s: reply %s, want -32603 with %q", name, resp.Body, wantErr)
			}
			continue
		}
		if reply.Result == nil || string(reply.Result.StructuredContent) != string(want) ||
			len(reply.Result.Content) != 1 || reply.Result.Content[0].Text != string(want) {
			t.Errorf("%s: reply %s, want structuredContent and text %s", name, resp.Body, want)
		}
	}
}
