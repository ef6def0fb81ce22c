package argcheck

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/internal/smallmap"
)

// nativeSchema is one compiled (sub)schema of the native checker: the
// subset of JSON Schema 2020-12 that schemas derived by `mcpgen tools` and
// package argschema use, checked with exactly the semantics (and the
// problems) of santhosh-tekuri/jsonschema, which validates every other
// schema. compileNative refuses a schema outside the subset, or one the
// 2020-12 metaschema could reject, with an *outsideError.
type nativeSchema struct {
	boolean int8 // 1: the schema true, -1: false, 0: an object schema

	types     jsonTypes // 0: no "type"
	hasConst  bool
	constVal  any
	hasEnum   bool
	enum      []any
	format    *nativeFormat
	ref       *nativeSchema
	minProps  int // -1: absent (as every bound below)
	maxProps  int
	required  []string
	props     map[string]*nativeSchema
	propList  smallmap.List[*nativeSchema] // props when there are a few (prop)
	noExtra   bool                         // "additionalProperties": false
	extra     *nativeSchema                // "additionalProperties" as a schema
	names     *nativeSchema                // "propertyNames"
	items     *nativeSchema
	minItems  int
	maxItems  int
	unique    bool
	minLength int
	maxLength int
	pattern   *regexp.Regexp
	base64    bool // "contentEncoding": "base64"
	minimum   *bound
	maximum   *bound
	exMinimum *bound
	exMaximum *bound
	multiple  *big.Rat
	not       *nativeSchema
	allOf     []*nativeSchema
	anyOf     []*nativeSchema
	oneOf     []*nativeSchema
}

// bound is a numeric keyword's value, also as an int64 when it is one.
type bound struct {
	rat   *big.Rat
	small int64
	isInt bool
}

// jsonTypes is a set of JSON Schema types, santhosh-tekuri's bits and order.
type jsonTypes uint8

const (
	typeNull jsonTypes = 1 << iota
	typeBoolean
	typeNumber
	typeInteger
	typeString
	typeArray
	typeObject
)

var typeNames = []struct {
	t    jsonTypes
	name string
}{{typeNull, "null"}, {typeBoolean, "boolean"}, {typeNumber, "number"}, {typeInteger, "integer"},
	{typeString, "string"}, {typeArray, "array"}, {typeObject, "object"}}

func typeByName(s string) jsonTypes {
	for _, n := range typeNames {
		if n.name == s {
			return n.t
		}
	}
	return 0
}

func (ts jsonTypes) names() []string {
	var out []string
	for _, n := range typeNames {
		if ts&n.t != 0 {
			out = append(out, n.name)
		}
	}
	return out
}

// outsideError says why a schema is outside the native subset.
type outsideError struct {
	Keyword string
	Pointer string // JSON pointer of the keyword in the schema
	reason  string
}

func (e *outsideError) Error() string {
	return fmt.Sprintf("keyword %q at %q %s", e.Keyword, "#"+e.Pointer, e.reason)
}

// schemaDraft2020 is the only "$schema" the native checker takes (absent
// means it too).
const schemaDraft2020 = "https://json-schema.org/draft/2020-12/schema"

// annotations are keywords that never fail a value; their metaschema type.
var annotations = map[string]string{
	"title": "string", "description": "string", "$comment": "string", "default": "",
	"examples": "array", "deprecated": "boolean", "readOnly": "boolean", "writeOnly": "boolean",
}

// foreignKeywords are keywords santhosh-tekuri gives meaning to in a
// 2020-12 schema and the native checker does not implement.
var foreignKeywords = map[string]bool{
	"$id": true, "$anchor": true, "$dynamicAnchor": true, "$dynamicRef": true, "$recursiveRef": true,
	"$recursiveAnchor": true, "$vocabulary": true, "definitions": true, "dependencies": true,
	"patternProperties": true, "contains": true, "minContains": true,
	"maxContains": true, "if": true, "then": true, "else": true, "dependentRequired": true,
	"dependentSchemas": true, "unevaluatedItems": true, "unevaluatedProperties": true,
	"prefixItems": true, "contentMediaType": true, "contentSchema": true,
}

// nativeCompiler compiles one schema document.
type nativeCompiler struct {
	root any
	defs map[string]*nativeSchema // by JSON pointer ("" is the root), for $ref
}

// compileNative compiles a schema document (as jsonschema.UnmarshalJSON
// reads it: numbers as json.Number).
func compileNative(doc any) (*nativeSchema, error) {
	c := &nativeCompiler{root: doc, defs: map[string]*nativeSchema{}}
	if obj, ok := doc.(map[string]any); ok {
		if s, ok := obj["$schema"]; ok && s != schemaDraft2020 && s != schemaDraft2020+"#" {
			return nil, &outsideError{Keyword: "$schema", reason: "names a draft other than 2020-12"}
		}
	}
	root, err := c.compile(doc, "", 0)
	if err != nil {
		return nil, err
	}
	if err := checkRefCycles(root); err != nil {
		return nil, err
	}
	return root, nil
}

const maxSchemaDepth = 64

func (c *nativeCompiler) compile(doc any, ptr string, depth int) (*nativeSchema, error) {
	if s, ok := c.defs[ptr]; ok {
		return s, nil
	}
	if depth > maxSchemaDepth {
		return nil, &outsideError{Keyword: "", Pointer: ptr, reason: "is nested too deeply"}
	}
	s := &nativeSchema{minProps: -1, maxProps: -1, minItems: -1, maxItems: -1, minLength: -1, maxLength: -1}
	c.defs[ptr] = s
	switch doc := doc.(type) {
	case bool:
		s.boolean = -1
		if doc {
			s.boolean = 1
		}
		return s, nil
	case map[string]any:
		if err := c.compileObject(s, doc, ptr, depth); err != nil {
			return nil, err
		}
		return s, nil
	}
	return nil, &outsideError{Pointer: ptr, reason: "is not a schema (an object or a boolean)"}
}

func (c *nativeCompiler) compileObject(s *nativeSchema, obj map[string]any, ptr string, depth int) error {
	outside := func(kw, reason string) error {
		return &outsideError{Keyword: kw, Pointer: ptr + "/" + escape(kw), reason: reason}
	}
	sub := func(kw string, v any) (*nativeSchema, error) {
		return c.compile(v, ptr+"/"+escape(kw), depth+1)
	}
	for _, kw := range sortedKeys(obj) { // the first keyword outside the subset is always the same one
		v := obj[kw]
		var err error
		switch kw {
		case "$schema":
			if ptr != "" {
				return outside(kw, "is only taken at the root")
			}
		case "$defs":
			defs, ok := v.(map[string]any)
			if !ok {
				return outside(kw, "is not an object")
			}
			for _, name := range sortedKeys(defs) {
				if _, err := c.compile(defs[name], ptr+"/$defs/"+escape(name), depth+1); err != nil {
					return err
				}
			}
		case "$ref":
			ref, ok := v.(string)
			if !ok {
				return outside(kw, "is not a string")
			}
			target, tptr, ok := c.resolve(ref)
			if !ok {
				return outside(kw, fmt.Sprintf("%q is not \"#\" or \"#/$defs/<name>\"", ref))
			}
			if s.ref, err = c.compile(target, tptr, depth+1); err != nil {
				return err
			}
		case "type":
			if s.types, err = typesOf(v); err != nil {
				return outside(kw, err.Error())
			}
		case "const":
			s.hasConst, s.constVal = true, v
		case "enum":
			list, ok := v.([]any)
			if !ok {
				return outside(kw, "is not an array")
			}
			s.hasEnum, s.enum = true, list
		case "format":
			name, ok := v.(string)
			if !ok {
				return outside(kw, "is not a string")
			}
			f, known, ok := formatByName(name)
			if !ok {
				return outside(kw, fmt.Sprintf("%q is not implemented natively", name))
			}
			if known {
				s.format = f
			}
		case "contentEncoding":
			name, ok := v.(string)
			if !ok {
				return outside(kw, "is not a string")
			}
			s.base64 = name == "base64" // other encodings are not asserted
		case "properties":
			props, ok := v.(map[string]any)
			if !ok {
				return outside(kw, "is not an object")
			}
			s.props = make(map[string]*nativeSchema, len(props))
			names := sortedKeys(props)
			for _, name := range names {
				if s.props[name], err = c.compile(props[name], ptr+"/properties/"+escape(name), depth+1); err != nil {
					return err
				}
			}
			s.propList = smallmap.New(s.props, names, smallNames)
		case "required":
			if s.required, err = uniqueStrings(v); err != nil {
				return outside(kw, err.Error())
			}
		case "additionalProperties":
			if b, ok := v.(bool); ok {
				s.noExtra = !b
			} else if s.extra, err = sub(kw, v); err != nil {
				return err
			}
		case "items":
			if s.items, err = sub(kw, v); err != nil {
				return err
			}
		case "propertyNames":
			if s.names, err = sub(kw, v); err != nil {
				return err
			}
		case "not":
			if s.not, err = sub(kw, v); err != nil {
				return err
			}
		case "allOf", "anyOf", "oneOf":
			list, ok := v.([]any)
			if !ok || len(list) == 0 {
				return outside(kw, "is not a non-empty array")
			}
			out := make([]*nativeSchema, len(list))
			for i, e := range list {
				if out[i], err = c.compile(e, ptr+"/"+kw+"/"+strconv.Itoa(i), depth+1); err != nil {
					return err
				}
			}
			switch kw {
			case "allOf":
				s.allOf = out
			case "anyOf":
				s.anyOf = out
			default:
				s.oneOf = out
			}
		case "minProperties", "maxProperties", "minItems", "maxItems", "minLength", "maxLength":
			n, err := nonNegativeInteger(v)
			if err != nil {
				return outside(kw, err.Error())
			}
			switch kw {
			case "minProperties":
				s.minProps = n
			case "maxProperties":
				s.maxProps = n
			case "minItems":
				s.minItems = n
			case "maxItems":
				s.maxItems = n
			case "minLength":
				s.minLength = n
			default:
				s.maxLength = n
			}
		case "uniqueItems":
			b, ok := v.(bool)
			if !ok {
				return outside(kw, "is not a boolean")
			}
			s.unique = b
		case "pattern":
			src, ok := v.(string)
			if !ok {
				return outside(kw, "is not a string")
			}
			if s.pattern, err = regexp.Compile(src); err != nil {
				return outside(kw, "is not a valid regular expression")
			}
		case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
			b, err := boundOf(v)
			if err != nil {
				return outside(kw, err.Error())
			}
			switch kw {
			case "minimum":
				s.minimum = b
			case "maximum":
				s.maximum = b
			case "exclusiveMinimum":
				s.exMinimum = b
			default:
				s.exMaximum = b
			}
		case "multipleOf":
			b, err := boundOf(v)
			if err != nil || b.rat.Sign() <= 0 {
				return outside(kw, "is not a number greater than 0")
			}
			s.multiple = b.rat
		default:
			if foreignKeywords[kw] {
				return outside(kw, "is not implemented natively")
			}
			if want, ok := annotations[kw]; ok && !hasJSONType(v, want) {
				return outside(kw, "is not a "+want)
			}
			// any other keyword is an annotation santhosh-tekuri ignores
		}
	}
	return nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// resolve follows a local reference "#" or "#/$defs/<name>", where the
// name needs no escaping in a JSON pointer or a URI fragment.
func (c *nativeCompiler) resolve(ref string) (any, string, bool) {
	if ref == "#" {
		return c.root, "", true
	}
	name, ok := strings.CutPrefix(ref, "#/$defs/")
	if !ok || name == "" || strings.TrimLeft(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") != "" {
		return nil, "", false
	}
	root, _ := c.root.(map[string]any)
	defs, _ := root["$defs"].(map[string]any)
	target, ok := defs[name]
	if !ok {
		return nil, "", false
	}
	return target, "/$defs/" + name, true
}

func typesOf(v any) (jsonTypes, error) {
	switch v := v.(type) {
	case string:
		if t := typeByName(v); t != 0 {
			return t, nil
		}
	case []any:
		var ts jsonTypes
		for _, e := range v {
			name, ok := e.(string)
			t := typeByName(name)
			if !ok || t == 0 || ts&t != 0 {
				return 0, errors.New("is not a list of distinct type names")
			}
			ts |= t
		}
		if ts != 0 {
			return ts, nil
		}
	}
	return 0, errors.New("is not a type name or a non-empty list of them")
}

func uniqueStrings(v any) ([]string, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, errors.New("is not an array")
	}
	out := make([]string, 0, len(list))
	seen := map[string]bool{}
	for _, e := range list {
		s, ok := e.(string)
		if !ok || seen[s] {
			return nil, errors.New("is not a list of distinct strings")
		}
		seen[s] = true
		out = append(out, s)
	}
	return out, nil
}

func nonNegativeInteger(v any) (int, error) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, errors.New("is not a number")
	}
	r, ok := new(big.Rat).SetString(string(n))
	if !ok || !r.IsInt() || r.Sign() < 0 || !r.Num().IsInt64() || r.Num().Int64() > 1<<31 {
		return 0, errors.New("is not a non-negative integer")
	}
	return int(r.Num().Int64()), nil
}

func boundOf(v any) (*bound, error) {
	n, ok := v.(json.Number)
	if !ok {
		return nil, errors.New("is not a number")
	}
	r, ok := new(big.Rat).SetString(string(n))
	if !ok {
		return nil, errors.New("is out of range")
	}
	b := &bound{rat: r}
	if r.IsInt() && r.Num().IsInt64() {
		b.small, b.isInt = r.Num().Int64(), true
	}
	return b, nil
}

func hasJSONType(v any, want string) bool {
	switch want {
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	}
	return true
}

// checkRefCycles refuses a schema that could apply itself to one value
// without end ({"$ref": "#"}, or $defs referring to each other through
// $ref, allOf, anyOf, oneOf or not): santhosh-tekuri reports those.
func checkRefCycles(root *nativeSchema) error {
	state := map[*nativeSchema]uint8{} // 1: on the path, 2: done
	var visit func(s *nativeSchema) bool
	visit = func(s *nativeSchema) bool {
		switch state[s] {
		case 1:
			return false
		case 2:
			return true
		}
		state[s] = 1
		for _, n := range s.sameValue() {
			if !visit(n) {
				return false
			}
		}
		state[s] = 2
		return true
	}
	var all func(s *nativeSchema, seen map[*nativeSchema]bool) error
	all = func(s *nativeSchema, seen map[*nativeSchema]bool) error {
		if s == nil || seen[s] {
			return nil
		}
		seen[s] = true
		if !visit(s) {
			return &outsideError{Keyword: "$ref", reason: "applies a schema to the same value in a cycle"}
		}
		for _, n := range s.children() {
			if err := all(n, seen); err != nil {
				return err
			}
		}
		return nil
	}
	return all(root, map[*nativeSchema]bool{})
}

// sameValue lists the subschemas applied to the value s is applied to.
func (s *nativeSchema) sameValue() []*nativeSchema {
	var out []*nativeSchema
	if s.ref != nil {
		out = append(out, s.ref)
	}
	if s.not != nil {
		out = append(out, s.not)
	}
	out = append(out, s.allOf...)
	out = append(out, s.anyOf...)
	return append(out, s.oneOf...)
}

// children lists every direct subschema.
func (s *nativeSchema) children() []*nativeSchema {
	out := s.sameValue()
	for _, p := range s.props {
		out = append(out, p)
	}
	if s.extra != nil {
		out = append(out, s.extra)
	}
	if s.items != nil {
		out = append(out, s.items)
	}
	return out
}
