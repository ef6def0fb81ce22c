package server_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	_ "github.com/mcpgen/mcpgen/argschema"
	"github.com/mcpgen/mcpgen/jsonrpc"
	"github.com/mcpgen/mcpgen/server"
)

type ratioArgs struct {
	Divisor  float64 `json:"divisor" jsonschema:"required,exclusiveMinimum=0"`
	Fraction float64 `json:"fraction,omitempty" jsonschema:"exclusiveMaximum=1"`
}

// TestFloatBoundsAfterDecoding: a number that passes the schema by its
// exact value but whose float64 is outside it (1e-400 is 0, below
// exclusiveMinimum 0; 0.99999999999999999 is 1) never reaches the tool:
// the call is refused as invalid arguments are (and 1e309, which no
// float64 holds), a result with isError naming the member and, for the
// former, what the float made of it. Numbers the float holds (0.5,
// 1e-300, 0.9999999999999999) go through.
func TestFloatBoundsAfterDecoding(t *testing.T) {
	var got []ratioArgs
	s, err := server.New(server.Options{Name: "x", Version: "1", Tools: []server.Tool{
		server.NewTool(server.ToolInfo{Name: "ratio"}, func(ctx context.Context, in ratioArgs) (string, error) {
			got = append(got, in)
			return "ok", nil
		}),
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Shutdown(context.Background())
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	for _, c := range []struct{ args, want string }{
		{`{"divisor":1e-400}`, "invalid arguments: /divisor: value 0 must be greater than 0 (the number 1e-400 is 0 as a Go float64)"},
		{`{"divisor":0.` + strings.Repeat("0", 400) + `1}`, "invalid arguments: /divisor: value 0 must be greater than 0 (the number 0.00000000000000000000000000000000000000… is 0 as a Go float64)"},
		{`{"divisor":1,"fraction":0.99999999999999999}`, "invalid arguments: /fraction: value 1 must be less than 1 (the number 0.99999999999999999 is 1 as a Go float64)"},
		{`{"divisor":1e309}`, "invalid arguments: /divisor: cannot hold number 1e309 in a Go float64"},
		{`{"divisor":0.5,"fraction":0.9999999999999999}`, ""},
		{`{"divisor":1e-300,"fraction":0.5}`, ""},
	} {
		got = nil
		msg, derr := jsonrpc.Decode([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ratio","arguments":` + c.args + `,` + meta + `}}`))
		if derr != nil {
			t.Fatal(derr)
		}
		resp := s.Handle(context.Background(), msg, nil)
		for _, in := range got {
			if in.Divisor <= 0 || in.Fraction >= 1 {
				b, _ := json.Marshal(in)
				t.Errorf("arguments %.60s passed the schema, the tool received %s: outside exclusiveMinimum 0 / exclusiveMaximum 1", c.args, b)
			}
		}
		var r struct {
			Result struct {
				Content []struct{ Text string }
				IsError bool
			}
		}
		if err := json.Unmarshal(resp.Body, &r); err != nil || resp.Code != 0 || len(r.Result.Content) != 1 {
			t.Fatalf("arguments %.60s: %d %s", c.args, resp.Code, resp.Body)
		}
		switch {
		case c.want == "" && (r.Result.IsError || len(got) != 1):
			t.Errorf("arguments %.60s: %s, want the tool called", c.args, resp.Body)
		case c.want != "" && (!r.Result.IsError || r.Result.Content[0].Text != c.want || len(got) != 0):
			t.Errorf("arguments %.60s: %s, want the error %q", c.args, resp.Body, c.want)
		}
	}
}
