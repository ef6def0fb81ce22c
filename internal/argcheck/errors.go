package argcheck

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// ValidationError lists every way the arguments of a call failed their schema.
type ValidationError struct {
	Problems []Problem
}

// Problem is one failed rule.
type Problem struct {
	// Pointer is the JSON pointer (RFC 6901) of the offending value; "" is
	// the arguments object itself. For a missing property it points at the
	// property that should exist.
	Pointer string
	// Keyword is the JSON Schema keyword that failed ("required", "enum",
	// "type", …) or "json" when the arguments are not valid JSON.
	Keyword string
	// Message says what is wrong in words a model can act on.
	Message string
}

// Error renders all problems on one line, e.g.
// `invalid arguments: /location: required property is missing; /units: value "rankine" is not one of ["metric","imperial"]`.
func (e *ValidationError) Error() string {
	var b strings.Builder
	b.WriteString("invalid arguments: ")
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(p.String())
	}
	return b.String()
}

// String renders the problem as "pointer: message"; the root is "(root)".
func (p Problem) String() string {
	at := p.Pointer
	if at == "" {
		at = "(root)"
	}
	return at + ": " + p.Message
}

// groupInt renders n as golang.org/x/text/message's English printer renders
// %d (the messages are santhosh-tekuri's, which print through it): the
// digits grouped in threes by commas, 1,234,567. Done here so the server
// binary does not link golang.org/x/text (its tables, code and init, about
// half a megabyte resident).
func groupInt(n int) string {
	return string(appendGrouped(nil, strconv.Itoa(n)))
}

// appendGrouped appends the decimal number s (an optional '-', digits, then
// optionally '.' and a fraction) with its integer digits grouped in threes.
func appendGrouped(b []byte, s string) []byte {
	if s != "" && s[0] == '-' {
		b, s = append(b, '-'), s[1:]
	}
	whole, frac, dot := strings.Cut(s, ".")
	for i := range len(whole) {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, whole[i])
	}
	if dot {
		b = append(append(b, '.'), frac...)
	}
	return b
}

// superscript holds the digits 0–9 as superscripts.
var superscript = [10]string{"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"}

// englishFloat renders f as the English printer renders %v of a float64:
// %g's choice of form (shortest digits; scientific below 1e-4 or from 1e6
// on), fixed numbers grouped (1,234.5), scientific ones as 1.5×10⁻⁰⁷, and
// the infinities as ∞ and -∞.
func englishFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "∞"
	case math.IsInf(f, -1):
		return "-∞"
	}
	if f == 0 {
		f = 0 // the printer drops the sign of -0
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	mant, exp, sci := strings.Cut(s, "e")
	b := appendGrouped(make([]byte, 0, len(s)+16), mant)
	if !sci {
		return string(b)
	}
	b = append(b, "×10"...)
	switch exp[0] {
	case '-':
		b = append(b, "⁻"...)
		exp = exp[1:]
	case '+':
		exp = exp[1:]
	}
	for i := range len(exp) {
		b = append(b, superscript[exp[i]-'0']...)
	}
	return string(b)
}

// rat prints a number the way JSON would: integers without a fraction.
func rat(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}

var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

func escape(tok string) string { return pointerEscaper.Replace(tok) }

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
