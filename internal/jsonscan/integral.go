package jsonscan

// IsIntegral reports whether raw is a JSON number whose value has a zero
// fraction: an integer as JSON Schema counts one, 1.0, 1e2 and 100e-2 as
// well as 100. It reads the digits and the exponent as text, never as a
// float, so any size is exact and a huge exponent costs nothing. A number
// without fraction or exponent takes IsInteger's path.
func IsIntegral(raw []byte) bool {
	if IsInteger(raw) {
		return true
	}
	if len(raw) == 0 || (raw[0] != '-' && (raw[0] < '0' || raw[0] > '9')) {
		return false
	}
	if end, ok := numberEnd(raw, 0); !ok || end != len(raw) {
		return false
	}
	mant, exp := raw, int64(0)
	if raw[0] == '-' {
		mant = raw[1:]
	}
	for i, c := range mant {
		if c == 'e' || c == 'E' {
			exp = exponentValue(mant[i+1:])
			mant = mant[:i]
			break
		}
	}
	// The value is integral when its last non-zero digit, moved by the
	// exponent, stands at the units or left of them.
	point, last := len(mant), -1 // last: the index of the last non-zero digit
	for i, c := range mant {
		switch {
		case c == '.':
			point = i
		case c != '0':
			last = i
		}
	}
	if last < 0 {
		return true // 0.0, -0e5
	}
	place := int64(point - 1 - last) // the power of ten of that digit
	if last > point {
		place = int64(point - last)
	}
	return place+exp >= 0
}

// exponentValue reads an exponent's digits (sign first, maybe), saturating
// far beyond any number of digits a message may hold.
func exponentValue(b []byte) int64 {
	neg := false
	if len(b) > 0 && (b[0] == '+' || b[0] == '-') {
		neg = b[0] == '-'
		b = b[1:]
	}
	const limit = 1 << 40
	n := int64(0)
	for _, c := range b {
		if n < limit {
			n = n*10 + int64(c-'0')
		}
	}
	if neg {
		return -n
	}
	return n
}
