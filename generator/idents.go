package generator

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/schema"
)

// idents holds every package-level Go identifier the generated package
// declares for the model, chosen once so that none collides with another,
// with a name the emitted code declares itself, or with a Go keyword or
// predeclared name. Names follow the schema: the $def RequestId becomes the
// type RequestID, its decoder, enum constants and member lists derive from
// it. A clash is settled by a suffix ("Type", "Value", a number) given in
// schema order, so the same schema always gets the same names.
type idents struct {
	taken   map[string]bool
	typ     map[*schema.Type]string
	members map[*schema.Type]string   // unexported list of declared members
	shapes  map[*schema.Type]string   // unexported shape table of a union
	enum    map[*schema.Type][]string // one constant per enum value
	method  map[*schema.Method]string // MethodToolsCall
	handler map[*schema.Method]string // CallTool
	code    map[int64]string          // CodeMethodNotFound
	group   map[string]string         // "tools" → "Tools"
	owner   map[string]string         // Go name → JSON pointer of the schema it comes from
}

// fixedNames are the package-level names the emitters declare whatever the
// schema says (support.go adds its own, read from its source).
var fixedNames = []string{
	"ProtocolVersion", "JSONRPCVersion", "MethodInfo", "LookupMethod", "methodTable", "Route",
	"Dispatcher", "NewDispatcher", "Caller", "Client", "NewClient", "DecodeNamed",
	resultDefaultsName, resultCompleterName,
}

// supportNames lists the package-level names of the static files
// (support.go, jsonappend.go).
func supportNames() []string {
	var out []string
	for _, sf := range staticFiles {
		out = append(out, sourceNames(sf.name, sf.src)...)
	}
	return out
}

// sourceNames lists the package-level names of one Go source.
func sourceNames(name, src string) []string {
	f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.SkipObjectResolution)
	if err != nil {
		panic("generator: " + name + " does not parse: " + err.Error())
	}
	var out []string
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				out = append(out, d.Name.Name)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					out = append(out, s.Name.Name)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						out = append(out, n.Name)
					}
				}
			}
		}
	}
	return out
}

func newIdents(m *schema.Model) *idents {
	id := &idents{
		taken:   map[string]bool{},
		typ:     map[*schema.Type]string{},
		members: map[*schema.Type]string{},
		shapes:  map[*schema.Type]string{},
		enum:    map[*schema.Type][]string{},
		method:  map[*schema.Method]string{},
		handler: map[*schema.Method]string{},
		code:    map[int64]string{},
		group:   map[string]string{},
		owner:   map[string]string{},
	}
	for _, n := range append(supportNames(), fixedNames...) {
		id.taken[n] = true
	}
	for _, n := range []string{"encoding", "json", "fmt", "slices", "context", "reflect", "strings", "strconv", "bytes", "errors"} {
		id.taken[n] = true // imported package names
	}
	all := append(append([]*schema.Method{}, m.Requests...), m.Notifications...)
	for _, md := range all {
		id.method[md] = id.claim("Method"+camel(md.Name), "")
		id.owner[id.method[md]] = md.Type.Pointer
	}
	for _, ec := range m.ErrorCodes {
		id.code[ec.Code] = id.claim("Code"+camel(ec.Name), "")
	}
	for _, md := range m.Requests {
		prefix := groupPrefix(md.Name)
		if _, ok := id.group[prefix]; ok {
			continue
		}
		g := camel(prefix)
		for id.taken[g+"Handler"] || id.taken["Unimplemented"+g+"Handler"] {
			g += "Group"
		}
		id.taken[g+"Handler"], id.taken["Unimplemented"+g+"Handler"] = true, true
		id.group[prefix] = g
	}
	for _, t := range m.Types {
		id.nameType(t)
	}
	// Client and every handler interface hold one Go method per request:
	// those names must differ too (and from Client's own field).
	methods := map[string]bool{"caller": true}
	for _, md := range m.Requests {
		h := trimSuffix(id.typ[md.Type], "Request")
		for methods[h] {
			h += "Request"
		}
		methods[h] = true
		id.handler[md] = h
	}
	return id
}

// nameType picks the names of one type and of what derives from it; if
// any of them is taken, the type tries the next suffix.
func (id *idents) nameType(t *schema.Type) {
	base := camel(t.Name)
	for i := 0; ; i++ {
		name := base
		switch {
		case i == 1:
			name += "Type"
		case i > 1:
			name += "Type" + strconv.Itoa(i)
		}
		derived := []string{name}
		switch t.Kind {
		case schema.KindUnion:
			derived = append(derived, "Decode"+name)
		case schema.KindEnum:
			derived = append(derived, enumValueNames(name, t.Enum)...)
		}
		if !id.free(derived) {
			continue
		}
		for _, n := range derived {
			id.taken[n] = true
			id.owner[n] = t.Pointer
		}
		id.typ[t] = name
		if t.Kind == schema.KindEnum {
			id.enum[t] = derived[1:]
		}
		id.members[t] = id.claim(lowerFirst(name)+"Members", "")
		id.shapes[t] = id.claim(lowerFirst(name)+"Shapes", "")
		id.owner[id.members[t]], id.owner[id.shapes[t]] = t.Pointer, t.Pointer
		return
	}
}

func (id *idents) free(names []string) bool {
	seen := map[string]bool{}
	for _, n := range names {
		if id.taken[n] || seen[n] {
			return false
		}
		seen[n] = true
	}
	return true
}

// claim takes name, or name with the first free numeric suffix.
func (id *idents) claim(name, sep string) string {
	out := name
	for i := 2; id.taken[out] || token.IsKeyword(out) || predeclared[out]; i++ {
		out = name + sep + strconv.Itoa(i)
	}
	id.taken[out] = true
	return out
}

// enumValueNames names the constants of an enum's values: LoggingLevelDebug.
// Values that read the same once Go-cased ("a-b", "a_b") are numbered in
// schema order; the empty value is <Type>Empty.
func enumValueNames(typeName string, values []string) []string {
	seen := map[string]int{}
	out := make([]string, len(values))
	for i, v := range values {
		word := valueWord(v)
		name := typeName + word
		if n := seen[name]; n > 0 {
			seen[name] = n + 1
			name = fmt.Sprintf("%s%d", name, n+1)
		} else {
			seen[name] = 1
		}
		out[i] = name
	}
	// A numbered name may itself be the plain name of a later value
	// ("a-b", "a_b", "a-b2"): number again until all differ.
	for {
		dup := map[string]int{}
		clash := -1
		for i, n := range out {
			if j, ok := dup[n]; ok {
				clash = max(i, j)
				break
			}
			dup[n] = i
		}
		if clash < 0 {
			return out
		}
		out[clash] += "X"
	}
}

// valueWord is the part of an enum constant that names its value: "debug"
// → "Debug", "2x" → "2x", "" → "Empty", "über" → "Über".
func valueWord(v string) string {
	if v == "" {
		return "Empty"
	}
	w := camel(v)
	if w == "X" && v != "x" && v != "X" {
		// Nothing of the value survived Go-casing ("-", "."): spell its bytes.
		return "X" + fmt.Sprintf("%x", v)
	}
	if len(w) > 1 && w[0] == 'X' && camelDigitPrefixed(v) {
		return w[1:] // after the type name a leading digit is fine
	}
	return w
}

func camelDigitPrefixed(v string) bool {
	for _, r := range v {
		return r >= '0' && r <= '9'
	}
	return false
}

// predeclared are Go's predeclared identifiers; unexported derived names
// must not shadow them.
var predeclared = map[string]bool{
	"any": true, "bool": true, "byte": true, "comparable": true, "complex64": true,
	"complex128": true, "error": true, "float32": true, "float64": true, "int": true,
	"int8": true, "int16": true, "int32": true, "int64": true, "rune": true,
	"string": true, "uint": true, "uint8": true, "uint16": true, "uint32": true,
	"uint64": true, "uintptr": true, "true": true, "false": true, "iota": true,
	"nil": true, "append": true, "cap": true, "clear": true, "close": true,
	"complex": true, "copy": true, "delete": true, "imag": true, "len": true,
	"make": true, "max": true, "min": true, "new": true, "panic": true,
	"print": true, "println": true, "real": true, "recover": true,
}

// trimSuffix removes suffix unless nothing would be left.
func trimSuffix(s, suffix string) string {
	if out, ok := strings.CutSuffix(s, suffix); ok && out != "" {
		return out
	}
	return s
}

func groupPrefix(method string) string {
	for i := 0; i < len(method); i++ {
		if method[i] == '/' {
			return method[:i]
		}
	}
	return method
}
