package schema

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// builder turns schema nodes into model types.
type builder struct {
	file   string
	prefix string // "#/$defs/" or "#/definitions/"
	defs   map[string]*node
	ov     Overrides

	types  map[string]*Type // by name
	inline map[string]*Type // inline schemas by canonical text, for sharing
	done   map[*Type]bool
	errs   ErrorList
}

func newBuilder(file, prefix string, defs map[string]*node, ov Overrides) *builder {
	return &builder{
		file: file, prefix: prefix, defs: defs, ov: ov,
		types:  map[string]*Type{},
		inline: map[string]*Type{},
		done:   map[*Type]bool{},
	}
}

func (b *builder) errorf(ptr, format string, args ...any) {
	b.errs = append(b.errs, &Error{File: b.file, Pointer: ptr, Msg: fmt.Sprintf(format, args...)})
}

func (b *builder) build() *Model {
	names := sortedKeys(b.defs)
	for _, name := range names {
		b.types[name] = &Type{Name: name, Pointer: b.prefix + name}
	}
	for _, name := range names {
		b.checkKeywords(b.defs[name], b.prefix+name)
	}
	for _, name := range names {
		if key := canonical(b.defs[name]); b.inline[key] == nil {
			b.inline[key] = b.types[name]
		}
	}
	for _, name := range names {
		b.define(b.types[name], b.defs[name])
	}
	m := &Model{byName: b.types}
	for _, name := range sortedKeys(b.types) {
		m.Types = append(m.Types, b.types[name])
	}
	openMetaObjects(m)
	if len(b.errs) == 0 {
		b.checkRequiredCycles(m)
		b.methods(m)
	}
	return m
}

// checkKeywords reports keywords the loader does not understand.
func (b *builder) checkKeywords(n *node, ptr string) {
	if n == nil {
		return
	}
	for _, k := range n.keywords {
		if !knownKeywords[k] {
			b.errorf(ptr, "unsupported JSON Schema keyword %q", k)
		}
	}
	for _, k := range sortedKeys(n.Properties) {
		b.checkKeywords(n.Properties[k], ptr+"/properties/"+escapePointer(k))
	}
	b.checkKeywords(n.Items, ptr+"/items")
	if n.AdditionalProperties != nil {
		b.checkKeywords(n.AdditionalProperties.Schema, ptr+"/additionalProperties")
	}
	for kw, list := range map[string][]*node{"anyOf": n.AnyOf, "oneOf": n.OneOf, "allOf": n.AllOf} {
		for i, c := range list {
			b.checkKeywords(c, fmt.Sprintf("%s/%s/%d", ptr, kw, i))
		}
	}
}

// target resolves a $ref to the named type it points at.
func (b *builder) target(ref, ptr string) *Type {
	name, ok := strings.CutPrefix(ref, b.prefix)
	if !ok || strings.Contains(name, "/") {
		b.errorf(ptr, "unsupported $ref %q: only references to %s<name> are supported", ref, b.prefix)
		return nil
	}
	t := b.types[unescapePointer(name)]
	if t == nil {
		b.errorf(ptr, "dangling $ref %q: no such definition", ref)
	}
	return t
}

// define fills in a named type from its schema.
func (b *builder) define(t *Type, n *node) {
	if b.done[t] {
		return
	}
	b.done[t] = true
	t.Doc = n.Description
	t.Deprecated = deprecation(n)
	ptr := t.Pointer
	switch {
	case n.Ref != "" && len(n.Properties) == 0:
		t.Kind = KindAlias
		if target := b.target(n.Ref, ptr+"/$ref"); target != nil {
			t.Elem = &Ref{Named: target}
		}
	case len(n.AnyOf) > 0 || len(n.OneOf) > 0:
		b.defineUnion(t, n)
	case len(n.AllOf) > 0:
		b.defineStruct(t, b.mergeAllOf(n, ptr))
	case len(n.Type) > 1:
		b.defineScalarUnion(t, slices.DeleteFunc(slices.Clone(n.Type), func(s string) bool { return s == "null" }), ptr)
	case hasType(n, "object") || n.Properties != nil:
		if n.Properties == nil && n.AdditionalProperties != nil && n.AdditionalProperties.Allowed {
			t.Kind = KindMap
			t.Elem = b.ref(n.AdditionalProperties.Schema, ptr+"/additionalProperties", t.Name+"Value")
		} else if n.Properties == nil {
			t.Kind = KindMap
			t.Elem = &Ref{Any: true}
		} else {
			b.defineStruct(t, n)
		}
	case hasType(n, "array"):
		t.Kind = KindArray
		t.Elem = b.ref(n.Items, ptr+"/items", t.Name+"Item")
	case hasType(n, "string") && len(n.Enum) > 0:
		t.Kind = KindEnum
		t.Enum = b.stringEnum(n.Enum, ptr+"/enum")
	case len(n.Type) == 1:
		t.Kind = KindScalar
		t.Elem = &Ref{Prim: b.prim(n.Type[0], ptr+"/type")}
		t.Format = n.Format
	case n.isEmpty():
		t.Kind = KindAny
	default:
		b.errorf(ptr, "unsupported schema: no type, $ref or union")
	}
}

func hasType(n *node, name string) bool { return slices.Contains(n.Type, name) }

func (b *builder) prim(name, ptr string) Prim {
	switch p := Prim(name); p {
	case String, Integer, Number, Boolean:
		return p
	}
	b.errorf(ptr, "unsupported type %q", name)
	return String
}

func (b *builder) stringEnum(values []json.RawMessage, ptr string) []string {
	out := make([]string, 0, len(values))
	for i, v := range values {
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			b.errorf(fmt.Sprintf("%s/%d", ptr, i), "unsupported enum value %s: only strings are supported", v)
			continue
		}
		out = append(out, s)
	}
	return out
}

func (b *builder) defineScalarUnion(t *Type, types typeList, ptr string) {
	t.Kind = KindScalarUnion
	for _, name := range types {
		t.Prims = append(t.Prims, b.prim(name, ptr+"/type"))
	}
}

// defineStruct fills in an object type with declared properties.
func (b *builder) defineStruct(t *Type, n *node) {
	t.Kind = KindStruct
	required := map[string]bool{}
	for _, r := range n.Required {
		if n.Properties[r] == nil && !(n.AdditionalProperties != nil && n.AdditionalProperties.Allowed) {
			b.errorf(t.Pointer+"/required", "required property %q is not declared", r)
		}
		required[r] = true
	}
	for _, name := range sortedKeys(n.Properties) {
		p := n.Properties[name]
		ptr := t.Pointer + "/properties/" + escapePointer(name)
		f := &Field{
			Name:       name,
			Pointer:    ptr,
			Doc:        p.Description,
			Deprecated: deprecation(p),
			Required:   required[name],
			Const:      p.Const,
			Default:    p.Default,
			Format:     p.Format,
		}
		if hasType(p, "string") && len(p.Enum) > 0 {
			f.Enum = b.stringEnum(p.Enum, ptr+"/enum")
		}
		f.Presence = b.ov.Presence[name] && !f.Required
		if rule := b.tagRule(name); rule != nil && hasType(p, "string") && p.Const == nil {
			f.Tag = rule.Otherwise
			if v, ok := rule.Values[t.Name]; ok {
				f.Tag = v
			}
		}
		if why, ok := b.ov.Relaxed[ptr]; ok && f.Required {
			f.Required, f.Relaxed = false, why
		}
		if b.ov.Raw[ptr] {
			f.Type = &Ref{Raw: true}
			if len(p.Type) == 1 {
				f.Type.RawKind = p.Type[0]
			}
		} else {
			f.Type = b.ref(p, ptr, t.Name+goCase(name))
		}
		t.Fields = append(t.Fields, f)
	}
	if a := n.AdditionalProperties; a != nil && !a.Allowed {
		t.Closed = true
	}
	if a := n.AdditionalProperties; a != nil && a.Allowed {
		t.Open = true
		if a.Schema != nil && !a.Schema.isEmpty() {
			t.Extra = b.ref(a.Schema, t.Pointer+"/additionalProperties", t.Name+"Value")
		}
	}
}

// mergeAllOf folds an allOf of object schemas into one object schema.
func (b *builder) mergeAllOf(n *node, ptr string) *node {
	out := &node{Type: typeList{"object"}, Properties: map[string]*node{}, Description: n.Description}
	var visit func(part *node, at string)
	visit = func(part *node, at string) {
		if part.Ref != "" {
			t := b.target(part.Ref, at+"/$ref")
			if t == nil {
				return
			}
			part = b.defs[t.Name]
		}
		for _, sub := range part.AllOf {
			visit(sub, at+"/allOf")
		}
		if len(part.AnyOf) > 0 || len(part.OneOf) > 0 || (len(part.Type) > 0 && !hasType(part, "object")) {
			b.errorf(at, "unsupported allOf member: only object schemas can be combined")
			return
		}
		for k, v := range part.Properties {
			if prev := out.Properties[k]; prev != nil {
				v = mergeProperty(prev, v)
			}
			out.Properties[k] = v
		}
		for _, r := range part.Required {
			if !slices.Contains(out.Required, r) {
				out.Required = append(out.Required, r)
			}
		}
		if part.AdditionalProperties != nil {
			out.AdditionalProperties = part.AdditionalProperties
		}
	}
	for i, part := range n.AllOf {
		visit(part, fmt.Sprintf("%s/allOf/%d", ptr, i))
	}
	return out
}

// mergeProperty combines two declarations of one property in an allOf: the
// later one narrows the earlier (adds a const or sub-properties).
func mergeProperty(a, b *node) *node {
	m := *b
	if m.Description == "" {
		m.Description = a.Description
	}
	if len(m.Type) == 0 {
		m.Type = a.Type
	}
	if m.Const == nil {
		m.Const = a.Const
	}
	if len(a.AllOf) == 0 && len(m.AllOf) == 0 && a.Properties != nil && m.Properties != nil {
		merged := map[string]*node{}
		for k, v := range a.Properties {
			merged[k] = v
		}
		for k, v := range m.Properties {
			merged[k] = v
		}
		m.Properties = merged
		m.Required = append(slices.Clone(a.Required), m.Required...)
	}
	return &m
}

// ref turns a property (or item) schema into a type expression, naming an
// inline object or union after hint.
func (b *builder) ref(n *node, ptr, hint string) *Ref {
	if n == nil || n.isEmpty() {
		return &Ref{Any: true}
	}
	if slices.Contains(n.Type, "null") {
		c := *n
		c.Type = slices.DeleteFunc(slices.Clone(n.Type), func(s string) bool { return s == "null" })
		r := b.ref(&c, ptr, hint)
		r.Nullable = true
		return r
	}
	switch {
	case n.Ref != "" && len(n.Properties) == 0:
		if t := b.target(n.Ref, ptr+"/$ref"); t != nil {
			return &Ref{Named: t}
		}
		return &Ref{Any: true}
	case len(n.AnyOf) > 0 || len(n.OneOf) > 0 || len(n.AllOf) > 0 || len(n.Type) > 1:
		return &Ref{Named: b.inlineType(n, ptr, hint)}
	case hasType(n, "array"):
		return &Ref{Array: b.ref(n.Items, ptr+"/items", hint+"Item")}
	case hasType(n, "object") || n.Properties != nil:
		if n.Properties == nil {
			if a := n.AdditionalProperties; a != nil && a.Allowed {
				return &Ref{Map: b.ref(a.Schema, ptr+"/additionalProperties", hint+"Value")}
			}
			return &Ref{Map: &Ref{Any: true}}
		}
		return &Ref{Named: b.inlineType(n, ptr, hint)}
	case len(n.Type) == 1:
		return &Ref{Prim: b.prim(n.Type[0], ptr+"/type"), Base64: n.Type[0] == "string" && n.Format == "byte"}
	case n.Const != nil:
		return &Ref{Prim: constPrim(n.Const)}
	}
	b.errorf(ptr, "unsupported schema: no type, $ref or union")
	return &Ref{Any: true}
}

func constPrim(v json.RawMessage) Prim {
	switch {
	case len(v) > 0 && v[0] == '"':
		return String
	case string(v) == "true" || string(v) == "false":
		return Boolean
	case strings.ContainsAny(string(v), ".eE"):
		return Number
	}
	return Integer
}

// inlineType names an inline object or union schema. Identical inline
// schemas (ignoring descriptions) share one type.
func (b *builder) inlineType(n *node, ptr, hint string) *Type {
	key := canonical(n)
	override, renamed := b.ov.Names[ptr]
	if t := b.inline[key]; t != nil && t.Inline && isObjectSchema(n) {
		// Two inline objects of the same shape in different places (the
		// prompts and tools capabilities) stay two types, each named for
		// its place; identical inline unions share one.
		t = nil
	} else if t != nil {
		if renamed && t.Inline && t.Name != override && b.types[override] == nil {
			delete(b.types, t.Name)
			t.Name = override
			b.types[override] = t
		}
		return t
	}
	name := hint
	if renamed {
		name = override
	}
	for b.types[name] != nil {
		name += "Inline"
	}
	t := &Type{Name: name, Pointer: ptr, Inline: true}
	b.types[name] = t
	b.inline[key] = t
	b.define(t, n)
	return t
}

// isObjectSchema reports whether a schema is an object with properties.
func isObjectSchema(n *node) bool {
	return n.Properties != nil && len(n.AnyOf)+len(n.OneOf)+len(n.AllOf) == 0
}

// canonical is a node's schema text without descriptions, used to share
// identical inline schemas.
func canonical(n *node) string {
	type view struct {
		Ref        string            `json:"r,omitempty"`
		Type       typeList          `json:"t,omitempty"`
		Properties map[string]string `json:"p,omitempty"`
		HasProps   bool              `json:"h,omitempty"`
		Required   []string          `json:"q,omitempty"`
		Items      string            `json:"i,omitempty"`
		Additional string            `json:"a,omitempty"`
		AnyOf      []string          `json:"y,omitempty"`
		OneOf      []string          `json:"o,omitempty"`
		AllOf      []string          `json:"l,omitempty"`
		Const      json.RawMessage   `json:"c,omitempty"`
		Enum       []json.RawMessage `json:"e,omitempty"`
		Format     string            `json:"f,omitempty"`
	}
	if n == nil {
		return ""
	}
	list := func(ns []*node) []string {
		var out []string
		for _, c := range ns {
			out = append(out, canonical(c))
		}
		return out
	}
	v := view{Ref: n.Ref, Type: n.Type, Required: n.Required, Items: canonical(n.Items),
		AnyOf: list(n.AnyOf), OneOf: list(n.OneOf), AllOf: list(n.AllOf),
		Const: n.Const, Enum: n.Enum, Format: n.Format}
	if n.Properties != nil {
		v.HasProps = true
		v.Properties = map[string]string{}
		for k, p := range n.Properties {
			v.Properties[k] = canonical(p)
		}
	}
	if a := n.AdditionalProperties; a != nil {
		v.Additional = fmt.Sprintf("%v:%s", a.Allowed, canonical(a.Schema))
	}
	data, _ := json.Marshal(v)
	return string(data)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func escapePointer(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

func unescapePointer(s string) string {
	return strings.NewReplacer("~1", "/", "~0", "~").Replace(s)
}

// openMetaObjects marks the types used as `_meta` values and gives them one
// shape: an open struct, whose declared keys are fields and whose other
// keys survive decoding (the spec lets _meta carry any key that follows
// its naming rules). A _meta object that declares no keys (MetaObject, a
// map of any JSON value) becomes such a struct without fields.
func openMetaObjects(m *Model) {
	for _, t := range m.Types {
		for _, f := range t.Fields {
			if f.Name != "_meta" || f.Type.Named == nil {
				continue
			}
			mt := f.Type.Named
			for i := 0; i < len(m.Types) && mt.Kind == KindAlias && mt.Elem != nil && mt.Elem.Named != nil; i++ {
				mt = mt.Elem.Named
			}
			mt.MetaObject = true
			switch {
			case mt.Kind == KindMap && mt.Elem.Any:
				mt.Kind, mt.Elem, mt.Open = KindStruct, nil, true
			case mt.Kind == KindStruct:
				mt.Open = true
			}
		}
	}
}
