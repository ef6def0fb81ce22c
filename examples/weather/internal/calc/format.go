package calc

import (
	"math"
	"strconv"
	"strings"
)

// Format renders v compactly with up to 12 significant digits and no
// trailing zeros: 7, 0.5, 3.14159265359, 1e21, 1e-7. Negative zero is "0".
// The output of a finite v is accepted by Eval.
func Format(v float64) string {
	if v == 0 {
		return "0"
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	s := strconv.FormatFloat(v, 'g', 12, 64)
	mant, exp, ok := strings.Cut(s, "e")
	if !ok {
		return s
	}
	sign := ""
	if exp[0] == '-' {
		sign = "-"
	}
	exp = strings.TrimLeft(exp[1:], "0")
	return mant + "e" + sign + exp
}
