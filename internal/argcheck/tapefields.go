package argcheck

import (
	"cmp"
	"reflect"
	"slices"
	"strings"
	"sync"
)

// decodeField is one JSON member of a struct, as encoding/json's
// typeFields finds it: the field's index path (through embedded structs)
// and whether its tag has the "string" option.
type decodeField struct {
	name   string
	index  []int
	quoted bool
	tagged bool
}

// structFields are the members decodeStruct fills: exact names only (the
// validator saw exactly these; encoding/json would also fold case).
type structFields struct {
	byName map[string]*decodeField
}

var fieldCache sync.Map // reflect.Type → *structFields

// fieldsOf returns t's decode fields, computed once per type.
func fieldsOf(t reflect.Type) *structFields {
	if f, ok := fieldCache.Load(t); ok {
		return f.(*structFields)
	}
	fields := typeFields(t)
	sf := &structFields{byName: make(map[string]*decodeField, len(fields))}
	for i := range fields {
		sf.byName[fields[i].name] = &fields[i]
	}
	f, _ := fieldCache.LoadOrStore(t, sf)
	return f.(*structFields)
}

// typeFields follows encoding/json's typeFields: json tag names, else Go
// names; embedded structs flattened breadth first; of the fields with one
// name, the shallowest wins, a tagged one among equals, else none.
func typeFields(t reflect.Type) []decodeField {
	type level struct {
		typ   reflect.Type
		index []int
	}
	var current, next []level
	next = []level{{typ: t}}
	var count, nextCount map[reflect.Type]int
	visited := map[reflect.Type]bool{}
	var fields []decodeField
	for len(next) > 0 {
		current, next = next, current[:0]
		count, nextCount = nextCount, map[reflect.Type]int{}
		for _, f := range current {
			if visited[f.typ] {
				continue
			}
			visited[f.typ] = true
			for i := range f.typ.NumField() {
				sf := f.typ.Field(i)
				if sf.Anonymous {
					ft := sf.Type
					if ft.Kind() == reflect.Pointer {
						ft = ft.Elem()
					}
					if !sf.IsExported() && ft.Kind() != reflect.Struct {
						continue
					}
				} else if !sf.IsExported() {
					continue
				}
				tag := sf.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				if !validTagName(name) {
					name = ""
				}
				index := make([]int, len(f.index)+1)
				copy(index, f.index)
				index[len(f.index)] = i
				ft := sf.Type
				if ft.Name() == "" && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				quoted := false
				if hasOption(opts, "string") {
					switch ft.Kind() {
					case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
						reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
						reflect.Float32, reflect.Float64, reflect.String:
						quoted = true
					}
				}
				if name != "" || !sf.Anonymous || ft.Kind() != reflect.Struct {
					tagged := name != ""
					if name == "" {
						name = sf.Name
					}
					fields = append(fields, decodeField{name: name, index: index, quoted: quoted, tagged: tagged})
					if count[f.typ] > 1 {
						// Several embeddings at one depth: a second copy, so
						// the field annihilates below.
						fields = append(fields, fields[len(fields)-1])
					}
					continue
				}
				nextCount[ft]++
				if nextCount[ft] == 1 {
					next = append(next, level{typ: ft, index: index})
				}
			}
		}
	}
	slices.SortFunc(fields, func(a, b decodeField) int {
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
			return 1
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
	return out
}

// hasOption reports whether the comma-separated tag options include name.
func hasOption(opts, name string) bool {
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		if o == name {
			return true
		}
	}
	return false
}
