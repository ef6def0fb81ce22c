package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// bindReport is the structured result of the BindTool tests; its bound
// makes the derived outputSchema one that is checked on every call.
type bindReport struct {
	Echo string   `json:"echo"`
	Days int      `json:"days" jsonschema:"maximum=14"`
	Tags []string `json:"tags,omitempty"`
}

// bindRun is the tool function of most BindTool tests: what it returns
// depends on the location it is asked about.
func bindRun(_ context.Context, in exactArgs) (bindReport, error) {
	switch in.Location {
	case "fail":
		return bindReport{}, errors.New("no weather for fail")
	case "rpc":
		return bindReport{}, &jsonrpc.Error{Code: -32021, Message: "missing capability"}
	case "panic":
		panic("tool panicked")
	case "over":
		return bindReport{Echo: in.Location, Days: 99}, nil // violates the outputSchema
	}
	got, err := json.Marshal(in) // every field as decoded
	return bindReport{Echo: string(got), Days: in.Days, Tags: in.Tags}, err
}

// bindToolPairs are tools built twice, with NewTool and as generated code
// builds them with BindTool, over the same functions.
func bindToolPairs() (viaNew, viaBind []Tool) {
	add := func(n, b Tool) { viaNew, viaBind = append(viaNew, n), append(viaBind, b) }
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: new(true)}

	info := ToolInfo{Name: "weather", Title: "Weather", Description: "Looks up the weather.", Annotations: readOnly}
	add(NewTool(info, bindRun), BindTool(info, (*exactArgs)(nil), (*bindReport)(nil), func(ctx context.Context, in any) (any, error) {
		return bindRun(ctx, *in.(*exactArgs))
	}))

	// A declared schema with a default and additionalProperties false.
	strict := ToolInfo{Name: "strict", InputSchema: json.RawMessage(`{"type":"object","properties":{"location":{"type":"string","minLength":1},"units":{"type":"string","default":"metric"}},"required":["location"],"additionalProperties":false}`)}
	add(NewTool(strict, bindRun), BindTool(strict, (*exactArgs)(nil), (*bindReport)(nil), func(ctx context.Context, in any) (any, error) {
		return bindRun(ctx, *in.(*exactArgs))
	}))

	text := func(_ context.Context, in *exactArgs) (string, error) {
		if in == nil {
			return "nil", nil
		}
		return "at " + in.Location, nil
	}
	add(NewTool(ToolInfo{Name: "pointer"}, text), BindTool(ToolInfo{Name: "pointer"}, (**exactArgs)(nil), (*string)(nil), func(ctx context.Context, in any) (any, error) {
		return text(ctx, *in.(**exactArgs))
	}))

	none := func(context.Context, struct{}) ([]mcp.ContentBlock, error) {
		return []mcp.ContentBlock{&mcp.TextContent{Text: "no arguments"}}, nil
	}
	add(NewTool(ToolInfo{Name: "none"}, none), BindTool(ToolInfo{Name: "none"}, (*struct{})(nil), (*[]mcp.ContentBlock)(nil), func(ctx context.Context, _ any) (any, error) {
		return none(ctx, struct{}{})
	}))

	raw := func(_ context.Context, in json.RawMessage) (*mcp.CallToolResult, error) {
		if strings.Contains(string(in), "nil") {
			return nil, nil
		}
		return &mcp.CallToolResult{Content: []mcp.ContentBlock{&mcp.TextContent{Text: string(in)}}}, nil
	}
	add(NewTool(ToolInfo{Name: "raw"}, raw), BindTool(ToolInfo{Name: "raw"}, (*json.RawMessage)(nil), (**mcp.CallToolResult)(nil), func(ctx context.Context, in any) (any, error) {
		return raw(ctx, *in.(*json.RawMessage))
	}))
	return viaNew, viaBind
}

// TestBindToolBehavesAsNewTool checks that a tool bound the way generated
// code binds it (BindTool) answers every call, valid or not, byte for byte
// as NewTool on the same function does: definitions, validation errors,
// decoding by exact names, defaults, tool errors, protocol errors, panics,
// output checks and every result kind.
func TestBindToolBehavesAsNewTool(t *testing.T) {
	viaNew, viaBind := bindToolPairs()
	server := func(tools []Tool) *Server {
		s, err := New(Options{Name: "bind", Version: "1", Tools: tools, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	sNew, sBind := server(viaNew), server(viaBind)

	calls := []struct {
		tool, args string
		want       string // "result", "isError" or "error"
	}{
		{"weather", `{"location":"Paris","units":"metric","days":3,"tags":["a","b"]}`, "result"},
		{"weather", `{"location":"Paris","at":{"lat":48.8,"name":"P"},"raw":"AQI=","labels":{"x":1}}`, "result"},
		{"weather", `{"location":"Paris","unknown":true}`, "result"},
		{"weather", `{"LOCATION":"Paris"}`, "isError"}, // exact names: location is missing
		{"weather", `{"location":"Paris","Units":"metric"}`, "result"},
		{"weather", `{}`, "isError"},
		{"weather", `{"location":""}`, "isError"},
		{"weather", `{"location":7}`, "isError"},
		{"weather", `{"location":"Paris","units":"kelvin"}`, "isError"},
		{"weather", `{"location":"Paris","days":0}`, "isError"},
		{"weather", `{"location":"Paris","days":2.5}`, "isError"},
		{"weather", `{"location":"Paris","days":1e999}`, "isError"},
		{"weather", `{"location":"Paris","tags":["a","b","c","d"]}`, "isError"},
		{"weather", `{"location":"Paris","at":{"lat":91}}`, "isError"},
		{"weather", `{"location":"Paris","at":{}}`, "isError"},
		{"weather", `{"location":"Paris","raw":"%%%"}`, "isError"},
		{"weather", `{"location":"Paris","labels":{"x":"y"}}`, "isError"},
		{"weather", `{"location":"Paris","location":"Rome"}`, "isError"}, // duplicate member
		{"weather", `{"location":"Paris","units":null}`, "result"},
		{"weather", `null`, "error"},
		{"weather", `[]`, "error"},
		{"weather", `{"location":"fail"}`, "isError"},
		{"weather", `{"location":"rpc"}`, "error"},
		{"weather", `{"location":"panic"}`, "error"},
		{"weather", `{"location":"over"}`, "error"},
		{"strict", `{"location":"Oslo"}`, "result"}, // default units
		{"strict", `{"location":"Oslo","days":3}`, "isError"},
		{"strict", `{"location":"fail"}`, "isError"},
		{"pointer", `{"location":"Oslo"}`, "result"},
		{"pointer", `{}`, "isError"},
		{"none", `{}`, "result"},
		{"none", ``, "result"}, // no arguments member
		{"none", `{"x":1}`, "isError"},
		{"raw", `{"anything":[1,2,{"nested":true}]}`, "result"},
		{"raw", `{"nil":1}`, "result"},
		{"missing", `{}`, "error"},
	}
	seen := map[string]int{}
	for _, c := range calls {
		params := `{"name":"` + c.tool + `"}`
		if c.args != "" {
			params = `{"name":"` + c.tool + `","arguments":` + c.args + `}`
		}
		a, ra := rpcMeta(t, sNew, "tools/call", params, defaultMeta, nil)
		b, rb := rpcMeta(t, sBind, "tools/call", params, defaultMeta, nil)
		if string(ra.Body) != string(rb.Body) {
			t.Errorf("%s %s:\nNewTool:  %s\nBindTool: %s", c.tool, c.args, ra.Body, rb.Body)
			continue
		}
		got := "result"
		switch {
		case a.Error != nil:
			got = "error"
		case a.field(t, "isError") == true:
			got = "isError"
		}
		if got != c.want || (b.Error == nil) != (a.Error == nil) {
			t.Errorf("%s %s: %s (%s), want %s", c.tool, c.args, got, ra.Body, c.want)
		}
		seen[got]++
	}
	if seen["result"] == 0 || seen["isError"] == 0 || seen["error"] == 0 {
		t.Errorf("the table exercised %v; want results, tool errors and JSON-RPC errors", seen)
	}
	la := rpc(t, sNew, "tools/list", `{}`)
	lb := rpc(t, sBind, "tools/list", `{}`)
	if string(la.Result) != string(lb.Result) {
		t.Errorf("tools/list:\nNewTool:  %s\nBindTool: %s", la.Result, lb.Result)
	}
}

// TestBindToolErrors checks what New reports for a tool BindTool cannot
// build: types that are not nil pointers, a nil function, a bad name.
func TestBindToolErrors(t *testing.T) {
	fn := func(context.Context, any) (any, error) { return "ok", nil }
	for _, c := range []struct {
		tool Tool
		want string
	}{
		{BindTool(ToolInfo{Name: "t"}, exactArgs{}, (*string)(nil), fn), `tool "t": BindTool needs nil pointers to the argument and result types, got server.exactArgs and *string`},
		{BindTool(ToolInfo{Name: "t"}, (*exactArgs)(nil), nil, fn), `tool "t": BindTool needs nil pointers to the argument and result types, got *server.exactArgs and <nil>`},
		{BindTool(ToolInfo{Name: "t"}, (*exactArgs)(nil), (*string)(nil), nil), `tool "t": nil function`},
		{BindTool(ToolInfo{Name: "bad name"}, (*exactArgs)(nil), (*string)(nil), fn), `tool "bad name": tool name "bad name" contains ' '`},
	} {
		_, err := New(Options{Name: "bind", Version: "1", Tools: []Tool{c.tool}})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("New: %v, want %s", err, c.want)
		}
	}
	// The same errors as NewTool's for the same function.
	if a, b := NewTool(ToolInfo{Name: "t"}, (func(context.Context, exactArgs) (string, error))(nil)).t.err, BindTool(ToolInfo{Name: "t"}, (*exactArgs)(nil), (*string)(nil), nil).t.err; fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("nil function: NewTool %v, BindTool %v", a, b)
	}
}

// BenchmarkBindToolRun compares one call of a tool bound with NewTool and
// with BindTool on the same function (decode, call, result).
func BenchmarkBindToolRun(b *testing.B) {
	viaNew, viaBind := bindToolPairs()
	args := []byte(`{"location":"Paris","units":"metric","days":3,"tags":["a","b"]}`)
	for _, c := range []struct {
		name string
		tool Tool
	}{{"NewTool", viaNew[0]}, {"BindTool", viaBind[0]}} {
		b.Run(c.name, func(b *testing.B) {
			if c.tool.t.err != nil {
				b.Fatal(c.tool.t.err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.tool.t.run(context.Background(), args, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
