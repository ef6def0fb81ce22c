package bind

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Each fixture package holds one class of mistakes; every mistake must be
// reported (not only the first), at its position, in source order.
func TestLoadErrors(t *testing.T) {
	cases := []struct {
		fixture string
		want    []string
	}{
		{"errdirective", []string{
			"e.go:11:1: unknown directive //mcp:tol (did you mean //mcp:tool?)",
			"e.go:16:12: unknown key readonly in //mcp:tool directive (did you mean readOnly?)",
			"e.go:16:21: missing value for key name",
			"e.go:16:27: missing value for key title",
			"e.go:16:33: unknown key uri in //mcp:tool directive (known keys: name, title, icon, readOnly, destructive, idempotent, openWorld, scopes, taskSupport, meta, inputSchema, outputSchema)",
			"e.go:16:39: key readOnly is a flag: write readOnly, readOnly=true or readOnly=false, not readOnly=yes",
			"e.go:16:64: duplicate key destructive in //mcp:tool directive",
			"e.go:21:20: unterminated quoted value for key title",
			"e.go:27:1: func D has more than one //mcp: directive",
			`e.go:32:12: scope "bad\"scope" contains "\""; an OAuth scope is printable ASCII without spaces, quotes or backslashes`,
		}},
		{"dupname", []string{
			`d.go:14:12: duplicate tool name "search"; first declared at testdata/fixture/dupname/d.go:9:12`,
			`d.go:24:14: duplicate prompt name "greet"; first declared at testdata/fixture/dupname/d.go:19:1`,
			`d.go:34:16: duplicate resource uri "file:///a"; first declared at testdata/fixture/dupname/d.go:29:16`,
		}},
		{"badname", []string{
			`n.go:7:12: tool name "get weather" contains " "; MCP allows only A-Z, a-z, 0-9, '_', '-' and '.'`,
			`n.go:12:12: tool name "héllo" contains "é"`,
			`n.go:17:12: tool name is 129 characters long; MCP allows at most 128`,
			`n.go:22:12: tool name is empty`,
		}},
		{"notstruct", []string{
			"s.go:12:29: argument type string of func A is not a struct; a tool takes a named struct type (want func(ctx context.Context, in Args) (R, error)",
			"s.go:17:29: argument type *Args of func B is a pointer; take the struct by value",
			"s.go:22:29: argument type struct{Q string} of func C is an unnamed struct; declare a named struct type",
			"s.go:26:2: prompt argument field Count has type int; prompt arguments are strings in MCP",
		}},
		{"badsig", []string{
			"s.go:14:6: cannot bind func A as a tool: results must be (R, error); want func(ctx context.Context, in Args) (R, error)",
			"s.go:19:6: cannot bind func B as a tool: too many parameters; want func(ctx context.Context, in Args) (R, error)",
			"s.go:24:6: cannot bind func C as a tool: variadic funcs cannot be bound",
			"s.go:29:6: result type mcp.CallToolResult of func D must be a pointer: return *mcp.CallToolResult",
			"s.go:34:6: unsupported result type int for func E as a tool; want func(ctx context.Context, in Args) (R, error) where Args is a named struct (ctx and in are optional) and R is a struct, string, []mcp.ContentBlock or *mcp.CallToolResult",
			"s.go:39:29: a resource func takes no argument besides ctx (want func(ctx context.Context) (R, error)",
			"s.go:44:6: unsupported result type []mcp.ContentBlock for func G as a prompt; want func(ctx context.Context, in Args) (R, error) where Args is a named struct of string fields (ctx and in are optional) and R is *mcp.GetPromptResult, []mcp.PromptMessage or string",
			"s.go:49:6: cannot bind func H as a tool: generic funcs and methods of generic types cannot be bound",
			"s.go:54:6: cannot bind func I as a tool: results must be (R, error)",
			`s.go:58:1: //mcp:resource needs uri=<absolute URI>`,
			`s.go:63:16: uri "just/a/path" is not an absolute URI`,
		}},
		{"notfunc", []string{
			"f.go:7:1: //mcp:tool directive is not in the doc comment of a func or method; put it directly above a func (no blank line between)",
			"f.go:9:2: //mcp:tool directive is not in the doc comment of a func or method",
			"f.go:13:1: //mcp:resource directive is not in the doc comment of a func or method",
			"f.go:18:1: //mcp:tool directive is not in the doc comment of a func or method",
			"f.go:21:2: //mcp:tool directive is not in the doc comment of a func or method",
		}},
		{"templatevar", []string{
			"t.go:7:2: field Count bound to template variable {count} has type int; template variables are strings",
			"t.go:12:24: template variable {day} has no field in Vars; add a string field with `json:\"day\"`",
			`t.go:22:24: invalid uriTemplate "weather://{city": unterminated expression starting at offset 10`,
			`t.go:27:1: //mcp:resourceTemplate needs uriTemplate=<RFC 6570 template>`,
			`t.go:32:24: uriTemplate "x://{city}" has variables {city} but func E takes no variables struct`,
		}},
		{"errtags", []string{ // issue 14: every tag mistake is an error at its field
			`t.go:6:2: field A of Args: unknown jsonschema tag key "requried" (did you mean required?)`,
			`t.go:7:2: field B of Args: unknown jsonschema tag key "minLenght" (did you mean minLength?)`,
			`t.go:8:2: field C of Args: unknown jsonschema tag key "descripton" (did you mean description?)`,
			`t.go:9:2: field D of Args: minimum=abc: want a number`,
			`t.go:10:2: field E of Args: uniqueItems is a flag: write uniqueItems or uniqueItems=false, not uniqueItems=maybe`,
			`t.go:11:2: field F of Args: default "c" does not satisfy the field's own schema: value must be one of 'a', 'b'`,
			`t.go:12:2: field G of Args: default 9 does not satisfy the field's own schema: maximum: got 9, want 5`,
			"t.go:13:2: field H of Args: pattern=[a- is not a valid regular expression",
			"t.go:14:2: Args.I has type chan int, which has no JSON form",
			"t.go:15:2: Args.J has type func(), which has no JSON form",
			"t.go:16:2: field K of Args: jsonschema tag key minLength applies to strings, but this field is of JSON type integer",
			"t.go:17:2: field L of Args: nullable is not supported",
			`t.go:18:2: field M of Args: unknown jsonschema tag key "requried" (did you mean required?)`,
			"t.go:29:6: cannot bind func Wrong as a tool: context.Context must be the first parameter",
			`t.go:33:37: unexpected word "Information" in //mcp:tool directive: a value with spaces must be quoted, e.g. title="Weather Information"`,
			`t.go:38:1: "// mcp:tool" is an ordinary comment, not a directive: write //mcp:tool with no space after the slashes`,
			"t.go:43:22: taskSupport=sometimes: want taskSupport=optional or taskSupport=required",
		}},
		{"typeerr", []string{
			"t.go:8:32: undefined: Missing",
		}},
	}
	for _, c := range cases {
		t.Run(c.fixture, func(t *testing.T) {
			t.Parallel()
			pkg, err := loadFixture(t, c.fixture)
			if pkg != nil {
				t.Errorf("Load returned a package along with errors")
			}
			wantErrors(t, c.fixture, err, c.want)
		})
	}
}

func TestLoadSyntaxError(t *testing.T) {
	// Written at run time so that gofmt over the repository never sees it.
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/broken\n\ngo 1.26\n")
	writeFile(t, filepath.Join(dir, "s.go"), "package broken\n\nfunc A( {\n")
	_, err := Load(dir, LoadOptions{Env: testEnv()})
	var list ErrorList
	if !errors.As(err, &list) || len(list) == 0 {
		t.Fatalf("error %v is not an ErrorList", err)
	}
	if p := list[0].Pos; filepath.Base(p.Filename) != "s.go" || p.Line != 3 || p.Column != 9 || !strings.Contains(list[0].Msg, "expected ')'") {
		t.Errorf("first error: %v", list[0])
	}
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
