package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
)

// checkInt64 reports what an integer schema (one whose type takes
// integers but not other numbers) requires beyond int64, the Go type of
// an integer: an enum value or a const outside its range, which no
// generated value could hold, and a minimum above it or a maximum below
// it, which would leave no value at all. The first bad enum value is
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
	if n.Minimum != nil && *n.Minimum > 0x1p63 {
		b.errorf(ptr+"/minimum", "unsupported minimum %g: an integer is an int64, so no value could reach it", *n.Minimum)
	}
	if n.Maximum != nil && *n.Maximum < -0x1p63 {
		b.errorf(ptr+"/maximum", "unsupported maximum %g: an integer is an int64, so no value could reach it", *n.Maximum)
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
		n.Minimum != nil && *n.Minimum > 0x1p63 ||
		n.Maximum != nil && *n.Maximum < -0x1p63
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
