package jsonenc

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"time"
)

// filler sets a value's fields from fuzz bytes, reaching what
// json.Unmarshal cannot produce: invalid UTF-8, NaN and infinities,
// interface values of any type (unsupported ones included), failing
// marshalers, shared and cyclic pointers, slices and maps.
type filler struct {
	data  []byte
	depth int
	// budget is how many more values may be set: it bounds what encoding
	// one cycle up to encoding/json's detection depth (1000) costs.
	budget int
	made   map[reflect.Type][]reflect.Value // pointers, slices and maps made so far
	// reused: one value made so far has been used again (shared or a
	// cycle); one at most, so encoding a cycle stays linear.
	reused bool
}

func (f *filler) canReuse(t reflect.Type) bool { return !f.reused && len(f.made[t]) > 0 }

// reuse returns a value of type t made before (canReuse).
func (f *filler) reuse(t reflect.Type, b byte) reflect.Value {
	f.reused = true
	return f.made[t][int(b)%len(f.made[t])]
}

func (f *filler) byte() byte {
	if len(f.data) == 0 {
		return 0
	}
	b := f.data[0]
	f.data = f.data[1:]
	return b
}

func (f *filler) uint64() uint64 {
	var b [8]byte
	n := copy(b[:], f.data)
	f.data = f.data[n:]
	return binary.LittleEndian.Uint64(b[:])
}

var trickyStrings = []string{
	"", "<", ">", "&amp;", "\u2028", "\u2029", "a\u2028b", "\x00", "\x1f", "\x7f", "\"\\", "\xff", "\xe2\x80",
	"\xe2\x80\xa8", "é", "日本", "\U0001F600", "\xed\xa0\x80", "1.5", "-0", "1e400", "1E+2", "-", "0", "01", ".5",
	"!", "!x", " { } ", "[1, 2]", "\"x\"", "null", "true", " \"<&>\" ", "{\"a\" : [ 1 , {}]}", "{", "\t\n", "\b\f\r\t\n",
}

var specialFloats = []float64{
	math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1e21, 1e-6, 1e-7, 9.999999e20, 1e20,
	123.456, -5e-324, math.MaxFloat64, math.SmallestNonzeroFloat64, 1.0 / 3, 100, 1e6, math.MaxFloat32, 1e-45,
}

// anyTypes are the dynamic types an interface field may be given.
var anyTypes = []reflect.Type{
	reflect.TypeFor[int](), reflect.TypeFor[string](), reflect.TypeFor[float64](), reflect.TypeFor[float32](),
	reflect.TypeFor[bool](), reflect.TypeFor[[]any](), reflect.TypeFor[map[string]any](), reflect.TypeFor[inner](),
	reflect.TypeFor[*inner](), reflect.TypeFor[rawMarshal](), reflect.TypeFor[*rawMarshal](), reflect.TypeFor[text](),
	reflect.TypeFor[ptrMarshal](), reflect.TypeFor[*ptrMarshal](), reflect.TypeFor[json.Number](),
	reflect.TypeFor[ptrText](), reflect.TypeFor[*ptrText](), reflect.TypeFor[chan int](), reflect.TypeFor[func()](),
	reflect.TypeFor[complex128](), reflect.TypeFor[map[text]int](), reflect.TypeFor[[]byte](), reflect.TypeFor[Named](),
	reflect.TypeFor[*node](), reflect.TypeFor[zeroer](), reflect.TypeFor[*ptrZeroer](), reflect.TypeFor[time.Duration](),
	reflect.TypeFor[time.Time](), reflect.TypeFor[time.Month](), reflect.TypeFor[*json.SyntaxError](),
	reflect.TypeFor[json.RawMessage](), reflect.TypeFor[conflict](), reflect.TypeFor[EmbedPtr](), reflect.TypeFor[error](),
	reflect.TypeFor[map[bool]int](), reflect.TypeFor[[2]any](), reflect.TypeFor[*any](), reflect.TypeFor[uint8](),
	reflect.TypeFor[map[int8]any](), reflect.TypeFor[[]ptrMarshal](), reflect.TypeFor[Bytes](),
}

var errorValues = []error{errors.New("boom"), &json.SyntaxError{Offset: 3}, &json.UnsupportedTypeError{}}

// fill sets v (settable) from the bytes.
func (f *filler) fill(v reflect.Value) {
	if f.depth > 8 || f.budget <= 0 {
		return
	}
	f.budget--
	f.depth++
	defer func() { f.depth-- }()
	t := v.Type()
	if t == reflect.TypeFor[time.Time]() {
		switch f.byte() % 4 {
		case 0:
		case 1:
			v.Set(reflect.ValueOf(time.Date(10000+int(f.byte()), 1, 1, 0, 0, 0, 0, time.UTC)))
		default:
			v.Set(reflect.ValueOf(time.Unix(int64(f.uint64()%(1<<36)), int64(f.byte())*1000).UTC()))
		}
		return
	}
	if t == reflect.TypeFor[error]() {
		if b := f.byte(); int(b) < len(errorValues) {
			v.Set(reflect.ValueOf(errorValues[b]))
		}
		return
	}
	switch t.Kind() {
	case reflect.Bool:
		v.SetBool(f.byte()&1 == 1)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if b := f.byte(); b < 128 {
			v.SetInt(int64(int8(b)) - 16)
		} else {
			v.SetInt(int64(f.uint64()))
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if b := f.byte(); b < 128 {
			v.SetUint(uint64(b))
		} else {
			v.SetUint(f.uint64())
		}
	case reflect.Float32, reflect.Float64:
		switch b := f.byte(); {
		case int(b) < len(specialFloats):
			v.SetFloat(specialFloats[b])
		case b < 128:
			v.SetFloat(float64(int8(b)) * math.Pow(10, float64(int8(f.byte())%40)))
		default:
			v.SetFloat(math.Float64frombits(f.uint64()))
		}
	case reflect.Complex64, reflect.Complex128:
		v.SetComplex(complex(float64(f.byte()), 1))
	case reflect.String:
		if b := f.byte(); int(b) < len(trickyStrings) {
			v.SetString(trickyStrings[b])
		} else {
			n := min(int(b&15), len(f.data))
			v.SetString(string(f.data[:n]))
			f.data = f.data[n:]
		}
	case reflect.Chan:
		if f.byte()&1 == 1 {
			v.Set(reflect.MakeChan(t, 0))
		}
	case reflect.Func:
		if f.byte()&1 == 1 {
			v.Set(reflect.MakeFunc(t, func([]reflect.Value) []reflect.Value { return nil }))
		}
	case reflect.Pointer:
		switch b := f.byte(); {
		case b%4 == 0:
		case b%4 == 1 && f.canReuse(t):
			v.Set(f.reuse(t, b/4))
		default:
			p := reflect.New(t.Elem())
			f.remember(p)
			f.fill(p.Elem())
			v.Set(p)
		}
	case reflect.Interface:
		b := f.byte()
		if b%5 == 0 {
			return
		}
		candidates := make([]reflect.Type, 0, len(anyTypes))
		for _, c := range anyTypes {
			if c.Implements(t) {
				candidates = append(candidates, c)
			}
		}
		if len(candidates) == 0 {
			return
		}
		c := candidates[int(f.byte())%len(candidates)]
		e := reflect.New(c).Elem()
		f.fill(e)
		v.Set(e)
	case reflect.Slice:
		switch b := f.byte(); {
		case b%5 == 0:
		case b%5 == 1 && f.canReuse(t):
			v.Set(f.reuse(t, b/5))
		default:
			s := reflect.MakeSlice(t, int(b/5)%4, 4)
			f.remember(s)
			for i := range s.Len() {
				f.fill(s.Index(i))
			}
			v.Set(s)
		}
	case reflect.Array:
		for i := range v.Len() {
			f.fill(v.Index(i))
		}
	case reflect.Map:
		switch b := f.byte(); {
		case b%5 == 0:
		case b%5 == 1 && f.canReuse(t):
			v.Set(f.reuse(t, b/5))
		default:
			m := reflect.MakeMap(t)
			f.remember(m)
			for range int(b/5) % 4 {
				k := reflect.New(t.Key()).Elem()
				e := reflect.New(t.Elem()).Elem()
				f.fill(k)
				f.fill(e)
				m.SetMapIndex(k, e)
			}
			v.Set(m)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if fv := v.Field(i); fv.CanSet() {
				f.fill(fv)
			}
		}
	}
}

func (f *filler) remember(v reflect.Value) {
	if f.made == nil {
		f.made = map[reflect.Type][]reflect.Value{}
	}
	f.made[v.Type()] = append(f.made[v.Type()], v)
}
