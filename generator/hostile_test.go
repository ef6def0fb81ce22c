package generator_test

import (
	"errors"
	"fmt"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generator"
	"github.com/mcpgen/mcpgen/schema"
)

// hostileSchemas are the kinds of definition a future revision could
// plausibly contain. Each must either generate a package that compiles
// (and passes go vet), or be refused with an error naming a JSON pointer.
var hostileSchemas = []struct {
	name, defs string
	wantErr    string // "" when the schema must generate
}{
	{"keywords and predeclared names", `{"error":{"type":"string"},"string":{"type":"object","properties":{"type":{"type":"string"},"func":{"type":"integer"},"map":{"type":"string"}}},"any":{"type":"integer"},"int":{"type":"boolean"},"Error":{"type":"string"}}`, ""},
	{"generated names", `{"Client":{"type":"object","properties":{"a":{"type":"string"}}},"Caller":{"type":"string"},"MethodPing":{"type":"string"},"Level":{"type":"string","enum":["debug"]},"LevelDebug":{"type":"string"},"DecodeU":{"type":"string"},"U":{"anyOf":[{"$ref":"#/$defs/S1"},{"$ref":"#/$defs/S2"}]},"S1":{"type":"object","properties":{"k":{"const":"a"}},"required":["k"]},"S2":{"type":"object","properties":{"k":{"const":"b"}},"required":["k"]},"Dispatcher":{"type":"string"},"ResultDefaults":{"type":"string"},"DecodeError":{"type":"string"},"PingRequest":{"type":"object","properties":{"method":{"const":"ping"},"id":{"type":"string"}},"required":["method","id"]}}`, ""},
	{"generated methods", `{"X":{"type":"object","properties":{"marshalJSON":{"type":"string"},"appendJSON":{"type":"string"},"AppendJSON":{"type":"integer"},"unmarshalJSON":{"type":"string"},"getMeta":{"type":"string"},"validate":{"type":"string"},"extra":{"type":"string"},"completed":{"type":"string"},"_meta":{"$ref":"#/$defs/M"}}},"M":{"type":"object","properties":{"get":{"type":"string"},"set":{"type":"string"},"validate":{"type":"string"}}}}`, ""},
	{"names equal after casing", `{"T":{"type":"object","properties":{"fooBar":{"type":"string"},"foo_bar":{"type":"integer"},"FooBar":{"type":"boolean"},"foo-bar":{"type":"string"}}},"ab":{"type":"string"},"Ab":{"type":"string"},"AB":{"type":"string"}}`, ""},
	{"not identifiers", `{"tool-annotations.v2":{"type":"object","properties":{"":{"type":"string"},"2x":{"type":"string"},"a,b":{"type":"string"},"say \"hi\"":{"type":"string"},"back\\slash":{"type":"string"},"-":{"type":"string"},"k":{"const":"v","type":"string"},"x,y":{"const":1,"type":"integer"}},"required":["k","x,y"]},"3d":{"type":"string"},"$schema":{"type":"string"}}`, ""},
	{"non-ASCII names", `{"über":{"type":"object","properties":{"größe":{"type":"string"},"名前":{"type":"string"},"ǆx":{"type":"string"}}},"名前":{"type":"string"},"Ωmega":{"type":"string"}}`, ""},
	{"enum values", `{"E":{"type":"string","enum":["a-b","a_b","2x","","über","AB","-",".","a b"]}}`, ""},
	{"duplicate enum values", `{"E":{"type":"string","enum":["a","b","a","\u0061"]},"T":{"type":"object","properties":{"e":{"type":"string","enum":["x","y","x"]},"n":{"type":"integer","enum":[2,2]}}}}`, ""},
	// Completed fills cacheScope (a string) and ttlMs (a number) from
	// ResultDefaults; results that declare them otherwise keep their own.
	{"cache members of other types", `{"ListThingsRequest":{"type":"object","properties":{"method":{"const":"things/list"},"id":{"type":"string"}},"required":["method","id"]},"ListThingsResult":{"type":"object","properties":{"cacheScope":{"type":"string","enum":["private","public"]},"ttlMs":{"type":"integer"}},"required":["cacheScope","ttlMs"]},"GetOddRequest":{"type":"object","properties":{"method":{"const":"odd/get"},"id":{"type":"string"}},"required":["method","id"]},"GetOddResult":{"type":"object","properties":{"cacheScope":{"type":"integer"},"ttlMs":{"type":"string"}},"required":["cacheScope","ttlMs"]},"GetFlagRequest":{"type":"object","properties":{"method":{"const":"flag/get"},"id":{"type":"string"}},"required":["method","id"]},"GetFlagResult":{"type":"object","properties":{"cacheScope":{"type":"boolean"},"ttlMs":{"type":"number"}}},"GetTextRequest":{"type":"object","properties":{"method":{"const":"text/get"},"id":{"type":"string"}},"required":["method","id"]},"GetTextResult":{"type":"object","properties":{"cacheScope":{"type":"string"},"ttlMs":{"type":"string"}},"required":["cacheScope","ttlMs"]}}`, ""},
	{"direct recursion", `{"Node":{"type":"object","properties":{"next":{"$ref":"#/$defs/Node"},"kids":{"type":"array","items":{"$ref":"#/$defs/Node"}},"byName":{"type":"object","additionalProperties":{"$ref":"#/$defs/Node"}}}}}`, ""},
	{"mutual recursion", `{"A":{"type":"object","properties":{"b":{"$ref":"#/$defs/B"}}},"B":{"type":"object","properties":{"a":{"$ref":"#/$defs/A"}}}}`, ""},
	{"recursion through a union", `{"U":{"anyOf":[{"$ref":"#/$defs/S"},{"$ref":"#/$defs/T"}]},"S":{"type":"object","properties":{"k":{"const":"s"},"u":{"$ref":"#/$defs/U"}},"required":["k","u"]},"T":{"type":"object","properties":{"k":{"const":"t"},"list":{"type":"array","items":{"$ref":"#/$defs/U"}}},"required":["k"]}}`, ""},
	{"recursion through allOf", `{"A":{"allOf":[{"$ref":"#/$defs/Base"},{"type":"object","properties":{"child":{"$ref":"#/$defs/A"}}}]},"Base":{"type":"object","properties":{"id":{"type":"string"}}}}`, ""},
	{"recursive array and map", `{"L":{"type":"array","items":{"$ref":"#/$defs/L"}},"M":{"type":"object","additionalProperties":{"$ref":"#/$defs/M"}}}`, ""},
	{"alias cycle", `{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"}}`, "#/$defs/A/$ref: alias cycle: A → B → A"},
	{"self alias", `{"A":{"$ref":"#/$defs/A"}}`, "#/$defs/A/$ref: alias cycle"},
	{"object and array consts", `{"A":{"type":"object","properties":{"o":{"const":{"a":1}},"arr":{"const":[1,2]},"req":{"const":{"k":[true]}}},"required":["req"]}}`, ""},
	{"allOf refinement", `{"Base":{"type":"object","properties":{"level":{"type":"string","enum":["low","high"]},"n":{"type":"integer","minimum":0}}},"Ext":{"allOf":[{"$ref":"#/$defs/Base"},{"type":"object","properties":{"level":{"description":"How loud."},"n":{"type":"integer","description":"A count."}}}]}}`, ""},
	{"allOf cycle", `{"A":{"allOf":[{"$ref":"#/$defs/B"}]},"B":{"allOf":[{"$ref":"#/$defs/A"}]}}`, "allOf cycle"},
	{"required cycle", `{"A":{"type":"object","properties":{"a":{"$ref":"#/$defs/A"}},"required":["a"]}}`, "cycle through required fields"},
	{"union of itself", `{"U":{"anyOf":[{"$ref":"#/$defs/U"},{"type":"object","properties":{"a":{"type":"string"}}}]}}`, "#/$defs/U/anyOf/0"},
	{"too deep", deepDefs(schema.MaxDepth + 2), "nested more than"},
	{"patternProperties", `{"A":{"type":"object","patternProperties":{"^x":{"type":"string"}}}}`, `#/$defs/A: unsupported JSON Schema keyword "patternProperties"`},
	{"prefixItems", `{"A":{"type":"array","prefixItems":[{"type":"string"}]}}`, `#/$defs/A: unsupported JSON Schema keyword "prefixItems"`},
	{"string or object union", `{"A":{"anyOf":[{"type":"string"},{"type":"object","properties":{"a":{"type":"string"}}}]}}`, "#/$defs/A/anyOf/0: union A: unsupported member"},
	{"boolean schema false", `{"A":{"type":"object","properties":{"never":false}}}`, "#/$defs/A/properties/never: unsupported boolean schema false"},
	{"enum without a type", `{"A":{"type":"object","properties":{"e":{"enum":[1,"a"]}}}}`, "#/$defs/A/properties/e"},
	{"keyword beside $ref", `{"B":{"type":"string"},"A":{"$ref":"#/$defs/B","minLength":2}}`, `#/$defs/A: unsupported keyword "minLength" beside $ref`},
}

// roundTrips are, per hostile schema, a definition and a message that the
// generated package must decode and encode again unchanged.
var roundTrips = map[string][2]string{
	"generated methods":        {"X", `{"marshalJSON":"m","appendJSON":"a","AppendJSON":2,"completed":"c","_meta":{"get":"g","set":"s","validate":"v"}}`},
	"duplicate enum values":    {"T", `{"e":"y","n":2}`},
	"names equal after casing": {"T", `{"fooBar":"a","foo_bar":2,"FooBar":true,"foo-bar":"d"}`},
	"not identifiers":          {"tool-annotations.v2", `{"":"e","2x":"t","a,b":"c","say \"hi\"":"q","back\\slash":"s","-":"m","k":"v","x,y":1}`},
	"non-ASCII names":          {"über", `{"größe":"g","名前":"n","ǆx":"d"}`},
	"object and array consts":  {"A", `{"o":{"a":1},"arr":[1,2],"req":{"k":[true]}}`},
	"allOf refinement":         {"Ext", `{"level":"high","n":3}`},
}

// deepDefs is one definition nesting objects depth levels deep.
func deepDefs(depth int) string {
	n := `{"type":"object","properties":{"leaf":{"type":"string"}}}`
	for i := range depth {
		n = fmt.Sprintf(`{"type":"object","properties":{"a%d":%s}}`, i, n)
	}
	return `{"Deep":` + n + `}`
}

func loadDefs(t testing.TB, defs string) (*schema.Model, error) {
	t.Helper()
	return schema.LoadBytes("hostile.json", []byte(`{"$defs":`+defs+`}`), schema.Options{Version: "2030-01-01"})
}

// TestHostileSchemas generates every hostile schema: each is refused with
// a pointer error, or generates a package; all the packages are then vetted
// in one temporary module.
func TestHostileSchemas(t *testing.T) {
	mod := t.TempDir()
	generated := 0
	for i, c := range hostileSchemas {
		t.Run(c.name, func(t *testing.T) {
			m, err := loadDefs(t, c.defs)
			if c.wantErr != "" {
				var list schema.ErrorList
				if !errors.As(err, &list) || !strings.Contains(err.Error(), c.wantErr) || !strings.HasPrefix(list[0].Pointer, "#/") {
					t.Fatalf("Load: %v, want an error list with %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			pkg := fmt.Sprintf("p%d", i)
			files, err := generator.Generate(m, generator.Options{Package: pkg})
			if err != nil {
				t.Fatalf("Generate: %v", err)
			}
			for _, f := range files {
				writeFile(t, filepath.Join(mod, pkg, f.Name), f.Content)
			}
			if rt, ok := roundTrips[c.name]; ok {
				writeFile(t, filepath.Join(mod, pkg, "roundtrip_test.go"), []byte(fmt.Sprintf(roundTripTest, pkg, rt[1], rt[0])))
			}
			generated++
		})
	}
	if testing.Short() || generated == 0 {
		return
	}
	goVet(t, mod, "test")
}

// roundTripTest decodes a message as a definition and encodes it again.
const roundTripTest = `package %s

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	in := %q
	v, err := DecodeNamed(%q, []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var a, b any
	if err := json.Unmarshal([]byte(in), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(out, &b); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("round trip changed the message:\nin  %%s\nout %%s", in, out)
	}
}
`

func writeFile(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// goVet runs go vet ./... in a module of generated packages, then the
// command named by also (such as "test") when it is not empty.
func goVet(t *testing.T, mod string, also ...string) {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command in PATH")
	}
	writeFile(t, filepath.Join(mod, "go.mod"), []byte("module example.com/gen\n\ngo 1.26\n"))
	for _, sub := range append([]string{"vet"}, also...) {
		cmd := exec.Command(goCmd, sub, "./...")
		cmd.Dir = mod
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s ./... in the generated module: %v\n%s", sub, err, out)
		}
	}
}

// TestInlineNamesStable: adding an unrelated definition (one that refers
// to the others, so that they are visited in another order, or declares
// inline types of its own) does not rename the inline types of the others.
func TestInlineNamesStable(t *testing.T) {
	base := `"Tool":{"type":"object","properties":{"annotations":{"type":"object","properties":{"hint":{"type":"string"}}},"kind":{"anyOf":[{"type":"object","properties":{"t":{"const":"a"}},"required":["t"]},{"type":"object","properties":{"t":{"const":"b"}},"required":["t"]}]}}}`
	names := func(defs string) map[string]bool {
		m, err := loadDefs(t, "{"+defs+"}")
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for _, ty := range m.Types {
			if ty.Inline && strings.HasPrefix(ty.Pointer, "#/$defs/Tool/") {
				out[ty.Name] = true
			}
		}
		return out
	}
	before := names(base)
	after := names(base + `,"AAA":{"type":"object","properties":{"tool":{"$ref":"#/$defs/Tool"},"kind":{"anyOf":[{"type":"object","properties":{"t":{"const":"c"}},"required":["t"]},{"type":"object","properties":{"t":{"const":"d"}},"required":["t"]}]}}},"ToolAnnotationsX":{"type":"string"}`)
	for n := range before {
		if !after[n] {
			t.Errorf("inline type %s renamed once an unrelated definition was added (now %v)", n, after)
		}
	}
}

// directiveDefs put directives, block comments, build constraints and
// characters the Go scanner refuses into every kind of text that becomes a
// comment: descriptions of types and fields, and method names (constants,
// client and server docs).
const directiveDefs = `{
"A":{"type":"object","description":"Hi.\n//go:generate touch PWNED\n//go:embed secret.txt\n/* open\n+build linux\n \u00a0+build x\nnul \u0000 bom \ufeff rtl \u202e del \u007f end\r\ncr\rnext\u2028sep\n//line x.go:1","properties":{"x":{"type":"string","description":"f\n//go:linkname foo runtime.foo\n//export X\n\t//go:generate touch PWNED"}}},
"NReq":{"type":"object","description":"N.","properties":{"method":{"const":"n\n//go:generate touch PWNED"},"id":{"type":"string"}},"required":["method","id"]},
"MReq":{"type":"object","description":"M.","properties":{"method":{"const":"m\n//go:generate touch PWNED/list"},"id":{"type":"string"}},"required":["method","id"]},
"ClientRequest":{"anyOf":[{"$ref":"#/$defs/NReq"},{"$ref":"#/$defs/MReq"}]}
}`

// TestDescriptionsInert: text from the schema is only ever comment text.
// No line of the output is a directive (//go:generate would run a command
// from the schema in the user's project; //go:embed, //go:linkname and
// //line change the build), a +build constraint or the start of a block
// comment; the output parses, the characters the Go scanner refuses are
// escaped, and every line of a description can still be read.
func TestDescriptionsInert(t *testing.T) {
	m, err := loadDefs(t, directiveDefs)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	files, err := generator.Generate(m, generator.Options{Package: "p"})
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	var all strings.Builder
	fset := token.NewFileSet()
	for _, f := range files {
		if _, err := parser.ParseFile(fset, f.Name, f.Content, parser.ParseComments); err != nil {
			t.Errorf("%s does not parse: %v", f.Name, err)
		}
		for i, line := range strings.Split(string(f.Content), "\n") {
			text := strings.TrimLeft(line, " \t")
			for _, bad := range []string{"//go:", "//line", "//export", "//extern", "/*"} {
				if strings.HasPrefix(text, bad) {
					t.Errorf("%s:%d is a directive or a block comment: %q", f.Name, i+1, line)
				}
			}
			if constraint.IsPlusBuild(text) || constraint.IsGoBuild(text) {
				t.Errorf("%s:%d is a build constraint: %q", f.Name, i+1, line)
			}
		}
		all.Write(f.Content)
	}
	for _, want := range []string{
		"// A: Hi.\n",
		"// //go:generate touch PWNED\n",
		"// //go:embed secret.txt\n",
		"// /* open\n",
		`// \+build linux` + "\n",
		`// nul \x00 bom \ufeff rtl \u202e del \x7f end` + "\n",
		"// cr\n// next\n// sep\n",
		"// //line x.go:1\n",
		"\t// //go:linkname foo runtime.foo\n",
		"\t// //export X\n",
		"\t// \t//go:generate touch PWNED\n",
		"// //go:generate touch PWNED.\n", // the client's doc of NReq
		"// /* requests.\n",               // the server interface of the "m\n…" methods
	} {
		if !strings.Contains(all.String(), want) {
			t.Errorf("no line %q in the output", want)
		}
	}
	if testing.Short() {
		return
	}
	mod := t.TempDir()
	for _, f := range files {
		writeFile(t, filepath.Join(mod, "p", f.Name), f.Content)
	}
	goVet(t, mod, "build")
}
