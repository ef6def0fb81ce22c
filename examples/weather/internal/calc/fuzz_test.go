package calc

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

func FuzzEval(f *testing.F) {
	for _, s := range []string{
		"1+2*3", "-2^2", "2^3^2", "sin(30)", "pow(2, 10)", "sqrt(-1)", "(1+2", "1+2)", "1/0",
		"1e308*10", "tan(90)", "pi*e", "", "((((", "----1", ".5e-3", "2e", "sin(1,2)", "\xff", "×",
		strings.Repeat("(", 120) + "1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		start := time.Now()
		v, err := Eval(expr)
		if d := time.Since(start); d > time.Second {
			t.Fatalf("Eval(%q) took %v", expr, d)
		}
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Eval(%q) error %T %v is not *Error", expr, err, err)
			}
			if e.Pos < 0 || e.Pos > len(expr) || e.Msg == "" {
				t.Fatalf("Eval(%q) bad error %+v", expr, e)
			}
			return
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("Eval(%q) = %v, want finite", expr, v)
		}
		_ = Format(v)
	})
}
