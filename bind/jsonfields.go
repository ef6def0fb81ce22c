package bind

import (
	"cmp"
	"go/types"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/mcpgen/mcpgen/internal/jsonfields"
)

// jsonField is one JSON member of a struct type.
type jsonField struct {
	name   string            // the member name: the json tag's, else the Go name
	tagged bool              // the name comes from the json tag
	index  []int             // the field's index path, through embedded structs
	v      *types.Var        // the field
	tag    reflect.StructTag // its tag
	goPath string            // its Go selector from the struct: "Inner.Name"
	// hidden: `jsonschema:"-"` on the field or on an embedded struct it is
	// promoted through. encoding/json still counts it when it picks the
	// field of a name, so a hidden field still hides the deeper fields of
	// its name; its member is left out of the schema (and the runtime
	// decoder fills only the members the schema declares).
	hidden bool
}

// maxEmbedDepth bounds the walk through embedded structs (generic types
// can embed ever new instances of themselves).
const maxEmbedDepth = 32

// jsonFields lists the members of st as encoding/json reads them, in
// index order: its typeFields rules in go/types terms, as
// internal/jsonfields.TypeFields (the runtime decoder and encoder) follows
// them on reflect types. Json tag names (when valid), else Go names;
// exported fields and the exported fields of embedded structs (a pointer's
// too; embedded without a json name), flattened breadth first; of the
// fields with one name, the shallowest wins, a tagged one among equals,
// else none of them.
func jsonFields(st *types.Struct) []jsonField {
	type level struct {
		st     *types.Struct
		typ    types.Type // the embedded type (st itself at the top)
		index  []int
		prefix string
		hidden bool
	}
	var current, next []level
	next = []level{{st: st, typ: st}}
	var count, nextCount typeutil.Map // types.Type → int, at the current and next depth
	var visited typeutil.Map          // types.Type → bool
	var fields []jsonField
	for depth := 0; len(next) > 0 && depth <= maxEmbedDepth; depth++ {
		current, next = next, nil
		count, nextCount = nextCount, typeutil.Map{}
		for _, f := range current {
			if visited.At(f.typ) != nil {
				continue
			}
			visited.Set(f.typ, true)
			for i := range f.st.NumFields() {
				sf := f.st.Field(i)
				tag := reflect.StructTag(f.st.Tag(i))
				ft := types.Unalias(sf.Type())
				if p, ok := ft.(*types.Pointer); ok {
					ft = types.Unalias(p.Elem())
				}
				inner, isStruct := ft.Underlying().(*types.Struct)
				if sf.Embedded() {
					if !sf.Exported() && !isStruct {
						continue
					}
				} else if !sf.Exported() {
					continue
				}
				jsonTag := tag.Get("json")
				if jsonTag == "-" {
					continue
				}
				name, _, _ := strings.Cut(jsonTag, ",")
				if !jsonfields.ValidTag(name) {
					name = ""
				}
				schemaFirst, _, _ := strings.Cut(tag.Get("jsonschema"), ",")
				hidden := f.hidden || schemaFirst == "-"
				index := append(slices.Clip(f.index), i)
				if name != "" || !sf.Embedded() || !isStruct {
					tagged := name != ""
					if name == "" {
						name = sf.Name()
					}
					fields = append(fields, jsonField{name: name, tagged: tagged, index: index, v: sf, tag: tag,
						goPath: f.prefix + sf.Name(), hidden: hidden})
					if n, _ := count.At(f.typ).(int); n > 1 {
						// Several embeddings at one depth: a second copy, so
						// the field annihilates below.
						fields = append(fields, fields[len(fields)-1])
					}
					continue
				}
				n, _ := nextCount.At(ft).(int)
				nextCount.Set(ft, n+1)
				if n == 0 {
					next = append(next, level{st: inner, typ: ft, index: index, prefix: f.prefix + sf.Name() + ".", hidden: hidden})
				}
			}
		}
	}
	slices.SortFunc(fields, func(a, b jsonField) int {
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		if c := cmp.Compare(len(a.index), len(b.index)); c != 0 {
			return c
		}
		if a.tagged != b.tagged {
			if a.tagged {
				return -1
			}
			return +1
		}
		return slices.Compare(a.index, b.index)
	})
	out := fields[:0]
	for advance, i := 0, 0; i < len(fields); i += advance {
		fi := fields[i]
		for advance = 1; i+advance < len(fields); advance++ {
			if fields[i+advance].name != fi.name {
				break
			}
		}
		if advance == 1 {
			out = append(out, fi)
			continue
		}
		if g := fields[i : i+advance]; len(g[0].index) != len(g[1].index) || g[0].tagged != g[1].tagged {
			out = append(out, g[0])
		}
	}
	slices.SortFunc(out, func(a, b jsonField) int { return slices.Compare(a.index, b.index) })
	return out
}
