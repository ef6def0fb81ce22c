package bind

import (
	"encoding/json"
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/invopop/jsonschema"

	"github.com/mcpgen/mcpgen/internal/schemapattern"
)

// SchemaVersion is the "$schema" of every derived schema.
const SchemaVersion = "https://json-schema.org/draft/2020-12/schema"

// deriver derives the JSON Schema of one argument or result type from
// go/types, at build time, in the tag dialect of github.com/invopop/jsonschema
// (whose Schema type is the model and the encoder, so a derived schema is
// spelled exactly as invopop's reflection spells it). Unlike reflection it
// knows where every field is declared, so each tag mistake is reported at
// its field as "file:line:col: message".
type deriver struct {
	b        *binder
	output   bool         // an outputSchema: fields without omitempty are required and may be null when nil-able
	root     *types.Named // the root type; a reference to it is "#"
	building map[*types.Named]bool
	refd     map[*types.Named]bool // recursive types, emitted under $defs
	defs     map[string]*jsonschema.Schema
	defName  map[*types.Named]string
	failed   bool
	marshals bool // a type met marshals itself (MarshalJSON, MarshalText): its schema says nothing about its encoding
}

// deriveSchema returns the schema of the named struct t as indented JSON,
// or false after reporting what is wrong.
func (b *binder) deriveSchema(t types.Type, output bool, at token.Position) (string, bool) {
	s, _, ok := b.deriveSchemaFrom(t, output, at)
	return s, ok
}

// deriveSchemaFrom is deriveSchema that also reports, as fromType, whether
// every value of t encodes to the shape the schema describes (no type met
// marshals itself). ok is last, as in deriveSchema: false only after an
// error was reported.
func (b *binder) deriveSchemaFrom(t types.Type, output bool, at token.Position) (schema string, fromType, ok bool) {
	named, _, ok := namedStruct(t)
	if !ok {
		b.errs.add(at, "cannot derive a schema for %s: not a named struct", types.TypeString(t, qualifier(b.pkg)))
		return "", false, false
	}
	d := &deriver{b: b, output: output, root: named, building: map[*types.Named]bool{}, refd: map[*types.Named]bool{},
		defs: map[string]*jsonschema.Schema{}, defName: map[*types.Named]string{}}
	s := d.named(named, at, named.Obj().Name())
	if d.failed {
		return "", false, false
	}
	s.Version = SchemaVersion
	if len(d.defs) > 0 {
		s.Definitions = d.defs
	}
	if s.Properties != nil && s.Properties.Len() == 0 && s.AdditionalProperties == nil && len(s.PatternProperties) == 0 {
		s.AdditionalProperties = jsonschema.FalseSchema
	}
	out, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		b.errs.add(at, "encoding the schema of %s: %v", named.Obj().Name(), err)
		return "", false, false
	}
	return string(out), !d.marshals, true
}

func (d *deriver) fail(pos token.Position, format string, args ...any) {
	d.failed = true
	d.b.errs.add(pos, format, args...)
}

func (d *deriver) typeString(t types.Type) string { return types.TypeString(t, qualifier(d.b.pkg)) }

// typeSchema is the schema of a Go type; path names it in messages.
func (d *deriver) typeSchema(t types.Type, pos token.Position, path string) *jsonschema.Schema {
	switch u := types.Unalias(t).(type) {
	case *types.Named:
		return d.named(u, pos, path)
	case *types.Basic:
		return d.basic(u, pos, path)
	case *types.Pointer:
		return d.typeSchema(u.Elem(), pos, path)
	case *types.Slice:
		if isBytes(u) {
			return &jsonschema.Schema{Type: "string", ContentEncoding: "base64"}
		}
		return &jsonschema.Schema{Type: "array", Items: d.typeSchema(u.Elem(), pos, path+"[]")}
	case *types.Array:
		n := uint64(u.Len())
		return &jsonschema.Schema{Type: "array", Items: d.typeSchema(u.Elem(), pos, path+"[]"), MinItems: &n, MaxItems: &n}
	case *types.Map:
		return d.mapSchema(u, pos, path)
	case *types.Interface:
		return &jsonschema.Schema{}
	case *types.Struct:
		return d.structSchema(u, pos, path)
	case *types.Chan, *types.Signature:
		d.fail(pos, "%s has type %s, which has no JSON form; leave it out with `json:\"-\"`", path, d.typeString(t))
	case *types.TypeParam:
		d.fail(pos, "%s has the type parameter %s; generic argument types cannot be bound", path, d.typeString(t))
	default:
		d.fail(pos, "%s has type %s, which has no JSON Schema", path, d.typeString(t))
	}
	return &jsonschema.Schema{}
}

func (d *deriver) basic(b *types.Basic, pos token.Position, path string) *jsonschema.Schema {
	switch info := b.Info(); {
	case info&types.IsBoolean != 0:
		return &jsonschema.Schema{Type: "boolean"}
	case info&types.IsInteger != 0 && b.Kind() != types.Uintptr:
		return &jsonschema.Schema{Type: "integer"}
	case info&types.IsFloat != 0:
		return &jsonschema.Schema{Type: "number"}
	case info&types.IsString != 0:
		return &jsonschema.Schema{Type: "string"}
	}
	d.fail(pos, "%s has type %s, which has no JSON form; leave it out with `json:\"-\"`", path, b.Name())
	return &jsonschema.Schema{}
}

func (d *deriver) mapSchema(m *types.Map, pos token.Position, path string) *jsonschema.Schema {
	key, _ := m.Key().Underlying().(*types.Basic)
	named, _ := types.Unalias(m.Key()).(*types.Named)
	textKey := named != nil && types.Implements(types.NewPointer(named), textUnmarshaler)
	if textKey {
		d.marshals = true // encoding/json writes the keys with MarshalText
	}
	if key == nil || !textKey && (key.Info()&(types.IsString|types.IsInteger) == 0 || key.Kind() == types.Uintptr) {
		d.fail(pos, "%s is a map with %s keys; JSON object keys are strings: use map[string]…", path, d.typeString(m.Key()))
		return &jsonschema.Schema{}
	}
	s := &jsonschema.Schema{Type: "object"}
	if _, any := m.Elem().Underlying().(*types.Interface); !any {
		s.AdditionalProperties = d.typeSchema(m.Elem(), pos, path+"[key]")
	}
	// A key type with its own UnmarshalText reads its member names
	// (encoding/json and the arguments decoder call it), whatever their
	// text: no integer pattern.
	if key.Info()&types.IsInteger != 0 && !textKey {
		s.PropertyNames = &jsonschema.Schema{Pattern: integerKeyPattern(key)}
	}
	return s
}

// integerKeyPattern matches the text encoding/json writes for a key of
// the integer type key, the only text the arguments decoder reads as one:
// "01", "+1" or "-0" would name the key another member names, and a value
// out of the type's range ("256" for a uint8) is no key of it. int, uint
// and uintptr count as 64 bits whatever the target: a tool's inputSchema
// (and mcp_gen.go, which has no build constraint) does not depend on the
// machine that generates or serves it; a 32-bit server's decoder still
// refuses a key beyond its int's range, naming the member.
func integerKeyPattern(key *types.Basic) string {
	bits := 64
	switch key.Kind() {
	case types.Int8, types.Uint8:
		bits = 8
	case types.Int16, types.Uint16:
		bits = 16
	case types.Int32, types.Uint32:
		bits = 32
	}
	return schemapattern.IntegerKey(bits, key.Info()&types.IsUnsigned == 0)
}

// isJSONNumber reports whether t is json.Number or a pointer to one.
func isJSONNumber(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && isNamed(n, "encoding/json", "Number")
}

// named is the schema of a named type: the well-known ones (time.Time,
// json.Number), a struct
// (through $defs when it is recursive), a string type with declared
// constants (an enum), else its underlying type.
func (d *deriver) named(n *types.Named, pos token.Position, path string) *jsonschema.Schema {
	if isNamed(n, "time", "Time") {
		return &jsonschema.Schema{Type: "string", Format: "date-time"}
	}
	if isNamed(n, "encoding/json", "Number") {
		// encoding/json writes its text as a JSON number (an empty one
		// as 0) and reads it from one; the ",string" tag option, which
		// quotes it, makes the field a string (field).
		return &jsonschema.Schema{Type: "number"}
	}
	for _, m := range []string{"JSONSchema", "JSONSchemaExtend"} {
		if obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(n), true, n.Obj().Pkg(), m); obj != nil {
			if _, isFunc := obj.(*types.Func); isFunc {
				d.fail(pos, "type %s has a %s method, which `mcpgen tools` cannot call (schemas are derived at build time); declare the schema as a string constant and name it in the directive: inputSchema=<const> (or outputSchema=<const>)", d.typeString(n), m)
				return &jsonschema.Schema{}
			}
		}
	}
	if jsonMethods, textMethods := selfEncoding(n); jsonMethods || textMethods {
		d.marshals = true
		// encoding/json hands the value to the type's own methods, so its
		// fields say nothing about its JSON form: any JSON for the JSON
		// methods, a string for the text ones (argschema maps them alike at
		// run time). The root is still described by its fields.
		if n != d.root {
			if jsonMethods {
				return &jsonschema.Schema{}
			}
			return &jsonschema.Schema{Type: "string"}
		}
	}
	st, isStruct := n.Underlying().(*types.Struct)
	if !isStruct {
		s := d.typeSchema(n.Underlying(), pos, path)
		if s.Type == "string" && s.Format == "" && s.ContentEncoding == "" {
			s.Enum = d.enumOf(n)
		}
		return s
	}
	if d.building[n] {
		d.refd[n] = true
		return &jsonschema.Schema{Ref: d.ref(n)}
	}
	d.building[n] = true
	s := d.structSchema(st, pos, path)
	delete(d.building, n)
	if d.refd[n] && n != d.root {
		d.defs[d.defName[n]] = s
		return &jsonschema.Schema{Ref: d.ref(n)}
	}
	return s
}

// The interfaces through which encoding/json lets a type encode and decode
// itself.
var (
	jsonMarshaler   = methodInterface("MarshalJSON", false)
	jsonUnmarshaler = methodInterface("UnmarshalJSON", true)
	textMarshaler   = methodInterface("MarshalText", false)
	textUnmarshaler = methodInterface("UnmarshalText", true)
)

// methodInterface is interface{ name() ([]byte, error) }, or with unmarshal
// interface{ name([]byte) error }.
func methodInterface(name string, unmarshal bool) *types.Interface {
	bytes := types.NewVar(token.NoPos, nil, "", types.NewSlice(types.Typ[types.Byte]))
	errVar := types.NewVar(token.NoPos, nil, "", types.Universe.Lookup("error").Type())
	params, results := types.NewTuple(), types.NewTuple(bytes, errVar)
	if unmarshal {
		params, results = types.NewTuple(bytes), types.NewTuple(errVar)
	}
	sig := types.NewSignatureType(nil, nil, nil, params, results, false)
	return types.NewInterfaceType([]*types.Func{types.NewFunc(token.NoPos, nil, name, sig)}, nil).Complete()
}

// selfEncoding reports whether encoding/json encodes or decodes a value of
// n (a field, addressable) through n's own methods: json.Marshaler or
// json.Unmarshaler (jsonMethods), else encoding.TextMarshaler or
// encoding.TextUnmarshaler (textMethods), at either receiver.
func selfEncoding(n *types.Named) (jsonMethods, textMethods bool) {
	p := types.NewPointer(n)
	if types.Implements(p, jsonMarshaler) || types.Implements(p, jsonUnmarshaler) {
		return true, false
	}
	return false, types.Implements(p, textMarshaler) || types.Implements(p, textUnmarshaler)
}

// ref is the reference to a recursive type: "#" for the root, else its
// entry under $defs (named after the type, qualified when two packages
// declare the same name).
func (d *deriver) ref(n *types.Named) string {
	if n == d.root {
		return "#"
	}
	name, ok := d.defName[n]
	if !ok {
		name = n.Obj().Name()
		for other, used := range d.defName {
			if used == name && other != n {
				name = n.Obj().Pkg().Name() + "." + name
			}
		}
		d.defName[n] = name
	}
	return "#/$defs/" + name
}

// enumOf lists the values of the constants of string type n declared in
// its package, in source order; nil when there are none.
func (d *deriver) enumOf(n *types.Named) []any {
	pkg := n.Obj().Pkg()
	if pkg == nil {
		return nil
	}
	var consts []*types.Const
	for _, name := range pkg.Scope().Names() {
		if c, ok := pkg.Scope().Lookup(name).(*types.Const); ok && types.Identical(c.Type(), n) && c.Val().Kind() == constant.String {
			consts = append(consts, c)
		}
	}
	slices.SortFunc(consts, func(a, b *types.Const) int { return int(a.Pos()) - int(b.Pos()) })
	var out []any
	seen := map[string]bool{}
	for _, c := range consts {
		if v := constant.StringVal(c.Val()); !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// structSchema is the object schema of a struct's JSON members, picked
// by encoding/json's rules (jsonFields: embedded structs flattened, the
// shallowest field of a name wins), as the runtime decoder fills them.
func (d *deriver) structSchema(st *types.Struct, pos token.Position, path string) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "object", Properties: jsonschema.NewProperties()}
	for _, jf := range jsonFields(st) {
		if !jf.hidden {
			d.field(s, jf, path)
		}
	}
	return s
}

// field adds the property of one member to s.
func (d *deriver) field(s *jsonschema.Schema, jf jsonField, path string) {
	f, tag, name := jf.v, jf.tag, jf.name
	fpos := d.b.pos(f.Pos())
	_, jsonOpts, _ := strings.Cut(tag.Get("json"), ",")
	schemaTag := tag.Get("jsonschema")
	where := fmt.Sprintf("field %s of %s", f.Name(), path)
	items, err := splitTag(schemaTag)
	if err != nil {
		d.fail(fpos, "%s: %v", where, err)
		return
	}
	prop := d.typeSchema(f.Type(), fpos, path+"."+f.Name())
	if prop.Ref != "" {
		prop = &jsonschema.Schema{Ref: prop.Ref}
	} else {
		prop = cloneSchema(prop)
	}
	if slices.Contains(strings.Split(jsonOpts, ","), "string") && (prop.Type == "integer" || prop.Type == "number" || prop.Type == "boolean") {
		prop = &jsonschema.Schema{Type: "string"}
		if isJSONNumber(f.Type()) {
			// encoding/json and the arguments decoder read the quoted
			// text as the number's: say so, so that the checker refuses
			// "x" naming the member, not the decoder.
			prop.Pattern = schemapattern.Number
		}
	}
	required := d.applyTags(prop, items, fpos, where)
	if desc := tag.Get("jsonschema_description"); desc != "" {
		prop.Description = desc
	}
	if extras, err := parseExtras(tag.Get("jsonschema_extras")); err != nil {
		d.fail(fpos, "%s: %v", where, err)
	} else if extras != nil {
		prop.Extras = extras
	}
	omit := slices.Contains(strings.Split(jsonOpts, ","), "omitempty") || slices.Contains(strings.Split(jsonOpts, ","), "omitzero")
	if d.output {
		required = required || !omit
		if !omit && nilable(f.Type()) {
			prop = &jsonschema.Schema{AnyOf: []*jsonschema.Schema{prop, {Type: "null"}}}
		}
	}
	s.Properties.Set(name, prop)
	if required {
		s.Required = append(s.Required, name)
	}
}

// nilable reports whether a value of t encodes as null when it is nil.
func nilable(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Slice, *types.Map:
		return true
	}
	return false
}

// cloneSchema copies the top level of a schema, so that tags on one field
// never change a schema shared with another (a named enum type's).
func cloneSchema(s *jsonschema.Schema) *jsonschema.Schema {
	c := *s
	c.Enum = slices.Clone(s.Enum)
	if s.Items != nil && s.Items.Ref == "" {
		c.Items = cloneSchema(s.Items)
	}
	return &c
}

// applyTags applies the items of a field's jsonschema tag to its schema,
// reporting every mistake; it returns whether the field is required.
func (d *deriver) applyTags(s *jsonschema.Schema, items []tagItem, pos token.Position, where string) bool {
	required := false
	var defaults []string
	hasEnum := false
	for _, it := range items {
		switch it.key {
		case "required":
			if it.hasValue {
				d.fail(pos, "%s: required is a flag: write required, not required=%s", where, it.value)
			}
			required = true
			continue
		case "title", "description":
			if !it.hasValue {
				d.fail(pos, "%s: %s needs a value: %s=…", where, it.key, it.key)
			} else if it.key == "title" {
				s.Title = it.value
			} else {
				s.Description = it.value
			}
			continue
		case "nullable":
			d.fail(pos, "%s: nullable is not supported: schemas never declare null types (some clients drop such tools); null on an optional field already means absent", where)
			continue
		}
		target, keys := s, tagKeysFor(s.Type)
		if s.Type == "array" && !slices.Contains(arrayTagKeys, it.key) && s.Items != nil && slices.Contains(tagKeysFor(s.Items.Type), it.key) {
			target, keys = s.Items, tagKeysFor(s.Items.Type)
		}
		if !slices.Contains(keys, it.key) {
			d.fail(pos, "%s: %s", where, unknownTagKey(it.key, s))
			continue
		}
		if it.key == "uniqueItems" {
			switch {
			case !it.hasValue || it.value == "true":
				s.UniqueItems = true
			case it.value == "false":
			default:
				d.fail(pos, "%s: uniqueItems is a flag: write uniqueItems or uniqueItems=false, not uniqueItems=%s", where, it.value)
			}
			continue
		}
		if !it.hasValue {
			d.fail(pos, "%s: %s needs a value: %s=…", where, it.key, it.key)
			continue
		}
		if it.key == "default" && target == s && s.Type == "array" {
			defaults = append(defaults, it.value)
			continue
		}
		if it.key == "enum" && !hasEnum {
			hasEnum = true
			target.Enum = nil // tags replace the enum a named type's constants declare
		}
		if msg := setKeyword(target, it.key, it.value); msg != "" {
			d.fail(pos, "%s: %s", where, msg)
		}
	}
	if len(defaults) > 0 {
		var vals []any
		for _, v := range defaults {
			val, msg := typedValue(s.Items, v)
			if msg != "" {
				d.fail(pos, "%s: default=%s: %s", where, v, msg)
				return required
			}
			vals = append(vals, val)
		}
		s.Default = vals
	}
	if s.Default != nil {
		if msg := checkDefault(s); msg != "" {
			d.fail(pos, "%s: %s", where, msg)
		}
	}
	return required
}

func tagKeysFor(jsonType string) []string {
	switch jsonType {
	case "string":
		return stringTagKeys
	case "integer", "number":
		return numberTagKeys
	case "boolean":
		return boolTagKeys
	case "array":
		return arrayTagKeys
	}
	return nil
}

// unknownTagKey explains a key the field's type does not take.
func unknownTagKey(key string, s *jsonschema.Schema) string {
	typ := s.Type
	if typ == "" {
		typ = "any"
	}
	if s.Ref != "" {
		typ = "object"
	}
	for _, k := range []struct {
		keys []string
		what string
	}{{stringTagKeys, "strings"}, {numberTagKeys, "numbers"}, {arrayTagKeys, "arrays"}} {
		if slices.Contains(k.keys, key) {
			return fmt.Sprintf("jsonschema tag key %s applies to %s, but this field is of JSON type %s", key, k.what, typ)
		}
	}
	msg := "unknown jsonschema tag key " + strconv.Quote(key)
	if sug := suggest(key, append(slices.Clone(allTagKeys), "nullable")); sug != "" {
		msg += " (did you mean " + sug + "?)"
	} else {
		msg += " (known: " + strings.Join(allTagKeys, ", ") + ")"
	}
	return msg + `; a comma inside a value is written \, (or put the text in jsonschema_description)`
}

// setKeyword sets one typed keyword from its tag value.
func setKeyword(s *jsonschema.Schema, key, value string) string {
	switch key {
	case "minLength", "maxLength", "minItems", "maxItems":
		n, err := strconv.ParseUint(value, 10, 64)
		if err != nil {
			return fmt.Sprintf("%s=%s: want a non-negative integer", key, value)
		}
		switch key {
		case "minLength":
			s.MinLength = &n
		case "maxLength":
			s.MaxLength = &n
		case "minItems":
			s.MinItems = &n
		default:
			s.MaxItems = &n
		}
	case "multipleOf", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
		num, ok := jsonNumber(value)
		if !ok {
			return fmt.Sprintf("%s=%s: want a number", key, value)
		}
		switch key {
		case "multipleOf":
			if f, _ := strconv.ParseFloat(value, 64); f <= 0 {
				return fmt.Sprintf("multipleOf=%s: want a number greater than 0", value)
			}
			s.MultipleOf = num
		case "minimum":
			s.Minimum = num
		case "maximum":
			s.Maximum = num
		case "exclusiveMinimum":
			s.ExclusiveMinimum = num
		default:
			s.ExclusiveMaximum = num
		}
	case "pattern":
		if _, err := regexp.Compile(value); err != nil {
			return fmt.Sprintf("pattern=%s is not a valid regular expression: %v", value, err)
		}
		s.Pattern = value
	case "format":
		s.Format = value
	case "default", "example", "enum":
		v, msg := typedValue(s, value)
		if msg != "" {
			return fmt.Sprintf("%s=%s: %s", key, value, msg)
		}
		switch key {
		case "default":
			s.Default = v
		case "example":
			s.Examples = append(s.Examples, v)
		default:
			s.Enum = append(s.Enum, v)
		}
	}
	return ""
}

// typedValue converts a tag value to the field's JSON type.
func typedValue(s *jsonschema.Schema, value string) (any, string) {
	if s == nil {
		return value, ""
	}
	switch s.Type {
	case "integer":
		n, ok := jsonNumber(value)
		if !ok || strings.ContainsAny(value, ".eE") {
			return nil, "want an integer"
		}
		return n, ""
	case "number":
		n, ok := jsonNumber(value)
		if !ok {
			return nil, "want a number"
		}
		return n, ""
	case "boolean":
		switch value {
		case "true":
			return true, ""
		case "false":
			return false, ""
		}
		return nil, "want true or false"
	}
	return value, ""
}

// jsonNumber checks JSON's number grammar.
func jsonNumber(v string) (json.Number, bool) {
	var n json.Number
	if v == "" || !(v[0] == '-' || v[0] >= '0' && v[0] <= '9') || json.Unmarshal([]byte(v), &n) != nil {
		return "", false
	}
	return n, true
}
