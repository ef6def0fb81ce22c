package argcheck

import (
	"encoding"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unsafe"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// tapeDecoder fills a Go value from a Tape: the one parse the arguments
// were validated on. It follows json.Unmarshal's rules (the value a tool
// gets is what json.Unmarshal of the validated arguments gave before)
// with the differences the schema needs: members match fields by their
// exact names only, integral numbers ("3.0", "1e2") fill integer fields,
// and the shape's rules (a null optional property is absent; an absent
// property with a default gets it) apply on the way, without building or
// re-encoding a tree. As encoding/json, a value of the wrong type is
// remembered (the first one wins) and decoding goes on; an error of an
// Unmarshaler ends it.
type tapeDecoder struct {
	saved error
	path  fieldPath // struct field names down to the value, for errors
	// alias is set while store runs for a string literal whose text may be
	// a view of the message (jsonscan.Tape.Aliasable): a large argument is
	// then not copied.
	alias bool
	// root is the decoded type's rootType, whose fields the root object
	// uses without a lookup in fieldsOf's cache.
	root *rootType
	// lazy is set when the tape is one of jsonscan.ParseLazy: its lazy
	// arrays are read a window at a time (lazyargs.go). abort is
	// errLazyFallback from where no error can be returned (anyArray).
	lazy  *lazyRun
	abort error
	// numT and numNode are the number node literal is storing, whose
	// float conversions are noted in floats when the float does not read
	// back as the literal (floatcheck.go).
	numT    *jsonscan.Tape
	numNode int
	floats  []floatNote
}

// fail records an error that ends the decoding where none can be returned.
func (d *tapeDecoder) fail(err error) {
	if d.abort == nil {
		d.abort = err
	}
}

// str is a string literal's text as a Go string: a view of it when alias
// allows, else a copy.
func (d *tapeDecoder) str(text []byte) string {
	if d.alias {
		return jsonscan.AliasString(text)
	}
	return string(text)
}

// decodeTape fills v (settable, of root's type) from node i of t under
// sh; floats are the numbers whose floats do not read back as their
// literals, to be checked again (floatcheck.go).
func decodeTape(t *jsonscan.Tape, i int, sh *shape, v reflect.Value, root *rootType) (floats []floatNote, err error) {
	d := tapeDecoder{root: root}
	if err := d.value(t, i, sh, v, root.plain); err != nil {
		return nil, d.context(err)
	}
	return d.floats, d.saved
}

// save remembers err, the first error about a value decoding goes on
// after, with the value's JSON pointer.
func (d *tapeDecoder) save(err error) {
	if d.saved == nil {
		d.saved = &pointedError{err: d.context(err), pointer: d.path.pointer()}
	}
}

// context adds the field path to a type error, as encoding/json does.
func (d *tapeDecoder) context(err error) error {
	if te, ok := err.(*json.UnmarshalTypeError); ok && d.path.depth > 0 {
		stack := d.path.names()
		if te.Field != "" {
			stack = append(stack[:len(stack):len(stack)], te.Field)
		}
		te.Field = strings.Join(stack, ".")
	}
	return err
}

func typeError(what string, t reflect.Type) error {
	return &json.UnmarshalTypeError{Value: what, Type: t}
}

// value decodes node i into v; an invalid v skips the value. plain says
// v's type is plainType: indirect would hand v back as it is.
func (d *tapeDecoder) value(t *jsonscan.Tape, i int, sh *shape, v reflect.Value, plain bool) error {
	if !v.IsValid() {
		return nil
	}
	switch t.Kind(i) {
	case jsonscan.KindObject:
		return d.object(t, i, sh, v, plain)
	case jsonscan.KindArray:
		return d.array(t, i, sh, v, plain)
	}
	return d.literal(t, i, v, plain)
}

// indirectUnless is indirect, skipped for a plain type (plainType), whose
// value it would return unchanged.
func indirectUnless(plain bool, v reflect.Value, decodingNull bool) (json.Unmarshaler, encoding.TextUnmarshaler, reflect.Value) {
	if plain {
		return nil, nil, v
	}
	return indirect(v, decodingNull)
}

// indirect is encoding/json's: it walks down v allocating pointers until
// a non-pointer or an Unmarshaler; decodingNull stops at the first
// settable pointer (which null then sets to nil).
func indirect(v reflect.Value, decodingNull bool) (json.Unmarshaler, encoding.TextUnmarshaler, reflect.Value) {
	v0 := v
	haveAddr := false
	if v.Kind() != reflect.Pointer && v.Type().Name() != "" && v.CanAddr() {
		haveAddr = true
		v = v.Addr()
	}
	for {
		if v.Kind() == reflect.Interface && !v.IsNil() {
			e := v.Elem()
			if e.Kind() == reflect.Pointer && !e.IsNil() && (!decodingNull || e.Elem().Kind() == reflect.Pointer) {
				haveAddr = false
				v = e
				continue
			}
		}
		if v.Kind() != reflect.Pointer {
			break
		}
		if decodingNull && v.CanSet() {
			break
		}
		if v.Elem().Kind() == reflect.Interface && v.Elem().Elem().Equal(v) {
			v = v.Elem()
			break
		}
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		if v.Type().NumMethod() > 0 && v.CanInterface() {
			if u, ok := reflect.TypeAssert[json.Unmarshaler](v); ok {
				return u, nil, reflect.Value{}
			}
			if !decodingNull {
				if u, ok := reflect.TypeAssert[encoding.TextUnmarshaler](v); ok {
					return nil, u, reflect.Value{}
				}
			}
		}
		if haveAddr {
			v = v0
			haveAddr = false
		} else {
			v = v.Elem()
		}
	}
	return nil, nil, v
}

// rawFor is the bytes an Unmarshaler gets for node i: its own bytes, or,
// when the shape changes something inside it, the shaped value encoded.
func rawFor(t *jsonscan.Tape, i int, sh *shape) ([]byte, error) {
	if !sh.changes(t, i, 0) {
		return t.Raw(i), nil
	}
	v := t.Value(i)
	sh.apply(v)
	return json.Marshal(v)
}

func (d *tapeDecoder) object(t *jsonscan.Tape, i int, sh *shape, v reflect.Value, plain bool) error {
	u, ut, pv := indirectUnless(plain, v, false)
	if u != nil && d.lazy != nil && t.LazyWithin(i) {
		raw, err := d.lazy.lazyRaw(t, i, sh)
		if err != nil {
			return err
		}
		return u.UnmarshalJSON(raw)
	}
	if u != nil {
		raw, err := rawFor(t, i, sh)
		if err != nil {
			return err
		}
		return u.UnmarshalJSON(raw)
	}
	if ut != nil {
		d.save(typeError("object", v.Type()))
		return nil
	}
	v = pv
	typ := v.Type()
	if v.Kind() == reflect.Interface && v.NumMethod() == 0 {
		v.Set(reflect.ValueOf(d.anyObject(t, i, sh)))
		return nil
	}
	switch v.Kind() {
	case reflect.Map:
		switch typ.Key().Kind() {
		case reflect.String,
			reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		default:
			if !reflect.PointerTo(typ.Key()).Implements(textUnmarshaler) {
				d.save(typeError("object", typ))
				return nil
			}
		}
		if v.IsNil() {
			v.Set(reflect.MakeMap(typ))
		}
		keys := newKeySet(typ.Key())
		return d.eachMember(t, i, sh, func(mt *jsonscan.Tape, name, val int, child *shape, _ int) error {
			elem := reflect.New(typ.Elem()).Elem()
			depth := d.path.depth
			d.path.pushMember(mt, name)
			err := d.pointed(d.value(mt, val, child, elem, false))
			d.path.depth = depth
			if err != nil {
				return err
			}
			key, err := d.mapKey(mt, name, typ.Key())
			if err != nil || !key.IsValid() {
				return err
			}
			if !keys.add(key) {
				d.save(d.keyProblem(mt.Text(name), "names the same "+typ.Key().String()+" key as another member"))
				return nil
			}
			v.SetMapIndex(key, elem)
			return nil
		})
	case reflect.Struct:
		fields := d.root.fields
		var byProp []*decodeField // the fields of sh's properties, by index
		if typ != d.root.t || fields == nil {
			fields = fieldsOf(typ)
		} else if sh == d.root.shape {
			byProp = d.root.byProp
		}
		var base unsafe.Pointer // v's address when its fields may be set directly
		if v.CanSet() {
			base = v.Addr().UnsafePointer()
		}
		return d.eachMember(t, i, sh, func(mt *jsonscan.Tape, name, val int, child *shape, prop int) error {
			var f *decodeField
			if prop >= 0 && byProp != nil {
				f = byProp[prop]
			} else if mt.Escaped(name) {
				f = fields.field(mt.Text(name))
			} else {
				f = fields.fieldBytes(mt.Contents(name))
			}
			if f == nil {
				return nil // not a field: ignored (the schema may reject it)
			}
			if f.direct != directNone && base != nil && d.storeDirect(mt, val, f, base) {
				return nil
			}
			depth := d.path.depth
			defer func() { d.path.depth = depth }()
			sub := v
			for k, ind := range f.index {
				if sub.Kind() == reflect.Pointer {
					if sub.IsNil() {
						if !sub.CanSet() {
							d.save(fmt.Errorf("json: cannot set embedded pointer to unexported struct: %v", sub.Type().Elem()))
							return nil
						}
						sub.Set(reflect.New(sub.Type().Elem()))
					}
					sub = sub.Elem()
				}
				if k < len(f.index)-1 {
					d.path.pushEmbedded(sub.Type().Field(ind).Name)
				}
				sub = sub.Field(ind)
			}
			d.path.push(f.name)
			if f.quoted {
				return d.pointed(d.quoted(mt, val, sub))
			}
			return d.pointed(d.value(mt, val, child, sub, f.plain))
		})
	}
	d.save(typeError("object", typ))
	return nil
}

// quoted decodes a field with the ",string" option: its value is a JSON
// string holding the literal.
func (d *tapeDecoder) quoted(t *jsonscan.Tape, i int, v reflect.Value) error {
	switch t.Kind(i) {
	case jsonscan.KindNull:
		return d.store([]byte("null"), nil, v, false)
	case jsonscan.KindString:
		item := t.AppendText(nil, i)
		var text []byte // nil: item is not a string literal
		if len(item) > 0 && item[0] == '"' {
			if s, ok := jsonscan.String(item); ok {
				text = append(make([]byte, 0, len(s)), s...)
			}
		}
		return d.store(item, text, v, true)
	}
	d.save(fmt.Errorf("json: invalid use of ,string struct tag, trying to unmarshal unquoted value into %v", v.Type()))
	return nil
}

func (d *tapeDecoder) array(t *jsonscan.Tape, i int, sh *shape, v reflect.Value, plain bool) error {
	u, ut, pv := indirectUnless(plain, v, false)
	if u != nil && d.lazy != nil && t.LazyWithin(i) {
		raw, err := d.lazy.lazyRaw(t, i, sh)
		if err != nil {
			return err
		}
		return u.UnmarshalJSON(raw)
	}
	if u != nil {
		raw, err := rawFor(t, i, sh)
		if err != nil {
			return err
		}
		return u.UnmarshalJSON(raw)
	}
	if ut != nil {
		d.save(typeError("array", v.Type()))
		return nil
	}
	v = pv
	var items *shape
	if sh != nil {
		items = sh.items
	}
	if d.lazy != nil && t.Lazy(i) {
		return d.lazyArray(t, i, items, v)
	}
	switch v.Kind() {
	case reflect.Interface:
		if v.NumMethod() == 0 {
			v.Set(reflect.ValueOf(d.anyArray(t, i, items)))
			return nil
		}
		d.save(typeError("array", v.Type()))
		return nil
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), t.Len(i), t.Len(i)))
	case reflect.Array:
	default:
		d.save(typeError("array", v.Type()))
		return nil
	}
	k, plainElem := 0, plainType(v.Type().Elem())
	depth := d.path.depth
	for e := t.FirstElement(i); e >= 0; e = t.NextElement(i, e) {
		if k < v.Len() {
			d.path.pushIndex(k)
			err := d.pointed(d.value(t, e, items, v.Index(k), plainElem))
			d.path.depth = depth
			if err != nil {
				return err
			}
		}
		k++
	}
	return nil
}

// literal decodes a scalar node.
func (d *tapeDecoder) literal(t *jsonscan.Tape, i int, v reflect.Value, plain bool) error {
	var text []byte
	alias := false
	if t.Kind(i) == jsonscan.KindString {
		text = t.Contents(i)
		if t.Escaped(i) {
			text = t.AppendText(make([]byte, 0, len(text)), i)
		} else {
			alias = t.Aliasable(i)
		}
	} else {
		d.numT, d.numNode = t, i
	}
	d.alias = alias
	err := d.storeIn(plain, t.Raw(i), text, v, false)
	d.alias, d.numT = false, nil
	return err
}

var numberType = reflect.TypeFor[json.Number]()

// store is encoding/json's literalStore: item is the literal, text a
// string literal's unescaped contents (nil when item is not one). Integer kinds also take integral
// numbers written with a fraction or exponent.
func (d *tapeDecoder) store(item, text []byte, v reflect.Value, fromQuoted bool) error {
	return d.storeIn(false, item, text, v, fromQuoted)
}

// storeIn is store, with plain as value's.
func (d *tapeDecoder) storeIn(plain bool, item, text []byte, v reflect.Value, fromQuoted bool) error {
	invalidUse := func() error {
		return fmt.Errorf("json: invalid use of ,string struct tag, trying to unmarshal %q into %v", item, v.Type())
	}
	if len(item) == 0 {
		d.save(invalidUse())
		return nil
	}
	isNull := item[0] == 'n'
	u, ut, pv := indirectUnless(plain, v, isNull)
	if u != nil {
		return u.UnmarshalJSON(item)
	}
	if ut != nil {
		if item[0] != '"' {
			if fromQuoted {
				d.save(invalidUse())
				return nil
			}
			what := "number"
			switch item[0] {
			case 'n':
				what = "null"
			case 't', 'f':
				what = "bool"
			}
			d.save(typeError(what, v.Type()))
			return nil
		}
		if text == nil {
			return invalidUse() // a quoted value that is not a string literal
		}
		return ut.UnmarshalText(text)
	}
	v = pv
	switch c := item[0]; c {
	case 'n':
		if fromQuoted && string(item) != "null" {
			d.save(invalidUse())
			break
		}
		switch v.Kind() {
		case reflect.Interface, reflect.Pointer, reflect.Map, reflect.Slice:
			v.SetZero()
		}
	case 't', 'f':
		value := c == 't'
		if fromQuoted && string(item) != "true" && string(item) != "false" {
			d.save(invalidUse())
			break
		}
		switch v.Kind() {
		default:
			if fromQuoted {
				d.save(invalidUse())
			} else {
				d.save(typeError("bool", v.Type()))
			}
		case reflect.Bool:
			v.SetBool(value)
		case reflect.Interface:
			if v.NumMethod() == 0 {
				v.Set(reflect.ValueOf(value))
			} else {
				d.save(typeError("bool", v.Type()))
			}
		}
	case '"':
		if text == nil {
			return invalidUse() // a quoted value that is not a string literal
		}
		switch v.Kind() {
		default:
			d.save(typeError("string", v.Type()))
		case reflect.Slice:
			if v.Type().Elem().Kind() != reflect.Uint8 {
				d.save(typeError("string", v.Type()))
				break
			}
			b := make([]byte, base64.StdEncoding.DecodedLen(len(text)))
			n, err := base64.StdEncoding.Decode(b, text)
			if err != nil {
				d.save(err)
				break
			}
			v.SetBytes(b[:n])
		case reflect.String:
			s := d.str(text)
			if v.Type() == numberType && !validNumber(s) {
				return fmt.Errorf("json: invalid number literal, trying to unmarshal %q into Number", item)
			}
			v.SetString(s)
		case reflect.Interface:
			if v.NumMethod() == 0 {
				v.Set(reflect.ValueOf(d.str(text)))
			} else {
				d.save(typeError("string", v.Type()))
			}
		}
	default:
		if c != '-' && (c < '0' || c > '9') {
			return invalidUse()
		}
		s := string(item)
		switch v.Kind() {
		default:
			if v.Kind() == reflect.String && v.Type() == numberType {
				v.SetString(s)
				break
			}
			if fromQuoted {
				return invalidUse()
			}
			d.save(typeError("number", v.Type()))
		case reflect.Interface:
			f, err := strconv.ParseFloat(s, 64)
			if err != nil {
				d.save(typeError("number "+s, reflect.TypeFor[float64]()))
				break
			}
			if v.NumMethod() != 0 {
				d.save(typeError("number", v.Type()))
				break
			}
			if d.numT != nil && !plainFloat(s, f, 64) {
				d.noteFloat(d.numT, d.numNode, s, f, 64)
			}
			v.Set(reflect.ValueOf(f))
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			if !fromQuoted {
				s = integralText(s)
			}
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil || v.OverflowInt(n) {
				d.save(typeError("number "+s, v.Type()))
				break
			}
			v.SetInt(n)
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			if !fromQuoted {
				s = integralText(s)
			}
			n, err := strconv.ParseUint(s, 10, 64)
			if err != nil || v.OverflowUint(n) {
				d.save(typeError("number "+s, v.Type()))
				break
			}
			v.SetUint(n)
		case reflect.Float32, reflect.Float64:
			bits := v.Type().Bits()
			n, err := strconv.ParseFloat(s, bits)
			if err != nil || v.OverflowFloat(n) {
				d.save(typeError("number "+s, v.Type()))
				break
			}
			if d.numT != nil && !fromQuoted && !plainFloat(s, n, bits) {
				d.noteFloat(d.numT, d.numNode, s, n, bits)
			}
			v.SetFloat(n)
		}
	}
	return nil
}

// integralText is s in integer form when s is an integral number written
// with a fraction or exponent, else s.
func integralText(s string) string {
	if n, ok := integral(json.Number(s)); ok {
		return string(n)
	}
	return s
}

// validNumber reports whether s is a JSON number.
func validNumber(s string) bool {
	if s == "" || (s[0] != '-' && (s[0] < '0' || s[0] > '9')) || s[len(s)-1] < '0' || s[len(s)-1] > '9' {
		return false // a number starts with '-' or a digit and ends with a digit: no space around it
	}
	return jsonscan.Valid([]byte(s))
}

// anyObject builds the map encoding/json decodes an object into an empty
// interface: map[string]any, numbers float64.
func (d *tapeDecoder) anyObject(t *jsonscan.Tape, i int, sh *shape) map[string]any {
	m := make(map[string]any, t.Len(i))
	_ = d.eachMember(t, i, sh, func(mt *jsonscan.Tape, name, val int, child *shape, _ int) error {
		m[mt.Text(name)] = d.anyValue(mt, val, child)
		return nil
	})
	return m
}

func (d *tapeDecoder) anyArray(t *jsonscan.Tape, i int, items *shape) []any {
	a := make([]any, 0, t.Len(i))
	if d.lazy != nil && t.Lazy(i) {
		if err := d.lazy.elements(t, i, func(wt *jsonscan.Tape, e, _ int) error {
			a = append(a, d.anyValue(wt, e, items))
			return nil
		}); err != nil {
			d.fail(err)
		}
		return a
	}
	for e := t.FirstElement(i); e >= 0; e = t.NextElement(i, e) {
		a = append(a, d.anyValue(t, e, items))
	}
	return a
}

func (d *tapeDecoder) anyValue(t *jsonscan.Tape, i int, sh *shape) any {
	switch t.Kind(i) {
	case jsonscan.KindNull:
		return nil
	case jsonscan.KindFalse:
		return false
	case jsonscan.KindTrue:
		return true
	case jsonscan.KindString:
		return t.Text(i)
	case jsonscan.KindNumber:
		s := t.Number(i)
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			d.save(typeError("number "+s, reflect.TypeFor[float64]()))
			return nil
		}
		if !plainFloat(s, f, 64) {
			d.noteFloat(t, i, s, f, 64)
		}
		return f
	case jsonscan.KindArray:
		var items *shape
		if sh != nil {
			items = sh.items
		}
		return d.anyArray(t, i, items)
	}
	return d.anyObject(t, i, sh)
}
