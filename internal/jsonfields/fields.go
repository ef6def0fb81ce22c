// Package jsonfields is encoding/json's reading of a struct type: which
// fields become which JSON members, by its typeFields rules. The argument
// decoder (internal/argcheck) and the result encoder (internal/jsonenc)
// both read struct types this one way, so what a tool is sent and what it
// returns are named by the same rules as encoding/json's. The generator
// asks ValidTag whether a schema's member name can be a json tag.
package jsonfields

import (
	"cmp"
	"reflect"
	"slices"
	"strings"
	"unicode"
)

// Field is one JSON member of a struct type.
type Field struct {
	Name      string       // the member name: the json tag's, else the Go name
	Tagged    bool         // the name comes from the tag
	Index     []int        // the field's index path, through embedded structs
	Type      reflect.Type // the field's type
	OmitEmpty bool         // the tag's omitempty option
	OmitZero  bool         // the tag's omitzero option
	Quoted    bool         // the tag's string option, on a scalar field
}

// TypeFields follows encoding/json's typeFields: json tag names, else Go
// names; exported fields and the exported fields of embedded structs
// (flattened breadth first, a pointer's too); of the fields with one name,
// the shallowest wins, a tagged one among equals, else none. The result
// is in index order, the order encoding/json writes the members in.
func TypeFields(t reflect.Type) []Field {
	type level struct {
		typ   reflect.Type
		index []int
	}
	var current, next []level
	next = []level{{typ: t}}
	var count, nextCount map[reflect.Type]int
	visited := map[reflect.Type]bool{}
	var fields []Field
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
				if !ValidTag(name) {
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
					case reflect.Bool,
						reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
						reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
						reflect.Float32, reflect.Float64,
						reflect.String:
						quoted = true
					}
				}
				if name != "" || !sf.Anonymous || ft.Kind() != reflect.Struct {
					tagged := name != ""
					if name == "" {
						name = sf.Name
					}
					fields = append(fields, Field{
						Name:      name,
						Tagged:    tagged,
						Index:     index,
						Type:      sf.Type,
						OmitEmpty: hasOption(opts, "omitempty"),
						OmitZero:  hasOption(opts, "omitzero"),
						Quoted:    quoted,
					})
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
	slices.SortFunc(fields, func(a, b Field) int {
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		if c := cmp.Compare(len(a.Index), len(b.Index)); c != 0 {
			return c
		}
		if a.Tagged != b.Tagged {
			if a.Tagged {
				return -1
			}
			return +1
		}
		return slices.Compare(a.Index, b.Index)
	})
	out := fields[:0]
	for advance, i := 0, 0; i < len(fields); i += advance {
		fi := fields[i]
		for advance = 1; i+advance < len(fields); advance++ {
			if fields[i+advance].Name != fi.Name {
				break
			}
		}
		if advance == 1 {
			out = append(out, fi)
			continue
		}
		if g := fields[i : i+advance]; len(g[0].Index) != len(g[1].Index) || g[0].Tagged != g[1].Tagged {
			out = append(out, g[0])
		}
	}
	slices.SortFunc(out, func(a, b Field) int { return slices.Compare(a.Index, b.Index) })
	return out
}

// ValidTag is encoding/json's isValidTag: whether s can be a member name
// taken from a json tag.
func ValidTag(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
			// Backslash and quote chars are reserved, but otherwise any
			// punctuation chars are allowed in a tag name.
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
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
