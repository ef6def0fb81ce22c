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
	// nextSuffix is, per Go-cased type name, the first suffix (0 none,
	// 1 "Type", n "Typen") not yet tried for it.
	nextSuffix map[string]int
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

		nextSuffix: map[string]int{},
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
// any of them is taken, the type tries the next suffix: Name, NameType,
// NameType2… Each base name keeps the suffix its next type starts from, so
// n definitions that read the same once Go-cased are named in linear time:
// a suffix tried for one type is not tried again for a later one of the
// same base name (taken names stay taken; a suffix refused only because a
// name derived from it was taken is skipped too, as no real schema meets).
func (id *idents) nameType(t *schema.Type) {
	base := camel(t.Name)
	var words []string
	if t.Kind == schema.KindEnum {
		words = enumValueWords(t.Enum)
	}
	for i := id.nextSuffix[base]; ; i++ {
		name := base
		switch {
		case i == 1:
			name += "Type"
		case i > 1:
			name += "Type" + strconv.Itoa(i)
		}
		id.nextSuffix[base] = i + 1
		derived := []string{name}
		switch t.Kind {
		case schema.KindUnion:
			derived = append(derived, "Decode"+name)
		case schema.KindEnum:
			if id.taken[name] || !id.freeWithPrefix(name, words) {
				continue
			}
			for _, w := range words {
				derived = append(derived, name+w)
			}
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

// freeWithPrefix reports whether no name prefix+word is taken (the words
// differ from each other: enumValueWords sees to it).
func (id *idents) freeWithPrefix(prefix string, words []string) bool {
	for _, w := range words {
		if id.taken[prefix+w] {
			return false
		}
	}
	return true
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

// enumValueWords are the parts of an enum's constants after the type
// name (LoggingLevel+Debug), all different; the empty value is Empty. Values that read the same once Go-cased are
// numbered in schema order ("a-b", "a_b" → AB, AB2); a numbered word that
// is also the word of another value ("a-b2") gets an X for every earlier
// word it meets (AB2X). Linear: each word continues the X run from where
// the last word of the same spelling stopped.
func enumValueWords(values []string) []string {
	seen := map[string]int{}
	out := make([]string, len(values))
	for i, v := range values {
		word := valueWord(v)
		if n := seen[word]; n > 0 {
			seen[word] = n + 1
			word += strconv.Itoa(n + 1)
		} else {
			seen[word] = 1
		}
		out[i] = word
	}
	// A numbered word may itself be the plain word of a later value
	// ("a-b", "a_b", "a-b2"): in schema order, the later of two equal
	// words takes an X until it differs from every earlier one.
	used := make(map[string]bool, len(out))
	resume := map[string]string{} // word → the last X run tried for it
	for i, w := range out {
		if used[w] {
			try, ok := resume[w]
			if !ok {
				try = w
			}
			for used[try] {
				try += "X"
			}
			resume[w] = try
			out[i] = try
		}
		used[out[i]] = true
	}
	return out
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
