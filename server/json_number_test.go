package server_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/mcpgen/mcpgen/argschema"
	"github.com/mcpgen/mcpgen/internal/schemapattern"
	"github.com/mcpgen/mcpgen/jsonrpc"
	"github.com/mcpgen/mcpgen/server"
)

type numberArgs struct {
	N json.Number            `json:"n" jsonschema:"required"`
	P *json.Number           `json:"p,omitempty"`
	L []json.Number          `json:"l,omitempty"`
	M map[string]json.Number `json:"m,omitempty"`
	Q json.Number            `json:"q,omitempty,string"`
}

type numberResult struct {
	N json.Number            `json:"n"`
	P *json.Number           `json:"p,omitempty"`
	L []json.Number          `json:"l,omitempty"`
	M map[string]json.Number `json:"m,omitempty"`
	Q json.Number            `json:"q,string"`
	E json.Number            `json:"e"`
}

// TestJSONNumberFieldsAreNumbers: encoding/json writes a json.Number as
// the JSON number it holds (an empty one as 0), and reads one from a JSON
// number, so a json.Number field (also behind a pointer, in a slice or a
// map) is {"type":"number"} in the derived input and output schemas: a
// tool returning one succeeds with structuredContent its outputSchema
// accepts, and an argument a number's schema refuses ("3.5", true) is
// refused. With the ",string" tag option encoding/json quotes it: that
// one is a string holding a number ("x" is refused).
func TestJSONNumberFieldsAreNumbers(t *testing.T) {
	s, err := server.New(server.Options{Name: "x", Version: "1", Tools: []server.Tool{
		server.NewTool(server.ToolInfo{Name: "measure"}, func(ctx context.Context, in numberArgs) (numberResult, error) {
			return numberResult{N: in.N, P: in.P, L: in.L, M: in.M, Q: in.Q}, nil
		}),
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Shutdown(context.Background())
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	call := func(method, params string) map[string]any {
		t.Helper()
		msg, derr := jsonrpc.Decode([]byte(`{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":{` + params + meta + `}}`))
		if derr != nil {
			t.Fatal(derr)
		}
		resp := s.Handle(context.Background(), msg, nil)
		var r struct{ Result map[string]any }
		if err := json.Unmarshal(resp.Body, &r); err != nil || resp.Code != 0 {
			t.Fatalf("%s %s: %d %s", method, params, resp.Code, resp.Body)
		}
		return r.Result
	}

	list := call("tools/list", "")
	tool := list["tools"].([]any)[0].(map[string]any)
	num, str := map[string]any{"type": "number"}, map[string]any{"type": "string", "pattern": schemapattern.Number}
	for _, c := range []struct {
		schema string
		want   map[string]any
	}{
		{"inputSchema", map[string]any{"n": num, "p": num, "l": map[string]any{"type": "array", "items": num},
			"m": map[string]any{"type": "object", "additionalProperties": num}, "q": str}},
		{"outputSchema", map[string]any{"n": num, "e": num, "q": str}},
	} {
		props := tool[c.schema].(map[string]any)["properties"].(map[string]any)
		for name, want := range c.want {
			if got := props[name]; !reflect.DeepEqual(got, want) {
				t.Errorf("%s property %s = %#v, want %#v", c.schema, name, got, want)
			}
		}
	}

	res := call("tools/call", `"name":"measure","arguments":{"n":3.5,"p":-1e3,"l":[1,2.5],"m":{"a":0},"q":"7"},`)
	want := map[string]any{"n": 3.5, "p": -1e3, "l": []any{1.0, 2.5}, "m": map[string]any{"a": 0.0}, "q": "7", "e": 0.0}
	if res["isError"] == true || !reflect.DeepEqual(res["structuredContent"], want) {
		t.Errorf("call with json.Number fields = %v, want structuredContent %v", res, want)
	}
	outSchema, _ := json.Marshal(tool["outputSchema"])
	v, err := argschema.Compile(outSchema)
	if err != nil {
		t.Fatal(err)
	}
	content, _ := json.Marshal(res["structuredContent"])
	if _, err := v.Validate(content); err != nil {
		t.Errorf("structuredContent %s does not match the advertised outputSchema %s: %v", content, outSchema, err)
	}
	for _, args := range []string{`{"n":"3.5"}`, `{"n":true}`, `{"n":1,"l":["1"]}`, `{"n":1,"m":{"a":"1"}}`, `{"n":1,"p":"1"}`, `{"n":1,"q":7}`, `{"n":1,"q":"x"}`} {
		if res := call("tools/call", `"name":"measure","arguments":`+args+`,`); res["isError"] != true {
			t.Errorf("arguments %s: %v, want them refused by the input schema", args, res)
		}
	}
}
