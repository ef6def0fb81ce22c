package support

import (
	"bytes"
	"encoding"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// depthAppender is implemented by every generated type with an encoder:
// appendJSONAt appends the value's encoding to dst, nested at depth d (its
// AppendJSON with the depth carried, so that a value that contains itself
// through a generated type is found as a cycle too). The encoder below
// calls it for nested values, so a large value (a 10 MB blob) is written
// once into one buffer instead of being re-validated and copied by
// encoding/json at every level of nesting.
type depthAppender interface {
	appendJSONAt(dst []byte, d encodeDepth) ([]byte, error)
}

// appendJSONAt appends the encoding of v, nested at depth d (encodeDepth{}
// for a value of its own), to dst: byte for byte what json.Marshal(v)
// writes (HTML-safe strings, sorted map keys, the same field rules, a
// cycle refused), except that nested generated values append themselves,
// and that what the decoders would refuse is refused: a map key that is
// not UTF-8 (encoding/json writes two such keys as one name twice), two
// map keys given one name, raw JSON naming a member twice. Only values
// with their own MarshalJSON or MarshalText methods (and json.Number) are
// handed to encoding/json; every pointer, slice and map is walked here,
// with the depth carried, so that a cycle is always found.
func appendJSONAt(dst []byte, v any, d encodeDepth) ([]byte, error) {
	if v == nil {
		return append(dst, "null"...), nil
	}
	return appendReflect(dst, reflect.ValueOf(v), d)
}

// encodeDepth is encoding/json's cycle detection: how many pointers, maps
// and slices the value being encoded is inside and, past
// startDetectingCyclesAfter, which ones. It is passed by value, so an
// ordinary value pays one counter and no allocation; a value that contains
// itself is an error, not a stack overflow that kills the process.
type encodeDepth struct {
	n    uint
	seen map[any]struct{}
}

// startDetectingCyclesAfter is encoding/json's: cycles are looked for only
// this deep.
const startDetectingCyclesAfter = 1000

// ptrKey is the key a pointer is found by in a cycle: with its type, as a
// pointer to a struct and to its first field are one address. A map's key
// is its address.
type ptrKey struct {
	t reflect.Type
	p uintptr
}

// sliceKey is the key a slice is found by in a cycle: with its length.
type sliceKey struct {
	p uintptr
	n int
}

// enter returns d one level deeper, inside v (a non-nil pointer, map or
// slice), or the error encoding/json reports when v is already being
// encoded.
func (d encodeDepth) enter(v reflect.Value) (encodeDepth, error) {
	if d.n++; d.n <= startDetectingCyclesAfter {
		return d, nil
	}
	key := cycleKey(v)
	if _, ok := d.seen[key]; ok {
		return d, &json.UnsupportedValueError{Value: v, Str: fmt.Sprintf("encountered a cycle via %s", v.Type())}
	}
	if d.seen == nil {
		d.seen = map[any]struct{}{}
	}
	d.seen[key] = struct{}{}
	return d, nil
}

// leave forgets v once it is encoded: a value met twice side by side is
// not a cycle.
func (d encodeDepth) leave(v reflect.Value) {
	if d.n > startDetectingCyclesAfter {
		delete(d.seen, cycleKey(v))
	}
}

func cycleKey(v reflect.Value) any {
	switch v.Kind() {
	case reflect.Map:
		return v.Pointer()
	case reflect.Slice:
		return sliceKey{v.Pointer(), v.Len()}
	}
	return ptrKey{v.Type(), v.Pointer()}
}

var (
	depthAppenderType = reflect.TypeFor[depthAppender]()
	jsonMarshalerType = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
	jsonNumberType    = reflect.TypeFor[json.Number]()
	rawMessageType    = reflect.TypeFor[json.RawMessage]()
	isZeroerType      = reflect.TypeFor[interface{ IsZero() bool }]()
)

// marshalsItself reports whether encoding/json would call a method of t
// (or, for addressable values, of *t) rather than walk it.
func marshalsItself(t reflect.Type) bool {
	return t.Implements(jsonMarshalerType) || t.Implements(textMarshalerType) ||
		(t.Kind() != reflect.Pointer && (reflect.PointerTo(t).Implements(jsonMarshalerType) || reflect.PointerTo(t).Implements(textMarshalerType)))
}

func appendReflect(dst []byte, v reflect.Value, d encodeDepth) ([]byte, error) {
	t := v.Type()
	if t.Implements(depthAppenderType) { // a generated type
		switch {
		case (t.Kind() == reflect.Pointer || t.Kind() == reflect.Interface) && v.IsNil():
			return append(dst, "null"...), nil
		case t.Kind() != reflect.Pointer:
			return v.Interface().(depthAppender).appendJSONAt(dst, d)
		}
		inner, err := d.enter(v)
		if err != nil {
			return nil, err
		}
		if dst, err = v.Interface().(depthAppender).appendJSONAt(dst, inner); err != nil {
			return nil, err
		}
		inner.leave(v)
		return dst, nil
	}
	if t == rawMessageType {
		return appendCompact(dst, v.Bytes(), v.IsNil())
	}
	if t == jsonNumberType || marshalsItself(t) {
		return appendMarshaled(dst, v)
	}
	switch t.Kind() {
	case reflect.String:
		return appendHTMLSafeString(dst, v.String()), nil
	case reflect.Bool:
		return strconv.AppendBool(dst, v.Bool()), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.AppendInt(dst, v.Int(), 10), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.AppendUint(dst, v.Uint(), 10), nil
	case reflect.Float32, reflect.Float64:
		return appendFloat(dst, v.Float(), t.Bits())
	case reflect.Interface:
		if v.IsNil() {
			return append(dst, "null"...), nil
		}
		return appendReflect(dst, v.Elem(), d)
	case reflect.Pointer:
		if v.IsNil() {
			return append(dst, "null"...), nil
		}
		return appendInside(dst, v, v.Elem(), d)
	case reflect.Struct:
		return appendStruct(dst, v, d)
	case reflect.Slice:
		if v.IsNil() {
			return append(dst, "null"...), nil
		}
		if t.Elem().Kind() == reflect.Uint8 && !marshalsItself(t.Elem()) {
			dst = append(dst, '"')
			dst = appendBase64(dst, v.Bytes())
			return append(dst, '"'), nil
		}
		return appendInside(dst, v, v, d)
	case reflect.Array:
		return appendElems(dst, v, d)
	case reflect.Map:
		if !mapKeyEncodable(t.Key()) {
			return nil, &json.UnsupportedTypeError{Type: t}
		}
		if v.IsNil() {
			return append(dst, "null"...), nil
		}
		return appendInside(dst, v, v, d)
	}
	return appendMarshaled(dst, v)
}

// appendInside appends the encoding of inner, the value that the non-nil
// pointer, slice or map v holds (v itself for a slice or a map), one level
// deeper.
func appendInside(dst []byte, v, inner reflect.Value, d encodeDepth) ([]byte, error) {
	if (inner.Kind() == reflect.Slice || inner.Kind() == reflect.Map) && inner.IsNil() {
		return append(dst, "null"...), nil // a pointer to a nil slice or map, as encoding/json writes it
	}
	in, err := d.enter(v)
	if err != nil {
		return nil, err
	}
	switch {
	case inner.Kind() == reflect.Slice && inner.Type().Elem().Kind() == reflect.Uint8 && !marshalsItself(inner.Type().Elem()):
		dst = appendBase64(append(dst, '"'), inner.Bytes()) // a pointer to a []byte, base64 as encoding/json writes it
		dst = append(dst, '"')
	case inner.Kind() == reflect.Slice:
		dst, err = appendElems(dst, inner, in)
	case inner.Kind() == reflect.Map:
		dst, err = appendMap(dst, inner, in)
	default:
		dst, err = appendReflect(dst, inner, in)
	}
	if err != nil {
		return nil, err
	}
	in.leave(v)
	return dst, nil
}

// appendMarshaled appends what encoding/json writes for v (a value with a
// MarshalJSON or MarshalText method, a json.Number), refusing what the
// decoders would refuse and encoding/json passes through from a
// MarshalJSON method: bytes that are not UTF-8 (a JSON-RPC message must
// be UTF-8, basic/transports) and an object naming a member twice.
func appendMarshaled(dst []byte, v reflect.Value) ([]byte, error) {
	var b []byte
	var err error
	if v.CanAddr() {
		b, err = json.Marshal(v.Addr().Interface())
	} else {
		b, err = json.Marshal(v.Interface())
	}
	if err != nil {
		return nil, err
	}
	if !utf8.Valid(b) {
		return nil, fmt.Errorf("json: error calling MarshalJSON for type %s: %w", v.Type(), errInvalidUTF8)
	}
	if len(b) > 0 && (b[0] == '{' || b[0] == '[') {
		if err := uniqueMembers(b); err != nil {
			return nil, fmt.Errorf("json: error calling MarshalJSON for type %s: %s", v.Type(), err)
		}
	}
	return append(dst, b...), nil
}

// errInvalidUTF8 is the error for raw JSON (a json.RawMessage, a
// MarshalJSON method's output) that is not UTF-8: encoding/json copies it
// as it is, but a JSON-RPC message must be UTF-8, so it is refused rather
// than sent or silently repaired.
var errInvalidUTF8 = errors.New("not valid UTF-8")

// appendCompact appends raw JSON as encoding/json writes a
// json.RawMessage: compacted, HTML-safe, and null when empty. Unlike
// encoding/json it refuses what the decoders would refuse: raw JSON that
// is not UTF-8 (errInvalidUTF8), and an object naming a member twice at
// any depth ({"a":1,"a":2} would be sent as it is, and no reader of the
// message could read it). The check is uniqueMembers, the decoders' own
// scan, which also validates: raw JSON already compact is read once.
// (Its error is not wrapped: it is a *DecodeError, which the runtime
// reports as invalid params, and this is an encoding error.)
func appendCompact(dst, raw []byte, isNil bool) ([]byte, error) {
	if isNil || len(raw) == 0 {
		return append(dst, "null"...), nil
	}
	if !utf8.Valid(raw) {
		return nil, fmt.Errorf("json: error calling MarshalJSON for type json.RawMessage: %w", errInvalidUTF8)
	}
	if err := uniqueMembers(raw); err != nil {
		return nil, fmt.Errorf("json: error calling MarshalJSON for type json.RawMessage: %s", err)
	}
	if !needsCompacting(raw) {
		return append(dst, raw...), nil
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, raw); err != nil {
		return nil, fmt.Errorf("json: error calling MarshalJSON for type json.RawMessage: %w", err)
	}
	buf := bytes.NewBuffer(dst)
	json.HTMLEscape(buf, compact.Bytes())
	return buf.Bytes(), nil
}

// needsCompacting reports whether raw has whitespace, '<', '>', '&' or a
// byte that may start U+2028/U+2029, which encoding/json would rewrite.
func needsCompacting(raw []byte) bool {
	for _, c := range raw {
		switch c {
		case ' ', '\t', '\r', '\n', '<', '>', '&', 0xE2:
			return true
		}
	}
	return false
}

func appendFloat(dst []byte, f float64, bits int) ([]byte, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, &json.UnsupportedValueError{Value: reflect.ValueOf(f), Str: strconv.FormatFloat(f, 'g', -1, bits)}
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	dst = strconv.AppendFloat(dst, f, format, -1, bits)
	if format == 'e' {
		// e-09 becomes e-9, as encoding/json writes it.
		if n := len(dst); n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst, nil
}

func appendElems(dst []byte, v reflect.Value, d encodeDepth) ([]byte, error) {
	dst = append(dst, '[')
	var err error
	for i := range v.Len() {
		if i > 0 {
			dst = append(dst, ',')
		}
		if dst, err = appendReflect(dst, v.Index(i), d); err != nil {
			return nil, err
		}
	}
	return append(dst, ']'), nil
}

// mapKeyEncodable reports whether encoding/json encodes a map whose keys
// are of type t: strings, integers, and encoding.TextMarshaler.
func mapKeyEncodable(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return true
	}
	return t.Implements(textMarshalerType)
}

// mapMember is one member of a map being encoded: its name and value.
type mapMember struct {
	name  string
	value reflect.Value
}

// appendMap appends a non-nil map, its keys named as encoding/json names
// them (mapKeyName), its members sorted by name. Every map is encoded
// here, with the depth carried, so that a value containing itself through
// a map of any key type is found as a cycle. A name that is not UTF-8 is
// refused (encoding/json writes it with U+FFFD, so two such names would
// be one name twice), and so are two keys given one name (two
// encoding.TextMarshaler keys, two nil pointer keys): the decoders refuse
// a member named twice.
func appendMap(dst []byte, v reflect.Value, d encodeDepth) ([]byte, error) {
	members := make([]mapMember, 0, v.Len())
	key := reflect.New(v.Type().Key()).Elem()
	for it := v.MapRange(); it.Next(); {
		key.SetIterKey(it)
		name, err := mapKeyName(key, v.Type())
		if err != nil {
			return nil, err
		}
		if !utf8.ValidString(name) {
			return nil, &json.UnsupportedValueError{Value: key, Str: fmt.Sprintf("map key %q is not valid UTF-8", name)}
		}
		members = append(members, mapMember{name, it.Value()})
	}
	slices.SortFunc(members, func(a, b mapMember) int { return strings.Compare(a.name, b.name) })
	dst = append(dst, '{')
	var err error
	for i, m := range members {
		if i > 0 {
			if m.name == members[i-1].name {
				return nil, &json.UnsupportedValueError{Value: v, Str: fmt.Sprintf("two keys of %s are named %q", v.Type(), m.name)}
			}
			dst = append(dst, ',')
		}
		dst = appendHTMLSafeString(dst, m.name)
		dst = append(dst, ':')
		if dst, err = appendReflect(dst, m.value, d); err != nil {
			return nil, err
		}
	}
	return append(dst, '}'), nil
}

// mapKeyName is the member name encoding/json gives the key k of a map of
// type mapType: a string as it is, an encoding.TextMarshaler's text (""
// for a nil pointer), an integer in decimal.
func mapKeyName(k reflect.Value, mapType reflect.Type) (string, error) {
	if k.Kind() == reflect.String {
		return k.String(), nil
	}
	if tm, ok := reflect.TypeAssert[encoding.TextMarshaler](k); ok {
		if k.Kind() == reflect.Pointer && k.IsNil() {
			return "", nil
		}
		text, err := tm.MarshalText()
		if err != nil {
			return "", fmt.Errorf("json: encoding error for type %q: %q", mapType.String(), err.Error())
		}
		return string(text), nil
	}
	switch k.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(k.Int(), 10), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.FormatUint(k.Uint(), 10), nil
	}
	return "", &json.UnsupportedTypeError{Type: mapType}
}

func appendStruct(dst []byte, v reflect.Value, d encodeDepth) ([]byte, error) {
	fields := cachedFields(v.Type())
	dst = append(dst, '{')
	first := true
	var err error
fields:
	for i := range fields {
		f := &fields[i]
		fv := v
		for _, j := range f.index {
			if fv.Kind() == reflect.Pointer {
				if fv.IsNil() {
					continue fields
				}
				fv = fv.Elem()
			}
			fv = fv.Field(j)
		}
		if f.omitEmpty && isEmptyValue(fv) || f.omitZero && f.isZero(fv) {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = append(dst, f.nameJSON...)
		if f.quoted {
			if dst, err = appendQuoted(dst, fv); err != nil {
				return nil, err
			}
			continue
		}
		if dst, err = appendReflect(dst, fv, d); err != nil {
			return nil, err
		}
	}
	return append(dst, '}'), nil
}

// appendQuoted writes a field tagged ",string" as encoding/json does.
func appendQuoted(dst []byte, v reflect.Value) ([]byte, error) {
	w := reflect.New(reflect.StructOf([]reflect.StructField{{Name: "V", Type: v.Type(), Tag: `json:"v,string"`}})).Elem()
	w.Field(0).Set(v)
	b, err := json.Marshal(w.Interface())
	if err != nil {
		return nil, err
	}
	return append(dst, b[len(`{"v":`):len(b)-1]...), nil
}

func isEmptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}

// encodedField is one member encoding/json writes for a struct.
type encodedField struct {
	name      string
	nameJSON  string // `"name":`, HTML-safe
	index     []int
	typ       reflect.Type
	tagged    bool
	omitEmpty bool
	omitZero  bool
	quoted    bool
	isZero    func(reflect.Value) bool
}

var encodedFieldCache sync.Map // reflect.Type → []encodedField

func cachedFields(t reflect.Type) []encodedField {
	if f, ok := encodedFieldCache.Load(t); ok {
		return f.([]encodedField)
	}
	f, _ := encodedFieldCache.LoadOrStore(t, structFieldsOf(t))
	return f.([]encodedField)
}

// structFieldsOf lists the members encoding/json writes for t, by its
// rules: exported fields, promoted fields of embedded structs (breadth
// first; the shallowest, then the tagged, field of a name wins; a tie
// drops the name), tags naming, omitting and quoting them.
func structFieldsOf(t reflect.Type) []encodedField {
	type level struct {
		typ   reflect.Type
		index []int
	}
	current := []level{}
	next := []level{{typ: t}}
	var count map[reflect.Type]int
	nextCount := map[reflect.Type]int{}
	visited := map[reflect.Type]bool{}
	var fields []encodedField
	for len(next) > 0 {
		current, next = next, current[:0]
		count, nextCount = nextCount, map[reflect.Type]int{}
		for _, l := range current {
			if visited[l.typ] {
				continue
			}
			visited[l.typ] = true
			for i := range l.typ.NumField() {
				sf := l.typ.Field(i)
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
				if !validJSONTagName(name) {
					name = ""
				}
				index := append(slices.Clone(l.index), i)
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
					f := encodedField{name: name, index: index, typ: ft, tagged: tagged,
						omitEmpty: hasOption(opts, "omitempty"), omitZero: hasOption(opts, "omitzero"), quoted: quoted}
					f.nameJSON = string(appendHTMLSafeString(nil, name)) + ":"
					if f.omitZero {
						f.isZero = zeroTest(sf.Type)
					}
					fields = append(fields, f)
					if count[l.typ] > 1 {
						// Two embeddings at one depth annihilate each other;
						// keep a second copy so the dominance check drops it.
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
	slices.SortFunc(fields, func(a, b encodedField) int {
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		if c := len(a.index) - len(b.index); c != 0 {
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
	for i := 0; i < len(fields); {
		j := i + 1
		for j < len(fields) && fields[j].name == fields[i].name {
			j++
		}
		group := fields[i:j]
		if len(group) == 1 {
			out = append(out, group[0])
		} else if len(group[0].index) < len(group[1].index) || (group[0].tagged && !group[1].tagged) {
			out = append(out, group[0])
		}
		i = j
	}
	slices.SortFunc(out, func(a, b encodedField) int { return slices.Compare(a.index, b.index) })
	return out
}

// zeroTest is how encoding/json decides that an omitzero field is zero.
func zeroTest(t reflect.Type) func(reflect.Value) bool {
	switch {
	case t.Kind() == reflect.Interface && t.Implements(isZeroerType):
		return func(v reflect.Value) bool {
			return v.IsNil() || (v.Elem().Kind() == reflect.Pointer && v.Elem().IsNil()) || v.Interface().(interface{ IsZero() bool }).IsZero()
		}
	case t.Kind() == reflect.Pointer && t.Implements(isZeroerType):
		return func(v reflect.Value) bool { return v.IsNil() || v.Interface().(interface{ IsZero() bool }).IsZero() }
	case t.Implements(isZeroerType):
		return func(v reflect.Value) bool { return v.Interface().(interface{ IsZero() bool }).IsZero() }
	case reflect.PointerTo(t).Implements(isZeroerType):
		return func(v reflect.Value) bool {
			if !v.CanAddr() {
				c := reflect.New(v.Type()).Elem()
				c.Set(v)
				v = c
			}
			return v.Addr().Interface().(interface{ IsZero() bool }).IsZero()
		}
	}
	return reflect.Value.IsZero
}

func hasOption(opts, want string) bool {
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		if o == want {
			return true
		}
	}
	return false
}

// validJSONTagName is encoding/json's rule for a name a tag may give.
func validJSONTagName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}

const hexDigitsLower = "0123456789abcdef"

// appendHTMLSafeString appends s as encoding/json writes a string: '<',
// '>', '&', U+2028 and U+2029 escaped, invalid UTF-8 as \ufffd.
func appendHTMLSafeString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '\\', '"':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigitsLower[c>>4], hexDigitsLower[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigitsLower[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// appendExtraAt is appendExtra for an object encoded at dst[start:]: it
// adds the extra members the object does not declare, compacted and
// HTML-safe as encoding/json writes raw values. A name that is not UTF-8
// is refused: written with U+FFFD, it could be another member's name.
func appendExtraAt(dst []byte, start int, extra map[string]json.RawMessage, declared ...string) ([]byte, error) {
	if len(extra) == 0 {
		return dst, nil
	}
	keys := make([]string, 0, len(extra))
	for k := range extra {
		if !utf8.ValidString(k) {
			return nil, fmt.Errorf("extra member name %q is not valid UTF-8", k)
		}
		if !slices.Contains(declared, k) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return dst, nil
	}
	slices.Sort(keys)
	dst = dst[:len(dst)-1] // drop '}'
	var err error
	for _, k := range keys {
		if len(dst)-start > 1 {
			dst = append(dst, ',')
		}
		dst = appendHTMLSafeString(dst, k)
		dst = append(dst, ':')
		v := extra[k]
		if len(v) == 0 {
			return nil, fmt.Errorf("extra member %q is not valid JSON", k)
		}
		if dst, err = appendCompact(dst, v, false); err != nil {
			return nil, fmt.Errorf("extra member %q: %w", k, err)
		}
	}
	return append(dst, '}'), nil
}

// base64Pairs maps 12 bits to the two characters of the standard base64
// alphabet that encode them (the first in the low byte).
var base64Pairs = func() (t [4096]uint16) {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	for i := range t {
		t[i] = uint16(alphabet[i>>6]) | uint16(alphabet[i&63])<<8
	}
	return t
}()

// appendBase64 appends base64.StdEncoding's encoding of src (what
// encoding/json writes for a []byte), about twice as fast as
// base64.StdEncoding.AppendEncode: six bytes at a time become eight
// characters through a 12-bit table and one 64-bit store, instead of three
// bytes becoming four single-character lookups. The last bytes (and the
// padding) are left to encoding/base64. A 1 MB resources/read blob spent
// half of its server CPU here.
func appendBase64(dst, src []byte) []byte {
	n := base64.StdEncoding.EncodedLen(len(src))
	dst = slices.Grow(dst, n)
	out := dst[len(dst) : len(dst)+n]
	for len(src) >= 8 && len(out) >= 8 { // an 8-byte load covers the 6 bytes used
		v := binary.BigEndian.Uint64(src)
		binary.LittleEndian.PutUint64(out, uint64(base64Pairs[v>>52])|
			uint64(base64Pairs[v>>40&0xFFF])<<16|
			uint64(base64Pairs[v>>28&0xFFF])<<32|
			uint64(base64Pairs[v>>16&0xFFF])<<48)
		src, out = src[6:], out[8:]
	}
	base64.StdEncoding.Encode(out, src)
	return dst[:len(dst)+n]
}
