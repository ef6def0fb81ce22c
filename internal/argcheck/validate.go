// Package argcheck is the run-time half of typed tools: it compiles a tool's
// JSON Schema once and, on every call, parses the arguments once, validates
// that tree and binds exactly that tree to the tool's Go struct. Schemas
// themselves come from the build (`mcpgen tools`) or from package argschema.
package argcheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync/atomic"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// Validator checks raw JSON arguments against one compiled schema. It is safe
// for concurrent use.
type Validator struct {
	native *nativeSchema // the schema, when it is in the native subset
	full   FullSchema    // else the schema compiled by the full validator
	shape  *shape        // defaults and null-means-absent; nil when there are none
}

// Compile compiles schema (JSON Schema 2020-12 unless it says otherwise) once.
// Format assertions are on (date-time, date, time, email, uri, uuid, ipv4,
// ipv6, hostname, …; unknown formats are ignored), and so are content
// assertions: a []byte field's "contentEncoding": "base64" rejects a value
// that is not base64, naming the field. A schema of the native subset
// (everything `mcpgen tools` and argschema derive) is compiled natively;
// any other needs the full validator linked (package fullschema), or
// Compile fails naming the keyword, its pointer and the import to add.
func Compile(schema json.RawMessage) (*Validator, error) {
	return compile(schema, true)
}

// parseSchema reads a schema as jsonschema.UnmarshalJSON does (numbers
// as json.Number, a repeated member name keeps the last value), with the
// fast parser when no member name repeats.
func parseSchema(schema []byte) (any, error) {
	if doc, perr := jsonscan.Tree(jsonscan.TrimSpace(schema), jsonscan.MaxNesting); perr == nil {
		return doc, nil
	}
	dec := json.NewDecoder(bytes.NewReader(schema))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("invalid character after top-level value")
	}
	return doc, nil
}

// compile is Compile; native false always compiles with the full
// validator (the differential tests' reference).
func compile(schema json.RawMessage, native bool) (*Validator, error) {
	doc, err := parseSchema(schema)
	if err != nil {
		return nil, fmt.Errorf("argschema: schema is not valid JSON: %w", err)
	}
	if err := schemaNumberError(doc); err != nil {
		return nil, err
	}
	sh := shapeOf(doc)
	prepareDefaults(sh)
	var outside error = errors.New("the native checker was not asked")
	if native {
		n, err := compileNative(doc)
		if err == nil {
			return &Validator{native: n, shape: sh}, nil
		}
		outside = err
	}
	compileFull := fullCompiler.Load()
	if compileFull == nil {
		return nil, fmt.Errorf("argschema: schema %w; to validate it, link the full JSON Schema validator: import _ %q", outside, FullImport)
	}
	full, err := (*compileFull)(doc)
	if err != nil {
		return nil, err
	}
	return &Validator{full: full, shape: sh}, nil
}

// Validate parses args, treats a null optional property as absent, applies
// schema defaults to absent properties, validates the result and returns it
// as JSON. Absent (empty) or null args are treated as {}. When nothing had
// to change, args is returned as is (without surrounding whitespace). A
// failure is a [*ValidationError].
func (v *Validator) Validate(args json.RawMessage) (json.RawMessage, error) {
	t, err := parseArgs(args)
	if err != nil {
		return nil, err
	}
	defer releaseArgs(t)
	return v.validateParsed(t)
}

// ValidateRead is Validate, showing read the arguments' one parse before
// any verdict: read(t) first, t nil when they do not parse (whose refusal
// then comes after read's). An error of read is ValidateRead's result,
// with nothing validated. t is only lent for the call.
func (v *Validator) ValidateRead(args json.RawMessage, read func(t *jsonscan.Tape) error) (json.RawMessage, error) {
	t, err := parseArgs(args)
	if err != nil {
		if rerr := read(nil); rerr != nil {
			return nil, rerr
		}
		return nil, err
	}
	defer releaseArgs(t)
	if rerr := read(t); rerr != nil {
		return nil, rerr
	}
	return v.validateParsed(t)
}

// validateParsed is Validate on the arguments' one parse t.
func (v *Validator) validateParsed(t *jsonscan.Tape) (json.RawMessage, error) {
	doc, err := v.checkTape(t)
	if err != nil {
		return nil, err
	}
	if doc == nil {
		return t.Raw(0), nil
	}
	out, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("argschema: re-encoding arguments: %w", err)
	}
	return out, nil
}

// Decoder validates a tool's arguments and binds them to T, the tool's
// argument type. It is safe for concurrent use.
type Decoder[T any] struct{ d *TypeDecoder }

// NewDecoder returns the Decoder of T against v.
func NewDecoder[T any](v *Validator) *Decoder[T] {
	return &Decoder[T]{d: NewTypeDecoder(reflect.TypeFor[T](), v)}
}

// Decode is [TypeDecoder.DecodeInto] for a T.
func (d *Decoder[T]) Decode(args json.RawMessage) (T, error) {
	var in T
	err := d.d.DecodeInto(args, &in)
	return in, err
}

// TypeDecoder is [Decoder] for a type known at run time: its code is
// compiled once, not once per argument type, which keeps the bindings of
// many tools cheap to compile. It is safe for concurrent use.
type TypeDecoder struct {
	v *Validator
	t reflect.Type
	// root is what decoding needs of t itself, found on the first decode
	// (rootOf) and kept: each of the per-type caches it is read from is a
	// sync.Map, whose lookups cost more than a call's other bookkeeping.
	root atomic.Pointer[rootType]
}

// rootType is a TypeDecoder's type's plainType and decode fields, and
// whether decoding into it may run code of its own (hasUserCode).
type rootType struct {
	t        reflect.Type
	plain    bool
	fields   *structFields // nil unless t is a struct
	userCode bool
	// shape is the validator's shape, and byProp the decode field of each
	// of its properties (nil for none), by the property's index: the
	// root object's members are matched to fields by the index eachMember
	// found, without a second lookup by name. nil unless t is a struct
	// and the shape has properties.
	shape  *shape
	byProp []*decodeField
}

// rootOf is d's rootType.
func (d *TypeDecoder) rootOf() *rootType {
	if r := d.root.Load(); r != nil {
		return r
	}
	r := &rootType{t: d.t, plain: plainType(d.t), userCode: hasUserCode(d.t)}
	if d.t.Kind() == reflect.Struct {
		r.fields = fieldsOf(d.t)
		if sh := d.v.shape; sh != nil && len(sh.props) > 0 {
			r.shape, r.byProp = sh, make([]*decodeField, len(sh.props))
			for k := range sh.props {
				r.byProp[k] = r.fields.field(sh.props[k].name)
			}
		}
	}
	d.root.Store(r)
	return r
}

// NewTypeDecoder returns the decoder of arguments of type t against v.
func NewTypeDecoder(t reflect.Type, v *Validator) *TypeDecoder {
	return &TypeDecoder{v: v, t: t}
}

// DecodeInto parses args once (a jsonscan.Tape), validates them (as
// [Validator.Validate]: a null optional property is absent, defaults
// apply) and fills *into, a pointer to the decoder's type, from exactly
// that parse: members are matched to fields by their exact JSON names
// (never by case folding; undeclared members are ignored, or rejected
// earlier by a schema with "additionalProperties": false), integral numbers
// fill integer fields, and otherwise the rules are json.Unmarshal's
// (tapeDecoder). Nothing is re-encoded or parsed again, except a member
// value that both its property's shape and additionalProperties' change
// (shaped on a tree, as Validate does).
func (d *TypeDecoder) DecodeInto(args json.RawMessage, into any) error {
	return d.DecodeOwnedInto(args, 0, into)
}

// DecodeOwnedInto is DecodeInto for args that are part of a buffer of
// owner bytes belonging to their message alone (jsonscan.Tape.SetOwner):
// a string argument that is most of it is decoded as a view of it, not a
// copy. owner 0 is DecodeInto.
func (d *TypeDecoder) DecodeOwnedInto(args json.RawMessage, owner int, into any) error {
	return d.DecodeFrom(args, Source{Owner: owner}, into)
}

// Source is what a transport knows of the arguments it hands a decoder:
// Owner as DecodeOwnedInto's owner, and Spans their large arrays as the
// check of the message they came in found them (jsonscan.Tape.Spans), so
// that the decoder need not look for them (see decodeLarge).
type Source struct {
	Owner int
	Spans jsonscan.Spans
	// Reader, when set, is shown the arguments as the lazy path reads them
	// (LazyReader), so that what else needs every byte of them (a multi
	// round-trip request's identity) need not parse them again.
	Reader LazyReader
}

// LazyReader sees one DecodeFrom's reading of large arguments: Start the
// tape of jsonscan.ParseLazy (its lazy arrays not read), then each lazy
// array the first time it is read, in the order read (ArrayStart, every
// element in order, each on its window's tape, which the next window
// reuses, then ArrayEnd; once the reading of one is given up, which has no
// ArrayEnd, nothing more is shown), and Done once, before DecodeFrom
// returns and before any code of the argument type runs (an
// Unmarshaler), whatever path the arguments took: complete when every
// lazy array was read through exactly once and the lazy path decided the
// verdict; false when nothing or only part was shown (arguments parsed
// whole, a reading given up). An error of Done is DecodeFrom's result,
// with nothing decoded; nil lets the decoding go on to its own result.
type LazyReader interface {
	Start(t *jsonscan.Tape)
	ArrayStart(i int)
	Element(wt *jsonscan.Tape, e int)
	ArrayEnd(i int)
	Done(complete bool) error
}

// readerDone calls src.Reader's Done once (done records it); nil without
// a reader (no allocation then: it escapes with the lazy run).
type readerDone struct {
	r    LazyReader
	done bool
}

func (d *readerDone) finish(complete bool) error {
	if d == nil || d.done {
		return nil
	}
	d.done = true
	return d.r.Done(complete)
}

// DecodeFrom is DecodeInto for arguments from src.
func (d *TypeDecoder) DecodeFrom(args json.RawMessage, src Source, into any) error {
	rv := reflect.ValueOf(into)
	if rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Type().Elem() != d.t {
		return fmt.Errorf("argcheck: DecodeInto needs a non-nil *%s, got %T", d.t, into)
	}
	var rd *readerDone
	if src.Reader != nil {
		rd = &readerDone{r: src.Reader}
	}
	if done, err := d.decodeLarge(args, src, rv, rd); done {
		return err
	}
	if err := rd.finish(false); err != nil {
		return err
	}
	t, err := parseArgs(args)
	if err != nil {
		return err
	}
	defer releaseArgs(t)
	if t != emptyTape {
		t.SetOwner(src.Owner)
	}
	return d.decodeParsed(t, rv)
}

// decodeParsed is DecodeInto on the arguments' one parse t.
func (d *TypeDecoder) decodeParsed(t *jsonscan.Tape, rv reflect.Value) error {
	if err := d.v.validateTape(t); err != nil {
		return err
	}
	floats, err := decodeTape(t, 0, d.v.shape, rv.Elem(), d.rootOf())
	if err != nil {
		return decodeProblem(err)
	}
	if floats != nil {
		if err := d.v.recheckFloats(t, floats); err != nil {
			rv.Elem().SetZero() // refused: nothing decoded, as for any refusal of the schema
			return err
		}
	}
	return nil
}

// decodeProblem turns a decoder error into a ValidationError naming the
// member by its JSON pointer (a schema the Go type does not match, e.g. a
// hand-written one): the pointer the decoder gave it (array indexes, map
// member names and all), else the Field of an encoding/json type error.
func decodeProblem(err error) error {
	var ke *keyError
	if errors.As(err, &ke) {
		return &ValidationError{Problems: []Problem{ke.problem()}}
	}
	p := Problem{Keyword: "type", Message: err.Error()}
	var pe *pointedError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &pe):
		p.Pointer = pe.pointer
	case errors.As(err, &te) && te.Field != "":
		// encoding/json's own error names the struct fields only.
		p.Pointer = "/" + strings.ReplaceAll(te.Field, ".", "/")
	}
	if errors.As(err, &te) {
		p.Message = fmt.Sprintf("cannot hold %s in a Go %s", te.Value, te.Type)
	}
	return &ValidationError{Problems: []Problem{p}}
}
