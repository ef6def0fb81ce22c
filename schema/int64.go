package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// checkInt64 reports what an integer schema (one whose type takes
// integers but not other numbers) requires beyond int64, the Go type of
// an integer: an enum value or a const outside its range, which no
// generated value could hold, and a minimum above it or a maximum below
// it, which would leave no value at all, or a bound whose float64 would
// not be checked as written (see int64Bound). The first bad enum value is
// reported, at its pointer.
func (b *builder) checkInt64(n *node, ptr string) {
	if !hasType(n, "integer") || hasType(n, "number") {
		return
	}
	for i, v := range n.Enum {
		if !fitsInt64(v) {
			b.errorf(fmt.Sprintf("%s/enum/%d", ptr, i), "unsupported enum value %s: an integer is an int64, which cannot hold it", compact(v))
			break
		}
	}
	if n.Const != nil && !fitsInt64(n.Const) {
		b.errorf(ptr+"/const", "unsupported const %s: an integer is an int64, which cannot hold it", compact(n.Const))
	}
	if msg := int64Bound(n.Minimum, n.minimumText, true); msg != "" {
		b.errorf(ptr+"/minimum", "unsupported minimum %s", msg)
	}
	if msg := int64Bound(n.Maximum, n.maximumText, false); msg != "" {
		b.errorf(ptr+"/maximum", "unsupported maximum %s", msg)
	}
}

// outsideInt64 reports whether checkInt64 refuses n.
func outsideInt64(n *node) bool {
	if !hasType(n, "integer") || hasType(n, "number") {
		return false
	}
	for _, v := range n.Enum {
		if !fitsInt64(v) {
			return true
		}
	}
	return n.Const != nil && !fitsInt64(n.Const) ||
		int64Bound(n.Minimum, n.minimumText, true) != "" ||
		int64Bound(n.Maximum, n.maximumText, false) != ""
}

// int64Bound says why an integer's minimum (lower) or maximum (!lower)
// cannot be kept, or is "". The bound is compared exactly, as written
// (text), not as its nearest float64 (value): a minimum of 2^63 leaves no
// int64, though the float64 of 9223372036854775807 is 2^63 too. The
// generated checks hold the float64, and compare an int64 with it
// exactly, so a bound whose float64 admits other int64s than it does
// (9007199254740993, read as 9007199254740992) is refused rather than
// checked wrongly.
func int64Bound(value *float64, text string, lower bool) string {
	if value == nil {
		return ""
	}
	exact := exactNumber(text, *value)
	want, empty := int64Limit(exact, lower)
	if empty {
		if lower {
			return fmt.Sprintf("%s: an integer is an int64, so no value could reach it", text)
		}
		return fmt.Sprintf("%s: an integer is an int64, so no value could be below it", text)
	}
	held := strconv.FormatFloat(*value, 'f', -1, 64)
	if *value == math.Trunc(*value) {
		held = new(big.Float).SetFloat64(*value).Text('f', 0) // exactly: 9223372036854775808, not …6000
	}
	if got, none := int64Limit(new(big.Float).SetFloat64(*value), lower); none {
		return fmt.Sprintf("%s on an integer: the generated check holds it as the float64 %s, which no int64 meets, where the bound admits %d; write a bound a float64 holds exactly", text, held, want)
	} else if got != want {
		return fmt.Sprintf("%s on an integer: the generated check holds it as the float64 %s, which admits %d where the bound admits %d; write a bound a float64 holds exactly", text, held, got, want)
	}
	return ""
}

// int64Limit is the least int64 at or above bound (lower) or the greatest
// at or below it (!lower), or empty when there is none.
func int64Limit(bound *big.Float, lower bool) (limit int64, empty bool) {
	i, _ := bound.Int(nil) // truncated toward zero
	if f := new(big.Float).SetInt(i); lower && f.Cmp(bound) < 0 {
		i.Add(i, big.NewInt(1)) // the ceiling
	} else if !lower && f.Cmp(bound) > 0 {
		i.Sub(i, big.NewInt(1)) // the floor
	}
	switch {
	case i.IsInt64():
		return i.Int64(), false
	case lower && i.Sign() < 0:
		return math.MinInt64, false
	case !lower && i.Sign() > 0:
		return math.MaxInt64, false
	}
	return 0, true
}

// fitsInt64 reports whether a JSON value is other than a number, or a
// number whose value is an int64 (1e2 is 100; a fraction is left to the
// type check).
func fitsInt64(v json.RawMessage) bool {
	text := string(bytes.TrimSpace(v))
	if len(text) == 0 || (text[0] != '-' && (text[0] < '0' || text[0] > '9')) {
		return true
	}
	f, _, err := big.ParseFloat(text, 10, 4096, big.ToNearestEven)
	if err != nil || !f.IsInt() {
		return true
	}
	_, acc := f.Int64()
	return acc == big.Exact
}

// exactNumber is a JSON number's value as written, or near enough that its
// ceiling and floor are exact: a value below big.Float's range (1e-999999999)
// is a tiny number of its sign, not zero.
func exactNumber(text string, value float64) *big.Float {
	exact, _, err := big.ParseFloat(text, 10, 4096, big.ToNearestEven)
	if err != nil {
		return new(big.Float).SetFloat64(value) // the decoder read it; its float64 is all there is
	}
	mantissa, _, _ := strings.Cut(strings.ToLower(text), "e")
	if exact.Sign() == 0 && strings.Trim(mantissa, "-0.") != "" {
		tiny := big.NewFloat(1)
		if strings.HasPrefix(text, "-") {
			tiny.Neg(tiny)
		}
		return tiny.SetMantExp(tiny, -1<<20)
	}
	return exact
}
