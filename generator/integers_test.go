package generator_test

import (
	"strings"
	"testing"
)

// TestIntegerBeyondInt64IsRefused — an integer whose enum value or
// minimum lies beyond int64 (a future revision widening a size or an id)
// generated as an int64, and the package then refused every value the
// schema allows there ("integer … is out of range (int64)"). The schema
// is refused now, at the enum value and at the minimum.
func TestIntegerBeyondInt64IsRefused(t *testing.T) {
	defs := `{"Big":{"type":"object","properties":{"e":{"type":"integer","enum":[1,99999999999999999999]},"m":{"type":"integer","minimum":1e30}}}}`
	err := generateOrRefuse(t, defs, roundTripSrc+`
var cases = [][2]string{
	{"Big", `+"`"+`{"e":99999999999999999999}`+"`"+`},
	{"Big", `+"`"+`{"m":1e30}`+"`"+`},
	{"Big", `+"`"+`{"m":2000000000000000000000000000000}`+"`"+`},
}
`)
	for _, want := range []string{"#/$defs/Big/properties/e/enum/1: unsupported enum value 99999999999999999999", "#/$defs/Big/properties/m/minimum: unsupported minimum 1e+30"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v, want an error %q", err, want)
		}
	}
}

// TestIntegerWithinInt64IsKept checks the edges of the int64 range: an
// enum of its least and greatest values, written 1e2-style too, and a
// number (not only an integer) beyond it, load.
func TestIntegerWithinInt64IsKept(t *testing.T) {
	defs := `{"Edge":{"type":"object","properties":{"e":{"type":"integer","enum":[-9223372036854775808,9223372036854775807,1e2]},"n":{"type":"number","enum":[1e30]}}}}`
	if _, err := loadDefs(t, defs); err != nil {
		t.Fatalf("Load: %v", err)
	}
}
