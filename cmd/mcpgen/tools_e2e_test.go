package main

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// toolCall is one tools/call of the generated bindings and a text its
// result (as JSON) must contain.
type toolCall struct{ tool, args, want string }

// bindAndCall runs `mcpgen tools` on a package of src, checks that it
// reports tools bound tools, then calls them through the generated
// bindings and the runtime (a go test in the new module): the schema
// written at build time and the values the runtime decodes must agree.
func bindAndCall(t *testing.T, src string, tools int, calls []toolCall) {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end: builds a new module; skipped with -short")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatal("the go command is not on PATH")
	}
	offlineGo(t)
	var table strings.Builder
	for _, c := range calls {
		fmt.Fprintf(&table, "\t\t{%q, %q, %q},\n", c.tool, c.args, c.want)
	}
	test := `package p

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/server"
)

func TestCalls(t *testing.T) {
	s, err := server.New(server.Options{Name: "t", Version: "1", Tools: MCPTools()})
	if err != nil {
		t.Fatal(err)
	}
	c := mcp.NewClient(s.Caller(server.CallerOptions{}))
	for _, call := range []struct{ tool, args, want string }{
` + table.String() + `	} {
		res, err := c.CallTool(context.Background(), &mcp.CallToolRequestParams{Name: call.tool, Arguments: json.RawMessage(call.args)})
		if err != nil {
			t.Errorf("%s %s: %v", call.tool, call.args, err)
			continue
		}
		got, _ := json.Marshal(res)
		if !strings.Contains(string(got), call.want) {
			t.Errorf("%s %s = %s, want it to contain %s", call.tool, call.args, got, call.want)
		}
	}
}
`
	dir := toolsModule(t, map[string]string{"tools.go": src, "calls_test.go": test})
	code, _, stderr := runToolsCmd(dir, "-v")
	if code != exitOK || !strings.Contains(stderr, fmt.Sprintf(" %d tools,", tools)) {
		t.Fatalf("mcpgen tools: status %d, want %d tools bound; stderr:\n%s", code, tools, stderr)
	}
	cmd := exec.Command(goCmd, "test", "./p")
	cmd.Dir = filepath.Dir(dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		gen, _ := exec.Command("cat", filepath.Join(dir, "mcp_gen.go")).Output()
		t.Fatalf("calling the bound tools: %v\n%s\nmcp_gen.go:\n%s", err, out, gen)
	}
}

// TestToolsSelfEncodingEndToEnd: a tool whose arguments hold types that
// encode themselves (netip.Addr, json.RawMessage, a MarshalJSON type) is
// bound, not left out with exit 0, and takes their JSON forms.
func TestToolsSelfEncodingEndToEnd(t *testing.T) {
	src := `package p

import (
	"context"
	"encoding/json"
	"net/netip"
	"strconv"
	"strings"
)

// Celsius decodes itself from a number or a string.
type Celsius float64

func (c *Celsius) UnmarshalJSON(b []byte) error {
	f, err := strconv.ParseFloat(strings.Trim(string(b), "\""), 64)
	*c = Celsius(f)
	return err
}

type PingArgs struct {
	Host netip.Addr      ` + "`json:\"host\" jsonschema:\"required\"`" + `
	Raw  json.RawMessage ` + "`json:\"raw,omitempty\"`" + `
	Temp Celsius         ` + "`json:\"temp,omitempty\"`" + `
}

type PingResult struct {
	Host netip.Addr ` + "`json:\"host\"`" + `
	Raw  string     ` + "`json:\"raw\"`" + `
	Temp float64    ` + "`json:\"temp\"`" + `
}

// Ping pings a host.
//
//mcp:tool name=ping
func Ping(ctx context.Context, in PingArgs) (PingResult, error) {
	return PingResult{Host: in.Host, Raw: string(in.Raw), Temp: float64(in.Temp)}, nil
}

// Echo is a plain tool next to it.
//
//mcp:tool name=echo
func Echo(ctx context.Context, in PingArgs) (string, error) { return in.Host.String(), nil }
`
	bindAndCall(t, src, 2, []toolCall{
		{"ping", `{"host":"2001:db8::1","raw":{"a":[1]},"temp":"21.5"}`, `"structuredContent":{"host":"2001:db8::1","raw":"{\"a\":[1]}","temp":21.5}`},
		{"ping", `{"host":"10.0.0.1","temp":3}`, `"temp":3}`},
		{"ping", `{"host":"not an address"}`, `"isError":true`},
		{"echo", `{"host":"10.0.0.1"}`, `"text":"10.0.0.1"`},
	})
}

// TestToolsDashMemberEndToEnd: a field tagged `json:"-,"` is the member
// "-" in the inputSchema and is filled from it.
func TestToolsDashMemberEndToEnd(t *testing.T) {
	src := `package p

import "context"

type DashArgs struct {
	Dash   string ` + "`json:\"-,\" jsonschema:\"required\"`" + `
	Hidden string ` + "`json:\"-\"`" + `
}

// Dash returns the member "-".
//
//mcp:tool name=dash
func Dash(ctx context.Context, in DashArgs) (string, error) { return in.Dash + "|" + in.Hidden, nil }
`
	bindAndCall(t, src, 1, []toolCall{
		{"dash", `{"-":"x","Hidden":"h"}`, `"text":"x|"`},
		{"dash", `{}`, `"isError":true`},
	})
}

// TestToolsShadowedFieldEndToEnd: a direct field wins over an embedded
// field of the same JSON name (encoding/json's rule, which the runtime
// decoder follows), in the inputSchema as in the value the tool gets.
func TestToolsShadowedFieldEndToEnd(t *testing.T) {
	src := `package p

import (
	"context"
	"strconv"
)

type Outer struct {
	Name string ` + "`json:\"name\"`" + `
	Note string ` + "`json:\"note\"`" + `
}

type Args3 struct {
	Outer
	Name int ` + "`json:\"name\" jsonschema:\"required,minimum=1\"`" + `
}

// A and B are embedded at one depth: both tag dup, so neither gets it.
type A struct{ Dup string ` + "`json:\"dup\"`" + ` }
type B struct{ Dup string ` + "`json:\"dup\"`" + ` }

type Args4 struct {
	A
	B
	X string ` + "`json:\"x\"`" + `
}

// Clash tests shadowing.
//
//mcp:tool name=clash
func Clash(ctx context.Context, in Args3) (string, error) {
	return strconv.Itoa(in.Name) + "|" + in.Outer.Name + "|" + in.Note, nil
}

// Dup tests annihilation.
//
//mcp:tool name=dup
func Dup(ctx context.Context, in Args4) (string, error) { return in.A.Dup + in.B.Dup + "|" + in.X, nil }
`
	bindAndCall(t, src, 2, []toolCall{
		{"clash", `{"name":5,"note":"n"}`, `"text":"5||n"`},
		{"clash", `{"name":"x"}`, `"isError":true`},
		{"clash", `{"name":0}`, `"isError":true`},
		{"clash", `{}`, `"isError":true`},
		{"dup", `{"dup":"d","x":"y"}`, `"text":"|y"`},
	})
}
