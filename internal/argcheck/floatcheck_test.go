package argcheck

import (
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

const floatSchema = `{"type":"object","properties":{
	"divisor":{"type":"number","exclusiveMinimum":0},
	"fraction":{"type":"number","exclusiveMaximum":1},
	"big":{"type":"number","minimum":9007199254740993,"multipleOf":3},
	"tenth":{"type":"number","maximum":0.1},
	"one":{"const":0.99999999999999999},
	"xs":{"type":"array","items":{"type":"number","exclusiveMaximum":1}}}}`

type floatArgs64 struct {
	Divisor  float64   `json:"divisor"`
	Fraction float64   `json:"fraction"`
	Big      float64   `json:"big"`
	Tenth    float64   `json:"tenth"`
	One      float64   `json:"one"`
	Xs       []float64 `json:"xs"`
}

type floatArgs32 struct {
	Divisor  float32   `json:"divisor"`
	Fraction float32   `json:"fraction"`
	Big      float32   `json:"big"`
	Tenth    float32   `json:"tenth"`
	One      float32   `json:"one"`
	Xs       []float32 `json:"xs"`
}

// floatArgsRaw runs code of its own while decoding (json.RawMessage):
// the lazy path checks every element before it decodes any.
type floatArgsRaw struct {
	Fraction float64         `json:"fraction"`
	Xs       []float64       `json:"xs"`
	Raw      json.RawMessage `json:"raw"`
}

// intArgs holds the same members in integers and json.Number: nothing
// is lost, nothing is refused beyond what the schema refuses.
type intArgs struct {
	Big int64       `json:"big"`
	One json.Number `json:"one"`
}

// TestFloatKeepsBounds: a number that passed the schema by its exact
// value but becomes, in the Go float the tool gets, one the schema
// refuses (an exclusive bound reached, a minimum or multipleOf lost to
// rounding, a const no float holds) is refused with the member's pointer
// and what the float made of it; a number the float reads back as passes
// as before, 0.1 under "maximum": 0.1 included. The oracle (json.Unmarshal,
// then the schema on the values decoded) agrees on the map and any targets.
func TestFloatKeepsBounds(t *testing.T) {
	v, err := Compile(json.RawMessage(floatSchema))
	if err != nil {
		t.Fatal(err)
	}
	zeros := strings.Repeat("0", 400)
	for _, c := range []struct {
		args             string
		f64, f32, anyErr string // the pointer refused, "" when accepted
	}{
		{`{"divisor":1e-400}`, "/divisor", "/divisor", "/divisor"},
		{`{"divisor":-0}`, "/divisor", "/divisor", "/divisor"}, // the schema refuses it
		{`{"divisor":0.` + zeros + `1}`, "/divisor", "/divisor", "/divisor"},
		{`{"divisor":1e-50}`, "", "/divisor", ""},
		{`{"divisor":5e-324}`, "", "/divisor", ""},
		{`{"divisor":0.5,"fraction":0.1,"tenth":0.1}`, "", "", ""},
		{`{"fraction":0.99999999999999999}`, "/fraction", "/fraction", "/fraction"},
		{`{"fraction":0.9999999999999999}`, "", "/fraction", ""},
		{`{"fraction":0.99999999}`, "", "/fraction", ""},
		{`{"fraction":0.9999999}`, "", "", ""},
		{`{"xs":[0.5,0.99999999999999999]}`, "/xs/1", "/xs/1", "/xs/1"},
		{`{"big":9007199254740993}`, "/big", "/big", "/big"},
		{`{"big":9007199254740996}`, "", "/big", ""},
		{`{"tenth":0.09999999999999999999}`, "", "", ""},
		{`{"one":0.99999999999999999}`, "/one", "/one", "/one"},
	} {
		check := func(typ reflect.Type, want string) {
			t.Helper()
			got := reflect.New(typ)
			err := NewTypeDecoder(typ, v).DecodeInto(json.RawMessage(c.args), got.Interface())
			var ve *ValidationError
			switch {
			case want == "" && err != nil:
				t.Errorf("%.60s into %v: %v, want it accepted", c.args, typ, err)
			case want != "" && !errors.As(err, &ve):
				t.Errorf("%.60s into %v: %v (decoded %+v), want a ValidationError at %s", c.args, typ, err, got.Elem(), want)
			case want != "" && ve.Problems[0].Pointer != want:
				t.Errorf("%.60s into %v: %v, want it at %s", c.args, typ, err, want)
			case want != "" && !strings.Contains(ve.Problems[0].Message, " as a Go float") && !strings.HasPrefix(c.args, `{"divisor":-0`):
				t.Errorf("%.60s into %v: %q does not say what the float made of the number", c.args, typ, ve.Problems[0].Message)
			case want != "" && !got.Elem().IsZero():
				t.Errorf("%.60s into %v: refused, but %+v was decoded", c.args, typ, got.Elem())
			}
		}
		check(reflect.TypeFor[floatArgs64](), c.f64)
		check(reflect.TypeFor[floatArgs32](), c.f32)
		check(reflect.TypeFor[map[string]any](), c.anyErr)
		check(reflect.TypeFor[any](), c.anyErr)
		if !strings.Contains(c.args, `"xs"`) && !strings.Contains(c.args, `"divisor":-0`) {
			check(reflect.TypeFor[intArgs](), "")
		}
		sameDecode[map[string]any](t, v, []byte(c.args))
		sameDecode[any](t, v, []byte(c.args))
		sameDecode[floatArgs64](t, v, []byte(c.args))
		sameDecode[floatArgs32](t, v, []byte(c.args))
	}
}

// TestFloatKeepsBoundsMessage: the problem says what the float made of
// the number.
func TestFloatKeepsBoundsMessage(t *testing.T) {
	v, err := Compile(json.RawMessage(floatSchema))
	if err != nil {
		t.Fatal(err)
	}
	_, err = NewDecoder[floatArgs64](v).Decode(json.RawMessage(`{"divisor":1e-400}`))
	const want = "invalid arguments: /divisor: value 0 must be greater than 0 (the number 1e-400 is 0 as a Go float64)"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

// TestFloatKeepsBoundsLazy: the element-wise path of large arguments
// refuses what the whole tape refuses (the same problems, nothing
// decoded), by itself, for every element the float moves past its bound.
func TestFloatKeepsBoundsLazy(t *testing.T) {
	v, err := Compile(json.RawMessage(floatSchema))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString(`{"raw":[1,2],"fraction":0.99999999999999999,"xs":[`)
	for k := range 200 {
		if k > 0 {
			b.WriteByte(',')
		}
		if k%50 == 7 {
			b.WriteString("0.99999999999999999")
		} else {
			b.WriteString("0.5")
		}
	}
	b.WriteString("]}")
	refused := b.String()
	accepted := strings.ReplaceAll(refused, "0.99999999999999999", "0.9999999")
	for _, typ := range []reflect.Type{reflect.TypeFor[floatArgs64](), reflect.TypeFor[floatArgs32](), reflect.TypeFor[floatArgsRaw](), reflect.TypeFor[map[string]any](), reflect.TypeFor[any]()} {
		if !checkLazyDecode(t, v, typ, []byte(refused), 64) {
			t.Errorf("into %v: the lazy path gave up", typ)
		}
		checkLazyDecode(t, v, typ, []byte(accepted), 64)
		err := NewTypeDecoder(typ, v).DecodeInto(json.RawMessage(refused), reflect.New(typ).Interface())
		var ve *ValidationError
		if !errors.As(err, &ve) || len(ve.Problems) != 5 {
			t.Errorf("into %v: %v, want /fraction and four elements of /xs refused", typ, err)
		}
	}
}

// TestFloatHolds holds floatHolds' shortcut (few digits, a normal float)
// to writing the float and comparing exact values.
func TestFloatHolds(t *testing.T) {
	for _, lit := range []string{"0", "-0", "0.0", "3", "0.5", "1e3", "0.1", "19.99", "123456789012345", "1234567890123456",
		"12345678901234567", "0.99999999", "0.9999999", "1000000", "1.00000000000000000001", "1e-400", "1e-320", "2.2250738585072014e-308",
		"2.2250738585072011e-308", "1.17549435e-38", "1e-45", "1e-46", "3.4028235e38", "9007199254740993", "100000000000000000000000",
		"0.000001", "1E-7", "-1.5e-10", "5e-324", "123456.7", "1234567", "16777217"} {
		for _, bits := range []int{32, 64} {
			f, err := strconv.ParseFloat(lit, bits)
			if err != nil {
				continue
			}
			want := new(big.Rat)
			want.SetString(lit)
			got, _ := new(big.Rat).SetString(strconv.FormatFloat(f, 'g', -1, bits))
			short, ok := floatHolds(lit, f, bits)
			if ok != (want.Cmp(got) == 0) {
				t.Errorf("floatHolds(%s, %d) = %q, %v; the float is %s", lit, bits, short, ok, strconv.FormatFloat(f, 'g', -1, bits))
			}
		}
	}
}

// TestShortestDecimalIsEncodingJSONs: appendShortestDecimal writes a float
// as encoding/json does, exponent forms included, for floats across the
// whole range.
func TestShortestDecimalIsEncodingJSONs(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	fs := []float64{0, 1, -1, 0.1, 1e-6, 1e-7, 9.999999e-7, 1e20, 1e21, 123456789012345680000, 5e-324, math.MaxFloat64, math.SmallestNonzeroFloat64}
	for range 100000 {
		f := math.Float64frombits(r.Uint64())
		if !math.IsNaN(f) && !math.IsInf(f, 0) {
			fs = append(fs, f)
		}
	}
	for _, f := range fs {
		want, _ := json.Marshal(f)
		if got := appendShortestDecimal(nil, f, 64); string(got) != string(want) {
			t.Fatalf("%v: %s, encoding/json %s", f, got, want)
		}
		if short, ok := floatHolds(string(want), f, 64); !ok {
			t.Fatalf("%s: does not hold its own float (short %q)", want, short)
		}
	}
}
