package support

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// DecodeError reports a message that does not match the schema. Path names
// the offending member, such as "params.content[2].type".
type DecodeError struct {
	Path string
	Msg  string
}

func (e *DecodeError) Error() string {
	if e.Path == "" {
		return e.Msg
	}
	return e.Path + ": " + e.Msg
}

// within prefixes the path of a decoding error with a member name or index.
func within(name string, err error) error {
	var de *DecodeError
	if errors.As(err, &de) {
		path := name
		switch {
		case de.Path == "":
		case strings.HasPrefix(de.Path, "["):
			path += de.Path
		default:
			path += "." + de.Path
		}
		return &DecodeError{Path: path, Msg: de.Msg}
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		path := name
		if te.Field != "" {
			path += "." + te.Field
		}
		return &DecodeError{Path: path, Msg: "expected " + jsonTypeName(te.Type.String()) + ", got " + te.Value}
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return &DecodeError{Path: name, Msg: "invalid JSON: " + se.Error()}
	}
	return &DecodeError{Path: name, Msg: err.Error()}
}

func jsonTypeName(goType string) string {
	switch {
	case goType == "string" || strings.HasSuffix(goType, "string"):
		return "a string"
	case strings.Contains(goType, "int"):
		return "an integer"
	case strings.Contains(goType, "float"):
		return "a number"
	case goType == "bool":
		return "a boolean"
	case strings.HasPrefix(goType, "[]"):
		return "an array"
	}
	return "an object"
}

func isNull(raw json.RawMessage) bool { return string(raw) == "null" }

// decoder turns JSON into a value of type T.
type decoder[T any] func(data []byte) (T, error)

// plain decodes with encoding/json. An object or array it reads itself
// (T has no UnmarshalJSON) must not name a member twice at any depth:
// encoding/json would keep the last, another reader the first.
func plain[T any](data []byte) (T, error) {
	var v T
	if err := uniqueFor[T](data); err != nil {
		return v, err
	}
	err := json.Unmarshal(data, &v)
	return v, err
}

// uniqueFor is uniqueMembers for data that encoding/json is to decode into
// a T: only an object or an array, and only when T does not decode itself
// (a generated type's decoder checks its own members).
func uniqueFor[T any](data []byte) error {
	if k := jsonKind(data); k != 'o' && k != 'a' {
		return nil
	}
	if _, ok := any((*T)(nil)).(json.Unmarshaler); ok {
		return nil
	}
	return uniqueMembers(data)
}

// uniqueMembers checks data as JSON and refuses an object, at any depth,
// that names a member twice (one message, one reading).
func uniqueMembers(data []byte) error {
	s := scanner{data: data, unique: true}
	s.space()
	if err := s.value(0); err != nil {
		return err
	}
	return s.end()
}

// base64Bytes decodes a member of format byte: a base64 string, or null
// (nil). encoding/json would also take an array of numbers, which the
// schema refuses.
func base64Bytes(data []byte) ([]byte, error) {
	switch jsonKind(data) {
	case 'z':
		return nil, nil
	case 's':
		var b []byte
		err := json.Unmarshal(data, &b)
		return b, err
	}
	return nil, &DecodeError{Msg: "expected a base64 string, got " + jsonWhat(data)}
}

// sliceOf decodes a JSON array element by element, naming a refused
// element by its index ("[2]"). The elements are slices of data, not
// copies: one pass finds them (their offsets on the stack for up to 32),
// then the slice is made at its size and each element decoded.
func sliceOf[T any](elem decoder[T]) decoder[[]T] {
	return func(data []byte) ([]T, error) {
		if isNull(data) {
			return nil, nil
		}
		var stack [64]int
		spans, err := arrayElements(data, stack[:0])
		if err != nil {
			return nil, err
		}
		out := make([]T, len(spans)/2)
		for i := range out {
			v, err := elem(data[spans[2*i]:spans[2*i+1]])
			if err != nil {
				return nil, within("["+strconv.Itoa(i)+"]", err)
			}
			out[i] = v
		}
		return out, nil
	}
}

// sliceVia is sliceOf(via[T]) for an array of structs: each element is
// decoded in place, neither allocated apart nor copied.
func sliceVia[T any, P interface {
	*T
	json.Unmarshaler
}](data []byte) ([]T, error) {
	if isNull(data) {
		return nil, nil
	}
	var stack [64]int
	spans, err := arrayElements(data, stack[:0])
	if err != nil {
		return nil, err
	}
	out := make([]T, len(spans)/2)
	for i := range out {
		if err := P(&out[i]).UnmarshalJSON(data[spans[2*i]:spans[2*i+1]]); err != nil {
			return nil, within("["+strconv.Itoa(i)+"]", err)
		}
	}
	return out, nil
}

// arrayElements appends to spans the start and end offsets of each
// element of a JSON array, checking the array as it reads it.
func arrayElements(data []byte, spans []int) ([]int, error) {
	s := scanner{data: data}
	s.space()
	if s.peek() != '[' {
		return nil, &DecodeError{Msg: "expected an array, got " + jsonWhat(data)}
	}
	s.i++
	s.space()
	if s.peek() == ']' {
		s.i++
		return spans, s.end()
	}
	for {
		s.space()
		start := s.i
		if err := s.value(0); err != nil {
			return nil, err
		}
		spans = append(spans, start, s.i)
		s.space()
		switch s.peek() {
		case ',':
			s.i++
		case ']':
			s.i++
			return spans, s.end()
		default:
			return nil, s.fail("expected ',' or ']' in array")
		}
	}
}

// mapOf decodes a JSON object member by member.
func mapOf[T any](elem decoder[T]) decoder[map[string]T] {
	return func(data []byte) (map[string]T, error) {
		if isNull(data) {
			return nil, nil
		}
		raws, err := split(data, nil, nil) // a key named twice is refused
		if err != nil {
			return nil, err
		}
		out := make(map[string]T, len(raws))
		for k, raw := range raws {
			v, err := elem(raw)
			if err != nil {
				return nil, within(k, err)
			}
			out[k] = v
		}
		return out, nil
	}
}

// integer decodes a JSON integer. As in JSON Schema, a number whose
// fractional part is zero is an integer, however it is written: 1.0, 1e0
// and 10E-1 decode as 1. A number with a fraction, or one outside int64,
// is refused.
func integer(data []byte) (int64, error) {
	if n, ok := plainInteger(data); ok {
		return n, nil
	}
	if jsonKind(data) != 'n' {
		return 0, &DecodeError{Msg: "expected an integer, got " + jsonWhat(data)}
	}
	n, isInteger, fits := integralNumber(bytes.TrimRight(bytes.TrimLeft(data, " \t\r\n"), " \t\r\n"))
	switch {
	case !isInteger:
		return 0, &DecodeError{Msg: "expected an integer, got number " + truncate(data)}
	case !fits:
		return 0, &DecodeError{Msg: "integer " + truncate(data) + " is out of range (int64)"}
	}
	return n, nil
}

// optionalInteger is integer for a member kept as a pointer: null is nil.
func optionalInteger(data []byte) (*int64, error) {
	if isNull(data) {
		return nil, nil
	}
	n, err := integer(data)
	if err != nil {
		return nil, err
	}
	return &n, nil
}

// integerOrNull is integer for an element the schema lets be null that
// is kept as an int64, not a pointer (no enum, const or bound on it): null
// is 0, as encoding/json reads it and as a null string element is "".
func integerOrNull(data []byte) (int64, error) {
	if isNull(data) {
		return 0, nil
	}
	return integer(data)
}

// plainInteger reads an integer written without fraction or exponent and
// of at most 18 digits, the common case, without allocating.
func plainInteger(data []byte) (int64, bool) {
	digits := data
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 18 || digits[0] == '0' && len(digits) > 1 {
		return 0, false
	}
	var n int64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if len(digits) < len(data) {
		n = -n
	}
	return n, true
}

// integralNumber reads a JSON number: whether it is an integer, whether
// that fits in an int64, and then its exact value. It reads the digits and
// the exponent as decimal text, never as a float, so 9007199254740993.0
// stays exact and a huge exponent costs nothing.
func integralNumber(num []byte) (n int64, isInteger, fits bool) {
	s := scanner{data: num}
	if s.number() != nil || s.i != len(num) {
		return 0, false, false
	}
	neg := num[0] == '-'
	if neg {
		num = num[1:]
	}
	mant, exp := num, 0
	for i, c := range mant {
		if c == 'e' || c == 'E' {
			exp = exponent(mant[i+1:])
			mant = mant[:i]
			break
		}
	}
	intPart, frac := mant, []byte(nil)
	if i := bytes.IndexByte(mant, '.'); i >= 0 {
		intPart, frac = mant[:i], mant[i+1:]
	}
	// The value is digits × 10^exp, digits being intPart and frac run
	// together without their leading and trailing zeros.
	exp -= len(frac)
	digit := func(i int) byte {
		if i < len(intPart) {
			return intPart[i]
		}
		return frac[i-len(intPart)]
	}
	first, last := 0, len(intPart)+len(frac)
	for first < last && digit(first) == '0' {
		first++
	}
	for last > first && digit(last-1) == '0' {
		last--
		exp++
	}
	switch {
	case first == last:
		return 0, true, true // 0.0, -0e5
	case exp < 0:
		return 0, false, false // a non-zero digit after the point
	case last-first+exp > 19:
		return 0, true, false
	}
	var u uint64
	for i := first; i < last; i++ {
		u = u*10 + uint64(digit(i)-'0')
	}
	for range exp {
		u *= 10 // at most 19 digits in all: no overflow of uint64
	}
	switch {
	case neg && u <= 1<<63:
		return int64(-u), true, true
	case !neg && u < 1<<63:
		return int64(u), true, true
	}
	return 0, true, false
}

// exponent reads the exponent of a JSON number, saturated far beyond any
// that an int64 can use.
func exponent(text []byte) int {
	neg := len(text) > 0 && text[0] == '-'
	if len(text) > 0 && (text[0] == '-' || text[0] == '+') {
		text = text[1:]
	}
	n := 0
	for _, c := range text {
		n = min(n*10+int(c-'0'), 1<<20)
	}
	if neg {
		return -n
	}
	return n
}

// jsonWhat names the JSON type of a value for a message, as encoding/json
// does: "object", "array", "string", "number 1.5", "bool" or "null".
func jsonWhat(data []byte) string {
	switch jsonKind(data) {
	case 'o':
		return "object"
	case 'a':
		return "array"
	case 's':
		return "string"
	case 'n':
		return "number " + truncate(data)
	case 'b':
		return "bool"
	case 'z':
		return "null"
	}
	return truncate(data)
}

// fields collects the members of one object while it is decoded.
type fields struct{ err error }

// required decodes a member that must be present and not null.
func required[T any](fs *fields, raw json.RawMessage, dst *T, name string, dec decoder[T]) {
	if fs.err != nil {
		return
	}
	if raw == nil {
		fs.err = &DecodeError{Path: name, Msg: "missing required member"}
		return
	}
	if isNull(raw) {
		fs.err = &DecodeError{Path: name, Msg: "must not be null"}
		return
	}
	v, err := dec(raw)
	if err != nil {
		fs.err = within(name, err)
		return
	}
	*dst = v
}

// requiredOrNull decodes a member that must be present and may be null.
func requiredOrNull[T any](fs *fields, raw json.RawMessage, dst *T, name string, dec decoder[T]) {
	if fs.err != nil {
		return
	}
	if raw == nil {
		fs.err = &DecodeError{Path: name, Msg: "missing required member"}
		return
	}
	optional(fs, raw, dst, name, dec)
}

// optional decodes a member that may be absent.
func optional[T any](fs *fields, raw json.RawMessage, dst *T, name string, dec decoder[T]) {
	if fs.err != nil || raw == nil {
		return
	}
	v, err := dec(raw)
	if err != nil {
		fs.err = within(name, err)
		return
	}
	*dst = v
}

// optionalNotNull decodes a member that may be absent but, when present,
// must not be null: its schema does not let it be null, so null is refused
// as a value, not read as absence.
func optionalNotNull[T any](fs *fields, raw json.RawMessage, dst *T, name string, dec decoder[T]) {
	if fs.err == nil && isNull(raw) {
		fs.err = &DecodeError{Path: name, Msg: "must not be null"}
		return
	}
	optional(fs, raw, dst, name, dec)
}

// nullKept is the decoder of an optional member that may be null: dec's
// value, null's included, behind a pointer, so that nil stays what an
// absent member decodes to and null is a pointer to nil (or to an empty
// Value).
func nullKept[T any](dec decoder[T]) decoder[*T] {
	return func(data []byte) (*T, error) {
		v, err := dec(data)
		if err != nil {
			return nil, err
		}
		return &v, nil
	}
}

// nullKeptValue is the value of an optional member that may be null, for
// its checks: T's zero value (null) when the member is absent.
func nullKeptValue[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}

// constant checks a member that must hold one JSON literal.
func constant(fs *fields, raw json.RawMessage, want string, name string, isRequired bool) {
	if fs.err != nil || (raw == nil && !isRequired) {
		return
	}
	if raw == nil {
		fs.err = &DecodeError{Path: name, Msg: "missing required member (must be " + want + ")"}
		return
	}
	if !sameJSON(raw, want) {
		fs.err = &DecodeError{Path: name, Msg: "must be " + want + ", got " + truncate(raw)}
	}
}

func sameJSON(raw json.RawMessage, literal string) bool {
	if string(raw) == literal {
		return true
	}
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return false
	}
	if buf.String() == literal {
		return true
	}
	// Equal JSON values written differently (1.0 and 1, escapes): compare
	// decoded values, types included, so "1" is not 1 and "true" not true.
	var a, b any
	return json.Unmarshal(raw, &a) == nil && json.Unmarshal([]byte(literal), &b) == nil && reflect.DeepEqual(a, b)
}

// truncate shortens a JSON text for a message, never inside a character.
func truncate(raw json.RawMessage) string {
	if len(raw) <= 40 {
		return string(raw)
	}
	cut := 40
	for cut > 0 && !utf8.RuneStart(raw[cut]) {
		cut--
	}
	return string(raw[:cut]) + "…"
}

// checkLiteral refuses a value that is not one of the JSON literals of a
// non-string enum.
func checkLiteral(value any, name string, literals ...string) error {
	raw, err := json.Marshal(value)
	if err != nil {
		return err
	}
	for _, lit := range literals {
		if sameJSON(raw, lit) {
			return nil
		}
	}
	return &DecodeError{Path: name, Msg: fmt.Sprintf("%s is not one of %s", truncate(raw), strings.Join(literals, ", "))}
}

// checkLiteralOptional is checkLiteral for an optional member.
func checkLiteralOptional[T any](value *T, name string, literals ...string) error {
	if value == nil {
		return nil
	}
	return checkLiteral(*value, name, literals...)
}

// keepChecked keeps the members the schema does not declare, each checked
// against the schema of additionalProperties.
func keepChecked[T any](fs *fields, rest map[string]json.RawMessage, dec decoder[T]) map[string]json.RawMessage {
	if fs.err != nil {
		return nil
	}
	for _, k := range sortedKeys(rest) {
		if _, err := dec(rest[k]); err != nil {
			fs.err = within(k, err)
			return nil
		}
	}
	return keep(fs, rest)
}

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// jsonKind returns the kind of a JSON text: 'o'bject, 'a'rray, 's'tring,
// 'n'umber, 'b'oolean, 'z' for null, or 0 for invalid input.
func jsonKind(data []byte) byte {
	data = bytes.TrimLeft(data, " \t\r\n")
	if len(data) == 0 {
		return 0
	}
	switch c := data[0]; {
	case c == '{':
		return 'o'
	case c == '[':
		return 'a'
	case c == '"':
		return 's'
	case c == 't' || c == 'f':
		return 'b'
	case c == 'n':
		return 'z'
	case c == '-' || (c >= '0' && c <= '9'):
		return 'n'
	}
	return 0
}

// shape is what an object must look like to be decoded as a union member.
type shape struct {
	kind     byte // as jsonKind
	required []string
	consts   map[string][]string
	props    []string
	nested   map[string]*shape
}

// eligible reports whether an object's members fit the shape.
func (s *shape) eligible(members map[string]json.RawMessage) bool {
	for _, k := range s.required {
		if _, ok := members[k]; !ok {
			return false
		}
	}
	for k, allowed := range s.consts {
		raw, ok := members[k]
		if !ok {
			continue
		}
		if !slices.ContainsFunc(allowed, func(lit string) bool { return sameJSON(raw, lit) }) {
			return false
		}
	}
	for k, n := range s.nested {
		raw, ok := members[k]
		if !ok {
			continue
		}
		var sub map[string]json.RawMessage
		if json.Unmarshal(raw, &sub) != nil || !n.eligible(sub) {
			return false
		}
	}
	return true
}

// score ranks eligible shapes: more required members first, then more of
// the object's members declared.
func (s *shape) score(members map[string]json.RawMessage) int {
	n := len(s.required) * 1000
	for k := range members {
		if slices.Contains(s.props, k) {
			n += 10
		} else {
			n--
		}
	}
	return n
}

// candidates orders the union members that data may decode as, best first.
func candidates(data []byte, shapes []shape) []int {
	kind := jsonKind(data)
	var members map[string]json.RawMessage
	if kind == 'o' {
		if json.Unmarshal(data, &members) != nil {
			return nil
		}
	}
	type scored struct{ index, score int }
	var list []scored
	for i := range shapes {
		s := &shapes[i]
		switch {
		case s.kind != kind:
		case kind != 'o':
			list = append(list, scored{i, 0})
		case s.eligible(members):
			list = append(list, scored{i, s.score(members)})
		}
	}
	slices.SortStableFunc(list, func(a, b scored) int { return b.score - a.score })
	out := make([]int, len(list))
	for i, s := range list {
		out[i] = s.index
	}
	return out
}

// tagOf reads a string discriminator from an object.
func tagOf(data []byte, name string) (tag string, present bool, err error) {
	if jsonKind(data) != 'o' {
		return "", false, &DecodeError{Msg: "expected an object, got " + truncate(data)}
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &members); err != nil {
		return "", false, err
	}
	raw, ok := members[name]
	if !ok {
		return "", false, nil
	}
	if err := json.Unmarshal(raw, &tag); err != nil {
		return "", true, &DecodeError{Path: name, Msg: "expected a string, got " + truncate(raw)}
	}
	return tag, true, nil
}

// decodeMember decodes data as the struct member T of union U.
func decodeMember[T any, U any](data []byte) (U, error) {
	var zero U
	v := new(T)
	if err := json.Unmarshal(data, v); err != nil {
		return zero, err
	}
	u, ok := any(v).(U)
	if !ok {
		return zero, fmt.Errorf("%T is not a member of %T", v, zero)
	}
	return u, nil
}

// decodeValueMember decodes data as the array or map member T of union U.
func decodeValueMember[T any, U any](data []byte) (U, error) {
	var zero U
	v, err := plain[T](data)
	if err != nil {
		return zero, err
	}
	u, ok := any(v).(U)
	if !ok {
		return zero, fmt.Errorf("%T is not a member of %T", v, zero)
	}
	return u, nil
}

// marshalScalar encodes the value of a scalar union, refusing what
// unmarshalScalar would refuse: nil (null) unless the union takes null,
// and, when it takes integers but not numbers, a number with a fraction or
// outside int64.
func marshalScalar(v any, name string, allowed []string) ([]byte, error) {
	integerOnly := slices.Contains(allowed, "integer") && !slices.Contains(allowed, "number")
	var kind string
	switch n := v.(type) {
	case nil:
		if !slices.Contains(allowed, "null") {
			return nil, fmt.Errorf("%s cannot be null (allowed: %s)", name, strings.Join(allowed, ", "))
		}
		return []byte("null"), nil
	case string:
		kind = "string"
	case int, int8, int16, int32, int64, uint8, uint16, uint32:
		kind = "integer"
	case uint, uint64, uintptr:
		kind = "integer"
		if integerOnly && !fitsInt64(n) {
			return nil, fmt.Errorf("%s cannot hold %v: integers are int64", name, n)
		}
	case float32, float64:
		kind = "number"
		if integerOnly {
			kind = "integer"
			if !fitsInt64(n) {
				return nil, fmt.Errorf("%s cannot hold %v: not an int64 integer", name, n)
			}
		}
	case bool:
		kind = "boolean"
	default:
		return nil, fmt.Errorf("%s cannot hold a %T (allowed: %s)", name, v, strings.Join(allowed, ", "))
	}
	if !slices.Contains(allowed, kind) && !(kind == "integer" && slices.Contains(allowed, "number")) {
		return nil, fmt.Errorf("%s cannot hold a %s (allowed: %s)", name, kind, strings.Join(allowed, ", "))
	}
	return json.Marshal(v)
}

// fitsInt64 reports whether an unsigned integer or a float is an integer
// that an int64 holds, as unmarshalScalar reads it.
func fitsInt64(v any) bool {
	var f float64
	switch n := v.(type) {
	case uint:
		return uint64(n) <= 1<<63-1
	case uint64:
		return n <= 1<<63-1
	case uintptr:
		return uint64(n) <= 1<<63-1
	case float32:
		f = float64(n)
	case float64:
		f = n
	}
	return f == math.Trunc(f) && f >= -(1<<63) && f < 1<<63
}

// unmarshalScalar decodes the value of a scalar union: strings as string,
// integers as int64 (also 1.0 or 1e2 when the union takes integers but not
// numbers), other numbers as float64, booleans as bool.
func unmarshalScalar(data []byte, allowed []string) (any, error) {
	want := func(kind string) error {
		if slices.Contains(allowed, kind) {
			return nil
		}
		return &DecodeError{Msg: "expected " + strings.Join(allowed, " or ") + ", got " + truncate(data)}
	}
	switch jsonKind(data) {
	case 's':
		if err := want("string"); err != nil {
			return nil, err
		}
		var s string
		err := json.Unmarshal(data, &s)
		return s, err
	case 'b':
		if err := want("boolean"); err != nil {
			return nil, err
		}
		var b bool
		err := json.Unmarshal(data, &b)
		return b, err
	case 'z':
		if slices.Contains(allowed, "null") {
			return nil, nil
		}
	case 'n':
		text := strings.TrimSpace(string(data))
		if n, err := strconv.ParseInt(text, 10, 64); err == nil && (slices.Contains(allowed, "integer") || slices.Contains(allowed, "number")) {
			return n, nil
		}
		if slices.Contains(allowed, "integer") && !slices.Contains(allowed, "number") {
			// 1.0 and 1e2 are integers (JSON Schema): decoded as int64.
			if n, isInteger, fits := integralNumber([]byte(text)); isInteger && fits {
				return n, nil
			}
		}
		if err := want("number"); err != nil {
			return nil, err
		}
		return strconv.ParseFloat(text, 64)
	}
	return nil, &DecodeError{Msg: "expected " + strings.Join(allowed, " or ") + ", got " + truncate(data)}
}

// alternative is one member of a scalar union written as anyOf or oneOf:
// the JSON types it takes and, when its schema narrows them, the values
// (JSON literals) and bounds it allows.
type alternative struct {
	at       string // the member in the schema, as "anyOf/1"
	types    []string
	literals []string
	bounds   *bounds
}

// refuses says why the member does not take a value as unmarshalScalar
// returns it (string, int64, float64, bool or nil), or nil if it does.
func (a *alternative) refuses(value any) error {
	var kind string
	var num float64
	switch v := value.(type) {
	case nil:
		kind = "null"
	case string:
		kind = "string"
	case bool:
		kind = "boolean"
	case int64:
		kind, num = "integer", float64(v)
	case float64:
		kind, num = "number", v
		if v == math.Trunc(v) {
			kind = "integer" // as in JSON Schema, 2.0 is an integer
		}
	default:
		return fmt.Errorf("%T is not a JSON primitive", value)
	}
	if !slices.Contains(a.types, kind) && !(kind == "integer" && slices.Contains(a.types, "number")) {
		return &DecodeError{Msg: "not " + strings.Join(a.types, " or ")}
	}
	if a.literals != nil {
		if err := checkLiteral(value, "", a.literals...); err != nil {
			return err
		}
	}
	if a.bounds != nil && (kind == "integer" || kind == "number") {
		if v, ok := value.(int64); ok {
			return checkBounds(v, "", *a.bounds) // exactly, not as a float64
		}
		return checkBounds(num, "", *a.bounds)
	}
	return nil
}

// checkAlternatives refuses a value of a scalar union that none of its
// members takes (or, under oneOf, that more than one takes); the error
// names the members by their place in the schema.
func checkAlternatives(value any, alts []alternative, oneOf bool) error {
	var taken, why []string
	for i := range alts {
		if err := alts[i].refuses(value); err != nil {
			why = append(why, alts[i].at+": "+err.Error())
			continue
		}
		taken = append(taken, alts[i].at)
	}
	raw, _ := json.Marshal(value)
	switch {
	case len(taken) == 0:
		return &DecodeError{Msg: truncate(raw) + " matches no member (" + strings.Join(why, "; ") + ")"}
	case oneOf && len(taken) > 1:
		return &DecodeError{Msg: truncate(raw) + " matches more than one member of oneOf (" + strings.Join(taken, ", ") + ")"}
	}
	return nil
}

// unmarshalAlternatives is unmarshalScalar for a scalar union whose
// members narrow their values.
func unmarshalAlternatives(data []byte, allowed []string, alts []alternative, oneOf bool) (any, error) {
	value, err := unmarshalScalar(data, allowed)
	if err != nil {
		return nil, err
	}
	if err := checkAlternatives(value, alts, oneOf); err != nil {
		return nil, err
	}
	return value, nil
}

// marshalAlternatives is marshalScalar for a scalar union whose members
// narrow their values: what its decoder refuses is refused here.
func marshalAlternatives(v any, name string, allowed []string, alts []alternative, oneOf bool) ([]byte, error) {
	data, err := marshalScalar(v, name, allowed)
	if err != nil {
		return nil, err
	}
	if _, err := unmarshalAlternatives(data, allowed, alts, oneOf); err != nil {
		return nil, within(name, err)
	}
	return data, nil
}

// ValidateMetaKey checks a _meta key against the MCP naming rules: an
// optional prefix of dot-separated labels (each starting with a letter and
// ending with a letter or digit, hyphens inside) followed by a slash, then a
// name that, unless empty, starts and ends with a letter or digit and has
// only letters, digits, hyphens, underscores and dots inside.
func ValidateMetaKey(key string) error {
	prefix, name, hasPrefix := strings.Cut(key, "/")
	if !hasPrefix {
		prefix, name = "", key
	} else if strings.Contains(name, "/") {
		return fmt.Errorf("_meta key %q: only one slash may separate prefix and name", key)
	}
	if hasPrefix {
		if prefix == "" {
			return fmt.Errorf("_meta key %q: empty prefix before the slash", key)
		}
		for _, label := range strings.Split(prefix, ".") {
			if !validLabel(label) {
				return fmt.Errorf("_meta key %q: prefix label %q must start with a letter, end with a letter or digit, and contain only letters, digits and hyphens", key, label)
			}
		}
	}
	if name == "" {
		return nil
	}
	if !isAlnum(name[0]) || !isAlnum(name[len(name)-1]) {
		return fmt.Errorf("_meta key %q: name must start and end with a letter or digit", key)
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			return fmt.Errorf("_meta key %q: name may contain only letters, digits, '-', '_' and '.'", key)
		}
	}
	return nil
}

// IsReservedMetaKey reports whether a _meta key's prefix is reserved for
// MCP: its second label is "modelcontextprotocol" or "mcp"
// (io.modelcontextprotocol/, dev.mcp/, but not com.example.mcp/).
func IsReservedMetaKey(key string) bool {
	prefix, _, ok := strings.Cut(key, "/")
	if !ok {
		return false
	}
	labels := strings.Split(prefix, ".")
	return len(labels) >= 2 && (labels[1] == "modelcontextprotocol" || labels[1] == "mcp")
}

func validLabel(label string) bool {
	if label == "" || !isLetter(label[0]) || !isAlnum(label[len(label)-1]) {
		return false
	}
	for i := 0; i < len(label); i++ {
		if c := label[i]; !isAlnum(c) && c != '-' {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isAlnum(c byte) bool  { return isLetter(c) || c >= '0' && c <= '9' }

// NotImplementedError is what the Unimplemented handlers return; a server
// answers it with the "method not found" error code.
type NotImplementedError struct{ Method string }

func (e *NotImplementedError) Error() string { return "method not implemented: " + e.Method }

// nullUnion reports whether a union value is written as null: nil, or a
// nil pointer, map or slice of a member type.
func nullUnion(v any) bool {
	if v == nil {
		return true
	}
	switch rv := reflect.ValueOf(v); rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice:
		return rv.IsNil()
	}
	return false
}

// checkUnion refuses to encode a union member that would be written as
// null, which its decoder refuses: a nil pointer (map, slice) of a member
// type, and nil when the member is required (an optional one is left out).
func checkUnion(v any, name string, isRequired bool) error {
	if v == nil && !isRequired || !nullUnion(v) {
		return nil
	}
	return &DecodeError{Path: name, Msg: "must not be null"}
}

// checkUnionElements is checkUnion for the elements of an array of unions.
func checkUnionElements[U any](vs []U, name string) error {
	for i, v := range vs {
		if nullUnion(v) {
			return &DecodeError{Path: name + "[" + strconv.Itoa(i) + "]", Msg: "must not be null"}
		}
	}
	return nil
}

// checkUnionValues is checkUnion for the values of a map of unions.
func checkUnionValues[U any](m map[string]U, name string) error {
	for k, v := range m {
		if nullUnion(v) {
			if name != "" {
				k = name + "." + k
			}
			return &DecodeError{Path: k, Msg: "must not be null"}
		}
	}
	return nil
}

// decodeNew decodes data into a new T.
func decodeNew[T any](data []byte) (any, error) {
	v := new(T)
	if err := json.Unmarshal(data, v); err != nil {
		return nil, err
	}
	return v, nil
}

// keep returns the members the schema does not declare, to keep. An
// object or array among them must not name a member twice, at any depth.
func keep(fs *fields, rest map[string]json.RawMessage) map[string]json.RawMessage {
	if fs.err != nil || len(rest) == 0 {
		return nil
	}
	for k, v := range rest {
		if kind := jsonKind(v); kind != 'o' && kind != 'a' {
			continue
		}
		if err := uniqueMembers(v); err != nil {
			fs.err = within(k, err)
			return nil
		}
	}
	return rest
}

// refuse reports members the schema does not allow.
func refuse(fs *fields, rest map[string]json.RawMessage) {
	if fs.err != nil {
		return
	}
	for k := range rest {
		fs.err = &DecodeError{Path: k, Msg: "member not allowed here"}
		return
	}
}

// split reads a JSON object in one pass: the value of each member named in
// names goes to raws at the same index (nil when absent), and the other
// members are returned. Values are slices of data, not copies. A member
// named twice is an error (one message, one reading).
func split(data []byte, names []string, raws []json.RawMessage) (map[string]json.RawMessage, error) {
	s := scanner{data: data}
	s.space()
	if s.i >= len(data) || data[s.i] != '{' {
		return nil, &DecodeError{Msg: "expected an object, got " + truncate(data)}
	}
	s.i++
	var extra map[string]json.RawMessage
	var err error
	s.space()
	if s.peek() == '}' {
		s.i++
		return nil, s.end()
	}
	for {
		s.space()
		keyStart := s.i
		if err := s.str(); err != nil {
			return nil, err
		}
		key := data[keyStart+1 : s.i-1]
		s.space()
		if s.peek() != ':' {
			return nil, s.fail("expected ':' after object key")
		}
		s.i++
		s.space()
		valStart := s.i
		if err := s.value(0); err != nil {
			return nil, err
		}
		val := json.RawMessage(data[valStart:s.i])
		if key, err = memberName(data[keyStart : keyStart+len(key)+2]); err != nil {
			return nil, s.fail("invalid object key")
		}
		found := false
		for i, name := range names {
			if string(key) == name {
				if raws[i] != nil {
					return nil, &DecodeError{Path: name, Msg: "duplicate member"}
				}
				raws[i] = val
				found = true
				break
			}
		}
		if !found {
			if extra == nil {
				extra = map[string]json.RawMessage{}
			}
			if _, dup := extra[string(key)]; dup {
				return nil, &DecodeError{Path: string(key), Msg: "duplicate member"}
			}
			extra[string(key)] = val
		}
		s.space()
		switch s.peek() {
		case ',':
			s.i++
		case '}':
			s.i++
			return extra, s.end()
		default:
			return nil, s.fail("expected ',' or '}' in object")
		}
	}
}

// scanner checks and skips JSON values.
type scanner struct {
	data []byte
	i    int
	// unique refuses an object that names a member twice, at any depth.
	unique bool
}

// memberName is the name a member's key (data[start:end], quotes
// included) gives: its bytes, unless escapes or bytes that are not UTF-8
// make encoding/json read it otherwise (invalid bytes as U+FFFD), so that
// "\xff" and "\ufffd" are one name, as they are once decoded.
func memberName(key []byte) ([]byte, error) {
	inner := key[1 : len(key)-1]
	if bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		return inner, nil
	}
	var k string
	if err := json.Unmarshal(key, &k); err != nil {
		return nil, err
	}
	return []byte(k), nil
}

// uniqueName records the member name data[start:end] (quotes included)
// of the object being read, refusing one named before. Up to 8 names are
// compared in place (spans holds their offsets, n counts them), without
// allocating; more, or a name with escapes or bytes that are not UTF-8
// (read as encoding/json reads it), go to a set made then.
func (s *scanner) uniqueName(start, end int, spans *[16]int, n *int, set *map[string]struct{}) error {
	raw := s.data[start+1 : end-1]
	if *set == nil && *n < 8 && bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		for i := range *n {
			if bytes.Equal(s.data[spans[2*i]:spans[2*i+1]], raw) {
				return &DecodeError{Msg: "duplicate member " + strconv.Quote(string(raw))}
			}
		}
		spans[2**n], spans[2**n+1] = start+1, end-1
		*n++
		return nil
	}
	if *set == nil {
		*set = make(map[string]struct{}, 16)
		for i := range *n {
			(*set)[string(s.data[spans[2*i]:spans[2*i+1]])] = struct{}{}
		}
	}
	name, err := memberName(s.data[start:end])
	if err != nil {
		return s.fail("invalid object key")
	}
	if _, dup := (*set)[string(name)]; dup {
		return &DecodeError{Msg: "duplicate member " + strconv.Quote(string(name))}
	}
	(*set)[string(name)] = struct{}{}
	return nil
}

const maxDepth = 512

func (s *scanner) peek() byte {
	if s.i < len(s.data) {
		return s.data[s.i]
	}
	return 0
}

func (s *scanner) space() {
	for s.i < len(s.data) {
		switch s.data[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *scanner) fail(msg string) error {
	return &DecodeError{Msg: "invalid JSON: " + msg + " at offset " + strconv.Itoa(s.i)}
}

// end checks that only whitespace follows the value.
func (s *scanner) end() error {
	s.space()
	if s.i != len(s.data) {
		return s.fail("unexpected data after the value")
	}
	return nil
}

func (s *scanner) value(depth int) error {
	if depth > maxDepth {
		return s.fail("nested too deeply")
	}
	switch c := s.peek(); {
	case c == '"':
		return s.str()
	case c == '{' || c == '[':
		closing := byte('}')
		if c == '[' {
			closing = ']'
		}
		s.i++
		s.space()
		if s.peek() == closing {
			s.i++
			return nil
		}
		var spans [16]int // see uniqueName
		var names int
		var set map[string]struct{}
		for {
			s.space()
			if c == '{' {
				keyStart := s.i
				if err := s.str(); err != nil {
					return err
				}
				if s.unique {
					if err := s.uniqueName(keyStart, s.i, &spans, &names, &set); err != nil {
						return err
					}
				}
				s.space()
				if s.peek() != ':' {
					return s.fail("expected ':' after object key")
				}
				s.i++
				s.space()
			}
			if err := s.value(depth + 1); err != nil {
				return err
			}
			s.space()
			switch s.peek() {
			case ',':
				s.i++
			case closing:
				s.i++
				return nil
			default:
				return s.fail("expected ',' or '" + string(closing) + "'")
			}
		}
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	case c == '-' || (c >= '0' && c <= '9'):
		return s.number()
	}
	return s.fail("unexpected character")
}

func (s *scanner) literal(word string) error {
	if !bytes.HasPrefix(s.data[s.i:], []byte(word)) {
		return s.fail("invalid literal")
	}
	s.i += len(word)
	return nil
}

func (s *scanner) str() error {
	if s.peek() != '"' {
		return s.fail("expected a string")
	}
	s.i++
	for s.i < len(s.data) {
		c := s.data[s.i]
		switch {
		case c == '"':
			s.i++
			return nil
		case c == '\\':
			if s.i+1 >= len(s.data) {
				return s.fail("unterminated string")
			}
			switch s.data[s.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.i += 2
			case 'u':
				if s.i+6 > len(s.data) {
					return s.fail("invalid \\u escape")
				}
				for _, h := range s.data[s.i+2 : s.i+6] {
					if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
						return s.fail("invalid \\u escape")
					}
				}
				s.i += 6
			default:
				return s.fail("invalid escape")
			}
		case c < 0x20:
			return s.fail("control character in string")
		default:
			s.i++
		}
	}
	return s.fail("unterminated string")
}

func (s *scanner) number() error {
	start := s.i
	if s.peek() == '-' {
		s.i++
	}
	digits := func() int {
		n := 0
		for s.i < len(s.data) && s.data[s.i] >= '0' && s.data[s.i] <= '9' {
			s.i++
			n++
		}
		return n
	}
	if s.peek() == '0' {
		s.i++
	} else if digits() == 0 {
		return s.fail("invalid number")
	}
	if s.peek() == '.' {
		s.i++
		if digits() == 0 {
			return s.fail("invalid number")
		}
	}
	if c := s.peek(); c == 'e' || c == 'E' {
		s.i++
		if c := s.peek(); c == '+' || c == '-' {
			s.i++
		}
		if digits() == 0 {
			return s.fail("invalid number")
		}
	}
	if s.i == start {
		return s.fail("invalid number")
	}
	return nil
}

// stringElement is str for an array element or map value the schema does
// not let be null: null is refused, where encoding/json (and str, for a
// member: required refuses null before it) would read it as "".
func stringElement(data []byte) (string, error) {
	if isNull(data) {
		return "", &DecodeError{Msg: "expected a string, got null"}
	}
	return str(data)
}

// str decodes a JSON string, without reflection when it has no escapes.
func str(data []byte) (string, error) {
	if len(data) >= 2 && data[0] == '"' && data[len(data)-1] == '"' {
		inner := data[1 : len(data)-1]
		simple := true
		for _, c := range inner {
			if c == '\\' || c == '"' || c < 0x20 {
				simple = false
				break
			}
		}
		if simple {
			return string(inner), nil
		}
	}
	var s string
	err := json.Unmarshal(data, &s)
	return s, err
}

// decodeParams decodes the params of a request as the request's decoder
// does: absent params are refused when required, null params when the
// schema does not let them be null; otherwise absent or null params are
// empty params.
func decodeParams[T any](raw json.RawMessage, isRequired, mayBeNull bool) (*T, error) {
	switch {
	case raw == nil && isRequired:
		return nil, &DecodeError{Path: "params", Msg: "missing required member"}
	case isNull(raw) && !mayBeNull:
		return nil, &DecodeError{Path: "params", Msg: "must not be null"}
	case raw == nil || isNull(raw):
		return new(T), nil
	}
	p := new(T)
	if err := json.Unmarshal(raw, p); err != nil {
		return nil, within("params", err)
	}
	return p, nil
}

// decodeResult decodes the result of a request.
func decodeResult[T any](raw json.RawMessage) (*T, error) {
	r := new(T)
	if err := json.Unmarshal(raw, r); err != nil {
		return nil, within("result", err)
	}
	return r, nil
}

// via decodes a struct with its own UnmarshalJSON, skipping the validation
// pass of json.Unmarshal: split checks the JSON as it reads it.
func via[T any, P interface {
	*T
	json.Unmarshaler
}](data []byte) (T, error) {
	var v T
	err := P(&v).UnmarshalJSON(data)
	return v, err
}

// viaPointer is via for an optional struct member, kept as a pointer; JSON
// null gives nil.
func viaPointer[T any, P interface {
	*T
	json.Unmarshaler
}](data []byte) (*T, error) {
	if isNull(data) {
		return nil, nil
	}
	v := new(T)
	if err := P(v).UnmarshalJSON(data); err != nil {
		return nil, err
	}
	return v, nil
}

// rawObject keeps a JSON object as raw text (a copy: data may be reused).
func rawObject(data []byte) (json.RawMessage, error) {
	if jsonKind(data) != 'o' {
		return nil, &DecodeError{Msg: "expected an object, got " + truncate(data)}
	}
	if err := uniqueMembers(data); err != nil {
		return nil, err
	}
	return append(json.RawMessage(nil), data...), nil
}

// rawValue keeps any JSON value as raw text (a copy: data may be reused).
func rawValue(data []byte) (json.RawMessage, error) {
	if !json.Valid(data) {
		return nil, &DecodeError{Msg: "invalid JSON"}
	}
	if err := uniqueMembers(data); err != nil {
		return nil, err
	}
	return append(json.RawMessage(nil), data...), nil
}

// checkRaw refuses to encode a raw member that the schema would refuse: a
// missing required one, invalid JSON, or a value of the wrong kind (kind as
// jsonKind, 0 for any).
func checkRaw(raw json.RawMessage, name string, kind byte, isRequired bool) error {
	switch {
	case raw == nil && isRequired:
		return &DecodeError{Path: name, Msg: "missing required member"}
	case raw == nil:
		return nil
	case !json.Valid(raw):
		return &DecodeError{Path: name, Msg: "invalid JSON"}
	case kind != 0 && jsonKind(raw) != kind:
		return &DecodeError{Path: name, Msg: "expected an object, got " + truncate(raw)}
	}
	return nil
}

// checkOneOf refuses a string outside an enum: an empty one stands for an
// absent member unless the member is present (a required member, or an
// optional one that came on the wire, where "" must be listed).
func checkOneOf[S ~string](value S, name string, isPresent bool, allowed ...string) error {
	if (value == "" && !isPresent) || slices.Contains(allowed, string(value)) {
		return nil
	}
	return &DecodeError{Path: name, Msg: fmt.Sprintf("%q is not one of %q", string(value), allowed)}
}

// checkOneOfOptional is checkOneOf for a member that may be null (a nil
// pointer); a value that is present must be one of allowed, "" included.
func checkOneOfOptional[S ~string](value *S, name string, allowed ...string) error {
	if value == nil {
		return nil
	}
	return checkOneOf(*value, name, true, allowed...)
}

// rule refuses a value its schema does not allow; the error's path is
// relative to the value ("[2]", "k"), and "" for the value itself.
type rule[T any] func(T) error

// enumRule allows the strings listed.
func enumRule(allowed ...string) rule[string] {
	return func(v string) error { return checkOneOf(v, "", true, allowed...) }
}

// literalRule allows the values whose JSON is one of the literals.
func literalRule[T any](literals ...string) rule[T] {
	return func(v T) error { return checkLiteral(v, "", literals...) }
}

// boundsRule allows the numbers within bounds.
func boundsRule[N ~int64 | ~float64](b bounds) rule[N] {
	return func(v N) error { return checkBounds(v, "", b) }
}

// optionalRule allows null (nil) and the values r allows: the rule of an
// array element or map value that may be null.
func optionalRule[T any](r rule[T]) rule[*T] {
	return func(v *T) error {
		if v == nil {
			return nil
		}
		return r(*v)
	}
}

// bothRules allows what both rules allow.
func bothRules[T any](a, b rule[T]) rule[T] {
	return func(v T) error {
		if err := a(v); err != nil {
			return err
		}
		return b(v)
	}
}

// eachRule applies a rule to every element of a slice, naming the first
// refused one by its index.
func eachRule[T any](r rule[T]) rule[[]T] {
	return func(values []T) error {
		for i, v := range values {
			if err := r(v); err != nil {
				return within("["+strconv.Itoa(i)+"]", err)
			}
		}
		return nil
	}
}

// valuesRule applies a rule to every value of a map, in key order, naming
// the first refused one by its key.
func valuesRule[T any](r rule[T]) rule[map[string]T] {
	return func(values map[string]T) error {
		keys := make([]string, 0, len(values))
		for k := range values {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if err := r(values[k]); err != nil {
				return within(k, err)
			}
		}
		return nil
	}
}

// checkRule applies a rule to the value of a member.
func checkRule[T any](value T, name string, r rule[T]) error {
	if err := r(value); err != nil {
		return within(name, err)
	}
	return nil
}

// checkedBy decodes with dec, then refuses what the rule refuses.
func checkedBy[T any](dec decoder[T], r rule[T]) decoder[T] {
	return func(data []byte) (T, error) {
		v, err := dec(data)
		if err == nil {
			err = r(v)
		}
		return v, err
	}
}

// bounds are a number's minimum and maximum, when its schema gives them.
type bounds struct {
	min, max       float64
	hasMin, hasMax bool
}

// checkBounds refuses a number outside its bounds. An integer is compared
// exactly, not rounded to a float64 first (which would let 2^62-1 meet a
// minimum of 2^62).
func checkBounds[N ~int64 | ~float64](value N, name string, b bounds) error {
	if !isInteger[N]() {
		v := float64(value)
		switch {
		case b.hasMin && v < b.min:
			return &DecodeError{Path: name, Msg: fmt.Sprintf("%v is below the minimum %v", v, b.min)}
		case b.hasMax && v > b.max:
			return &DecodeError{Path: name, Msg: fmt.Sprintf("%v is above the maximum %v", v, b.max)}
		}
		return nil
	}
	v := int64(value)
	switch {
	case b.hasMin && intBelow(v, b.min):
		return &DecodeError{Path: name, Msg: fmt.Sprintf("%d is below the minimum %v", v, b.min)}
	case b.hasMax && intAbove(v, b.max):
		return &DecodeError{Path: name, Msg: fmt.Sprintf("%d is above the maximum %v", v, b.max)}
	}
	return nil
}

// isInteger reports whether N is an integer type (halving 1 leaves 0).
func isInteger[N ~int64 | ~float64]() bool {
	one := N(1)
	return one/2 == 0
}

// intBelow reports whether v < bound, exactly. A bound within the int64
// range (-2^63 ≤ bound < 2^63) has a ceiling that is an int64, and an
// integer is below the bound exactly when it is below that ceiling.
func intBelow(v int64, bound float64) bool {
	switch {
	case bound >= 0x1p63:
		return true
	case bound < -0x1p63:
		return false
	}
	return v < int64(math.Ceil(bound))
}

// intAbove reports whether v > bound, exactly (see intBelow).
func intAbove(v int64, bound float64) bool {
	switch {
	case bound >= 0x1p63:
		return false
	case bound < -0x1p63:
		return true
	}
	return v > int64(math.Floor(bound))
}

// checkBoundsOptional is checkBounds for an optional number.
func checkBoundsOptional[N ~int64 | ~float64](value *N, name string, b bounds) error {
	if value == nil {
		return nil
	}
	return checkBounds(*value, name, b)
}

// check records the error of a value check while an object is decoded.
func (fs *fields) check(err error) {
	if fs.err == nil && err != nil {
		fs.err = err
	}
}

// addMember encodes value under name into members, unless the member is
// optional and value is its zero value.
func addMember(members map[string]json.RawMessage, name string, value any, optional bool) error {
	if optional && reflect.ValueOf(value).IsZero() {
		return nil
	}
	raw, err := json.Marshal(value)
	if err != nil {
		return err
	}
	members[name] = raw
	return nil
}
