package argcheck

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// The messages print their numbers as santhosh-tekuri's validator does,
// through golang.org/x/text/message's English printer; groupInt and
// englishFloat do it without linking x/text into the server.
var english = message.NewPrinter(language.English)

func TestGroupIntMatchesEnglishPrinter(t *testing.T) {
	ints := []int{0, 1, -1, 9, 10, 99, 100, 999, 1000, -1000, 9999, 12345, 100000, 999999, 1000000, -1234567, math.MaxInt64, math.MinInt64, math.MaxInt32}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		ints = append(ints, int(r.Int64())>>r.IntN(63), -int(r.Int64()>>r.IntN(63)))
	}
	for _, n := range ints {
		if got, want := groupInt(n), english.Sprintf("%d", n); got != want {
			t.Errorf("groupInt(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestEnglishFloatMatchesEnglishPrinter(t *testing.T) {
	floats := []float64{0, math.Copysign(0, -1), 0.5, 3, -3, 0.1, 0.0001, 0.00001, 1234.5, -1234.5, 999999, 1e6, -1e6, 123456.789, 1e20, 1e21, 1e-6, 1e-7,
		123456789.123, 1.0 / 3, 2.5e-10, math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, 1e100, 1e-100, 0.07, 12.5,
		math.Inf(1), math.Inf(-1), math.NaN()}
	r := rand.New(rand.NewPCG(3, 4))
	for range 3000 {
		floats = append(floats, math.Float64frombits(r.Uint64()), r.NormFloat64()*math.Pow(10, float64(r.IntN(30)-15)), float64(r.IntN(2000000)-1000000)/float64(1+r.IntN(1000)))
	}
	for _, f := range floats {
		if got, want := englishFloat(f), english.Sprintf("%v", f); got != want {
			t.Errorf("englishFloat(%v) = %q, want %q", f, got, want)
		}
	}
}

// TestNumberMessagesAgreeWithSanthosh: the messages with numbers of a
// thousand and more (grouped) and scientific ones agree with the reference's.
func TestNumberMessagesAgreeWithSanthosh(t *testing.T) {
	var many, dup strings.Builder
	many.WriteString("{")
	dup.WriteString("[")
	for i := range 1200 {
		if i > 0 {
			many.WriteString(",")
			dup.WriteString(",")
		}
		fmt.Fprintf(&many, "%q:%d", fmt.Sprint("k", i), i)
		fmt.Fprint(&dup, i%1100)
	}
	many.WriteString("}")
	dup.WriteString("]")
	cases := []struct{ schema, instance string }{
		{`{"type":"object","minProperties":1200}`, `{"a":1}`},
		{`{"type":"object","maxProperties":1000}`, many.String()},
		{`{"type":"array","uniqueItems":true}`, dup.String()},
		{`{"type":"number","multipleOf":1000000}`, `1234.5`},
		{`{"type":"number","multipleOf":0.00000025}`, `-12345678.9`},
		{`{"type":"number","multipleOf":3}`, `1e300`},
	}
	for _, c := range cases {
		if !compareWithSanthosh(t, []byte(c.schema), []byte(c.instance)) {
			t.Errorf("%s: not checked natively", c.schema)
		}
	}
}
