package support

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/argcheck"
)

// integerCases are JSON texts and what integer makes of them: a value, or
// a part of the error's message.
var integerCases = []struct {
	in   string
	want int64
	err  string
}{
	{in: "0"}, {in: "-0"}, {in: "7", want: 7}, {in: "-12", want: -12},
	{in: "1.0", want: 1}, {in: "1e0", want: 1}, {in: "10E-1", want: 1}, {in: "1.5e1", want: 15},
	{in: "-2.50e1", want: -25}, {in: "0.0"}, {in: "0e99999999999999999999"}, {in: "-0.000e-5"},
	{in: "1E+2", want: 100}, {in: "120e-1", want: 12}, {in: " 3.0 ", want: 3},
	{in: "9223372036854775807", want: math.MaxInt64}, {in: "-9223372036854775808", want: math.MinInt64},
	{in: "9223372036854775807.0", want: math.MaxInt64}, {in: "922337203685477580.7e1", want: math.MaxInt64},
	{in: "9007199254740993.0", want: 9007199254740993}, // exact, not through a float64
	{in: "1.5", err: "expected an integer, got number 1.5"},
	{in: "1e-1", err: "expected an integer, got number 1e-1"},
	{in: "1e-99999999999999999999", err: "expected an integer, got number"},
	{in: "9223372036854775808", err: "out of range"},
	{in: "-9223372036854775809", err: "out of range"},
	{in: "1e19", err: "out of range"},
	{in: "1e99999999999999999999", err: "out of range"},
	{in: `"1"`, err: "expected an integer, got string"},
	{in: "null", err: "expected an integer, got null"},
	{in: "true", err: "expected an integer, got bool"},
	{in: "[1]", err: "expected an integer, got array"},
	{in: "01", err: "expected an integer, got number 01"},
	{in: "1.", err: "expected an integer, got number 1."},
	{in: "+1", err: "expected an integer, got +1"},
}

// TestIntegerTakesZeroFractions checks the decoder of "integer" members:
// as in JSON Schema (Validation §6.1.1), a number whose fractional part is
// zero is an integer however it is written; the value is exact.
func TestIntegerTakesZeroFractions(t *testing.T) {
	for _, c := range integerCases {
		n, err := integer([]byte(c.in))
		switch {
		case c.err == "" && (err != nil || n != c.want):
			t.Errorf("integer(%s) = %d, %v; want %d", c.in, n, err, c.want)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("integer(%s) = %d, %v; want an error with %q", c.in, n, err, c.err)
		case c.err != "" && !errors.As(err, new(*DecodeError)):
			t.Errorf("integer(%s): %T, want a *DecodeError", c.in, err)
		}
	}
	if p, err := optionalInteger([]byte("null")); p != nil || err != nil {
		t.Errorf("optionalInteger(null) = %v, %v", p, err)
	}
	if p, err := optionalInteger([]byte("2.0")); err != nil || *p != 2 {
		t.Errorf("optionalInteger(2.0) = %v, %v", p, err)
	}
	if n, err := integerOrNull([]byte("null")); n != 0 || err != nil {
		t.Errorf("integerOrNull(null) = %d, %v", n, err)
	}
	if v, err := unmarshalScalar([]byte("4.0"), []string{"integer", "string"}); v != int64(4) || err != nil {
		t.Errorf("unmarshalScalar(4.0, integer|string) = %#v, %v; want int64 4", v, err)
	}
}

// TestIntegerAgreesWithArgumentValidation checks that the generated
// decoders and the runtime's argument validation and binding
// (internal/argcheck) take the same numbers as an "integer" into an int64,
// with the same value.
func TestIntegerAgreesWithArgumentValidation(t *testing.T) {
	v, err := argcheck.Compile(json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	dec := argcheck.NewDecoder[struct {
		N int64 `json:"n"`
	}](v)
	for _, c := range integerCases {
		if !json.Valid([]byte(c.in)) || c.in == "null" || strings.Contains(c.in, "99999999999999999999") {
			// Not a message; null, which the runtime takes for an absent
			// optional argument; or a number argcheck reads as a big.Rat.
			continue
		}
		got, err := dec.Decode(json.RawMessage(`{"n":` + c.in + `}`))
		n, ierr := integer([]byte(c.in))
		if (err == nil) != (ierr == nil) || err == nil && got.N != n {
			t.Errorf("%s: argcheck %d, %v; generated decoders %d, %v", c.in, got.N, err, n, ierr)
		}
	}
}

// TestIntegerBoundsAreExact — checkBounds rounded an int64 to a float64
// before comparing it with a bound, so near 2^63 a value met a bound it
// does not: 2^62-1 (rounded to 2^62) met a minimum of 2^62, and
// math.MaxInt64 (rounded to 2^63) met a minimum of 2^63, which no int64
// reaches. An integer is compared exactly now, in a field's check and in a
// scalar union member's.
func TestIntegerBoundsAreExact(t *testing.T) {
	for _, c := range []struct {
		value int64
		b     bounds
		ok    bool
	}{
		{1<<62 - 1, bounds{min: 0x1p62, hasMin: true}, false},
		{1 << 62, bounds{min: 0x1p62, hasMin: true}, true},
		{1<<62 + 1, bounds{max: 0x1p62, hasMax: true}, false},
		{1 << 62, bounds{max: 0x1p62, hasMax: true}, true},
		{math.MaxInt64, bounds{min: 0x1p63, hasMin: true}, false},
		{math.MaxInt64, bounds{max: 0x1p63, hasMax: true}, true},
		{math.MinInt64, bounds{min: -0x1p63, hasMin: true}, true},
		{math.MinInt64, bounds{max: -0x1p63 - 0x1p11, hasMax: true}, false},
		{5, bounds{min: 4.5, hasMin: true, max: 5.5, hasMax: true}, true},
		{4, bounds{min: 4.5, hasMin: true}, false},
		{6, bounds{max: 5.5, hasMax: true}, false},
	} {
		err := checkBounds(c.value, "n", c.b)
		if (err == nil) != c.ok {
			t.Errorf("checkBounds(%d, %+v) = %v, want ok %v", c.value, c.b, err, c.ok)
		}
		member := alternative{at: "anyOf/0", types: []string{"integer"}, bounds: &c.b}
		if err := member.refuses(c.value); (err == nil) != c.ok {
			t.Errorf("member refuses(%d) with %+v = %v, want ok %v", c.value, c.b, err, c.ok)
		}
	}
	if err := checkBounds(int64(1<<62-1), "n", bounds{min: 0x1p62, hasMin: true}); err == nil || err.Error() != "n: 4611686018427387903 is below the minimum 4.611686018427388e+18" {
		t.Errorf("got %v, want the value written exactly", err)
	}
}
