package argcheck

import (
	"strconv"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// Limits on the number literals of arguments. JSON itself sets none (RFC
// 8259 §6 lets an implementation limit range and precision), but a schema
// check takes a number's exact value (big.Rat): "1e999999", nine bytes, is
// a 415 KB integer, and twenty of them cost a second of CPU and tens of MB
// per call before any keyword can refuse them. No Go number type holds a
// value anywhere near these limits (float64 ends at about 1.8e308).
const (
	// MaxNumberExponent bounds the written exponent of a number literal:
	// 1e1000 and 1e-1000 pass, 1e1001 does not.
	MaxNumberExponent = 1000
	// MaxNumberLength bounds a number literal's length in bytes.
	MaxNumberLength = 1000
)

// numberLimitProblem returns the problem of the first number literal on t
// beyond the limits, naming it by its JSON pointer, or nil. The walk
// allocates nothing; the pointer is built only for a refusal.
func numberLimitProblem(t *jsonscan.Tape) *Problem {
	i := oversizedNumber(t, 0)
	if i < 0 {
		return nil
	}
	shown := t.Number(i)
	if len(shown) > 40 {
		shown = shown[:40] + "…"
	}
	return &Problem{Keyword: "number", Pointer: pointerTo(t, 0, i), Message: "number " + shown +
		" is beyond the limits arguments may use (an exponent of at most ±" + strconv.Itoa(MaxNumberExponent) +
		", at most " + strconv.Itoa(MaxNumberLength) + " characters)"}
}

// oversizedNumber returns the first number node under i beyond the limits, or -1.
func oversizedNumber(t *jsonscan.Tape, i int) int {
	switch t.Kind(i) {
	case jsonscan.KindNumber:
		if !numberWithinLimits(t.Raw(i)) {
			return i
		}
	case jsonscan.KindArray:
		for e := t.FirstElement(i); e >= 0; e = t.NextElement(i, e) {
			if j := oversizedNumber(t, e); j >= 0 {
				return j
			}
		}
	case jsonscan.KindObject:
		for m := t.FirstMember(i); m >= 0; m = t.NextMember(i, m) {
			if j := oversizedNumber(t, m+1); j >= 0 {
				return j
			}
		}
	}
	return -1
}

// pointerTo returns the JSON pointer, relative to node i, of node target
// inside i's subtree.
func pointerTo(t *jsonscan.Tape, i, target int) string {
	if i == target {
		return ""
	}
	switch t.Kind(i) {
	case jsonscan.KindArray:
		n := 0
		for e := t.FirstElement(i); e >= 0; e = t.NextElement(i, e) {
			if target >= e && target < t.Next(e) {
				return "/" + strconv.Itoa(n) + pointerTo(t, e, target)
			}
			n++
		}
	case jsonscan.KindObject:
		for m := t.FirstMember(i); m >= 0; m = t.NextMember(i, m) {
			if target >= m+1 && target < t.Next(m+1) {
				return "/" + escape(t.Text(m)) + pointerTo(t, m+1, target)
			}
		}
	}
	return ""
}

// numberWithinLimits reports whether lit, a valid JSON number, is within
// MaxNumberLength and MaxNumberExponent.
func numberWithinLimits(lit []byte) bool {
	if len(lit) > MaxNumberLength {
		return false
	}
	for j, c := range lit {
		if c != 'e' && c != 'E' {
			continue
		}
		digits := lit[j+1:]
		if len(digits) > 0 && (digits[0] == '+' || digits[0] == '-') {
			digits = digits[1:]
		}
		for len(digits) > 1 && digits[0] == '0' {
			digits = digits[1:] // 1e0001 is 1e1
		}
		if len(digits) > 4 {
			return false
		}
		exp, _ := strconv.Atoi(string(digits))
		return exp <= MaxNumberExponent
	}
	return true
}
