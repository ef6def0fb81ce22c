package argcheck

import (
	"encoding/json"
	"errors"
	"math/big"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/mcpgen/mcpgen/internal/jsonfields"
)

// The plan below is the binding the arguments decoder replaced (a tree
// rewritten for encoding/json, then json.Unmarshal), kept as the oracle
// FuzzDecode and the shape tests hold the tape decoder to. jsonFields is
// its own reading of encoding/json's field rules, independent of
// typeFields.

// plan says, for one Go type, which members of a validated tree encoding/json
// may look at when it decodes into that type: exactly the JSON names of a
// struct's fields (encoding/json would also fill a field from a member whose
// name only folds to it — "Units", "UNITS", "unitſ" for `json:"units"` —
// which the schema never validated), the values of a map, the items of a
// slice. Integer fields also get integral numbers written as integers
// ("3.0", "3e0"): JSON Schema calls them integers, encoding/json does not.
type plan struct {
	kind   planKind
	fields map[string]*plan // planStruct: exact JSON name → the field's plan
	elem   *plan            // planMap, planSlice: the element's plan
}

type planKind uint8

const (
	planOpaque  planKind = iota // decoded as is (any, json.RawMessage, an Unmarshaler, basic types)
	planStruct                  // members filtered to the exact field names
	planMap                     // values follow elem
	planSlice                   // items follow elem
	planInteger                 // integral numbers rewritten as integers
	planFloat32                 // a float32: numbers become float32s
	planFloat64                 // a float64: numbers become float64s
	planAny                     // an empty interface: every number in it becomes a float64
)

var plans sync.Map // reflect.Type → *plan

// planFor returns the plan of t, built once per type.
func planFor(t reflect.Type) *plan {
	if p, ok := plans.Load(t); ok {
		return p.(*plan)
	}
	p := buildPlan(t, map[reflect.Type]*plan{})
	plans.Store(t, p)
	return p
}

func buildPlan(t reflect.Type, seen map[reflect.Type]*plan) *plan {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if p, ok := seen[t]; ok {
		return p
	}
	if t.Implements(jsonUnmarshaler) || reflect.PointerTo(t).Implements(jsonUnmarshaler) ||
		t.Implements(textUnmarshaler) || reflect.PointerTo(t).Implements(textUnmarshaler) {
		return &plan{}
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return &plan{kind: planInteger}
	case reflect.Float32:
		return &plan{kind: planFloat32}
	case reflect.Float64:
		return &plan{kind: planFloat64}
	case reflect.Interface:
		if t.NumMethod() == 0 {
			return &plan{kind: planAny}
		}
	case reflect.Slice, reflect.Array:
		if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
			return &plan{} // []byte is a base64 string
		}
		p := &plan{kind: planSlice}
		seen[t] = p
		p.elem = buildPlan(t.Elem(), seen)
		return p
	case reflect.Map:
		p := &plan{kind: planMap}
		seen[t] = p
		p.elem = buildPlan(t.Elem(), seen)
		return p
	case reflect.Struct:
		p := &plan{kind: planStruct, fields: map[string]*plan{}}
		seen[t] = p
		for name, ft := range jsonFields(t) {
			p.fields[name] = buildPlan(ft, seen)
		}
		return p
	}
	return &plan{}
}

// jsonFields maps the JSON names of struct t to their field types, following
// encoding/json's typeFields.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	type cand struct {
		typ    reflect.Type
		depth  int
		tagged bool
	}
	byName := map[string][]cand{}
	type level struct {
		typ   reflect.Type
		depth int
	}
	visited := map[reflect.Type]bool{}
	queue := []level{{t, 0}}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		if visited[cur.typ] {
			continue
		}
		visited[cur.typ] = true
		for i := range cur.typ.NumField() {
			f := cur.typ.Field(i)
			ft := f.Type
			if f.Anonymous {
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if !f.IsExported() && ft.Kind() != reflect.Struct {
					continue
				}
			} else if !f.IsExported() {
				continue
			}
			tag := f.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, _, _ := strings.Cut(tag, ",")
			if !jsonfields.ValidTag(name) {
				name = ""
			}
			if name == "" && f.Anonymous && ft.Kind() == reflect.Struct {
				queue = append(queue, level{ft, cur.depth + 1})
				continue
			}
			tagged := name != ""
			if name == "" {
				name = f.Name
			}
			byName[name] = append(byName[name], cand{f.Type, cur.depth, tagged})
		}
	}
	out := make(map[string]reflect.Type, len(byName))
	for name, cs := range byName {
		minDepth := cs[0].depth
		for _, c := range cs {
			minDepth = min(minDepth, c.depth)
		}
		var win []cand
		for _, c := range cs {
			if c.depth == minDepth {
				win = append(win, c)
			}
		}
		if len(win) > 1 {
			var tagged []cand
			for _, c := range win {
				if c.tagged {
					tagged = append(tagged, c)
				}
			}
			win = tagged
		}
		if len(win) == 1 {
			out[name] = win[0].typ
		}
	}
	return out
}

// apply rewrites v for the plan and returns it with whether it changed.
func (p *plan) apply(v any, depth int) (any, bool) {
	if p == nil || depth > maxDepth {
		return v, false
	}
	switch p.kind {
	case planStruct:
		m, ok := v.(map[string]any)
		if !ok {
			return v, false
		}
		changed := false
		for k, e := range m {
			fp, declared := p.fields[k]
			if !declared {
				delete(m, k)
				changed = true
				continue
			}
			if ne, c := fp.apply(e, depth+1); c {
				m[k], changed = ne, true
			}
		}
		return m, changed
	case planMap:
		m, ok := v.(map[string]any)
		if !ok {
			return v, false
		}
		changed := false
		for k, e := range m {
			if ne, c := p.elem.apply(e, depth+1); c {
				m[k], changed = ne, true
			}
		}
		return m, changed
	case planSlice:
		a, ok := v.([]any)
		if !ok {
			return v, false
		}
		changed := false
		for i, e := range a {
			if ne, c := p.elem.apply(e, depth+1); c {
				a[i], changed = ne, true
			}
		}
		return a, changed
	case planInteger:
		if n, ok := v.(json.Number); ok {
			if i, ok := integral(n); ok {
				return i, true
			}
		}
	}
	return v, false
}

// floatsOf is the oracle of the decoder's floatNotes: a copy of v, a
// planned tree, with each number of the arguments (orig, v before the
// shape: not a default the shape inserted) that becomes a float (by p)
// replaced by the float as encoding/json writes it, when that is not the
// number's value; and those numbers, their locations below at. A number
// without an exact value (beyond big.Rat) is left as it is.
func (p *plan) floatsOf(v, orig any, at string, notes *[]floatNote) any {
	if p == nil {
		return v
	}
	switch v := v.(type) {
	case map[string]any:
		om, _ := orig.(map[string]any)
		m := make(map[string]any, len(v))
		for k, e := range v {
			ep := p.elem
			switch p.kind {
			case planStruct:
				ep = p.fields[k]
			case planAny:
				ep = p
			}
			m[k] = ep.floatsOf(e, om[k], at+"/"+escape(k), notes)
		}
		return m
	case []any:
		oa, _ := orig.([]any)
		a := make([]any, len(v))
		for k, e := range v {
			ep := p.elem
			if p.kind == planAny {
				ep = p
			}
			var o any
			if k < len(oa) {
				o = oa[k]
			}
			a[k] = ep.floatsOf(e, o, at+"/"+strconv.Itoa(k), notes)
		}
		return a
	case json.Number:
		if orig != v {
			return v // a default
		}
		var b []byte
		var bits int
		switch p.kind {
		case planFloat32:
			f, err := strconv.ParseFloat(string(v), 32)
			if err != nil {
				return v
			}
			b, _ = json.Marshal(float32(f))
			bits = 32
		case planFloat64, planAny:
			f, err := strconv.ParseFloat(string(v), 64)
			if err != nil {
				return v
			}
			b, _ = json.Marshal(f)
			bits = 64
		default:
			return v
		}
		x, ok1 := new(big.Rat).SetString(string(v))
		y, ok2 := new(big.Rat).SetString(string(b))
		if !ok1 || !ok2 || x.Cmp(y) == 0 {
			return v
		}
		*notes = append(*notes, floatNote{lit: string(v), shortest: string(b), bits: bits, at: at})
		return json.Number(b)
	}
	return v
}

// floatProblem is the oracle's refusal of a decoded value: v's doc (the
// tree planned for T from the arguments args) with its numbers as T's
// floats hold them (floatsOf) no longer passes v; nil when it does.
func floatProblem[T any](v *Validator, doc any, args []byte) error {
	orig, perr := parse(args)
	if perr != nil {
		return nil // absent or null arguments: {}
	}
	var notes []floatNote
	doc = planFor(reflect.TypeFor[T]()).floatsOf(doc, orig, "", &notes)
	if notes == nil {
		return nil
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	_, err = v.Validate(b)
	var ve *ValidationError
	if !errors.As(err, &ve) {
		return err
	}
	nums := map[int]*floatNote{}
	for k := range notes {
		nums[k] = &notes[k]
	}
	return &ValidationError{Problems: sortProblems(explain(ve.Problems, nums))}
}
