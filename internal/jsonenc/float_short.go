package jsonenc

import (
	"math"
	"slices"
)

// shortPow10 are the scales appendShortDecimal tries: a float64 with at
// most len(shortPow10)-1 decimals (21.5, 0.25, 1013) takes its fast path.
var shortPow10 = [...]float64{1, 10, 100, 1e3, 1e4}

// shortMax bounds the digits of a decimal appendShortDecimal writes: below
// it a float64's ulp is less than a tenth of the step of the decimal's last
// digit (see appendShortDecimal).
const shortMax = 1 << 45

// appendShortDecimal appends f as strconv.AppendFloat(b, f, 'f', -1, 64)
// does, when f is m/10^k for an integer m (|m| < shortMax, no trailing
// zero when k > 0) and k < len(shortPow10); false (and b as it was)
// otherwise, zero included (-0 keeps its sign on the slow path).
//
// float64(m)/10^k is the double nearest the decimal m/10^k (both operands
// exact, the division correctly rounded), so when it equals f that decimal
// reads back as f. It is also the only one of as many significant digits
// or fewer that does, so the one AppendFloat's shortest formatting
// chooses: near f, such another decimal has its leading digit at most one
// place lower, so it is a multiple of 10^-(k+1), as m/10^k is, and at least
// 10^-(k+1) away from it, while two decimals that read back as f are less
// than f's ulp apart, at most |f|·2^-52 = |m|·10^-k·2^-52 < 10^-(k+1).
// FuzzShortDecimal holds it to AppendFloat.
func appendShortDecimal(b []byte, f float64) ([]byte, bool) {
	abs := math.Abs(f)
	if !(abs >= 1e-3 && abs < shortMax) { // NaN too
		return b, false
	}
	for k, p := range shortPow10 {
		s := f * p
		if s >= shortMax || s <= -shortMax {
			break // so is every larger scale
		}
		m := int64(s)
		if float64(m) != s || float64(m)/p != f {
			continue
		}
		for k > 0 && m%10 == 0 {
			m /= 10
			k--
		}
		return appendDecimal(b, m, k), true
	}
	return b, false
}

// appendDecimal appends m/10^k in positional notation ("-0.05" for m = -5,
// k = 2), |m| < shortMax and k < len(shortPow10): the digits written in
// place, the fraction's first, without a scratch array to copy.
func appendDecimal(b []byte, m int64, k int) []byte {
	if m < 0 {
		b = append(b, '-')
		m = -m
	}
	u := uint64(m) // unsigned: division by 10 without a sign's fix-up
	units := u / uint64(shortPow10[k])
	w := 1 // the units' digits, then the decimal's length
	for units >= 10 {
		units /= 10
		w++
	}
	if k > 0 {
		w += 1 + k
	}
	n := len(b)
	b = slices.Grow(b, w)[:n+w] // every byte written below
	i := n + w
	for ; k > 0; k-- {
		i--
		b[i] = byte('0' + u%10)
		u /= 10
	}
	if i < n+w {
		i--
		b[i] = '.'
	}
	for i > n {
		i--
		b[i] = byte('0' + u%10)
		u /= 10
	}
	return b
}
