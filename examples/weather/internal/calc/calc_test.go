package calc

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestEvalValues(t *testing.T) {
	tests := []struct {
		expr string
		want float64
	}{
		{"1", 1},
		{"  42  ", 42},
		{"1.5", 1.5},
		{".5", 0.5},
		{"5.", 5},
		{"1e3", 1000},
		{"2.5E-2", 0.025},
		{"1e+2", 100},
		{"1+2*3", 7},
		{"(1+2)*3", 9},
		{"10-4-3", 3},    // left associative
		{"100/10/5", 2},  // left associative
		{"2*3/4", 1.5},   // left associative, same precedence
		{"8-2*3+1", 3},   // precedence mixing
		{"2^3^2", 512},   // right associative
		{"(2^3)^2", 64},  // parenthesised
		{"-2^2", -4},     // ^ binds tighter than unary minus
		{"(-2)^2", 4},    // explicit grouping
		{"2^-1", 0.5},    // unary minus in exponent
		{"-2^-2", -0.25}, // both
		{"2*-3", -6},     // unary after binary
		{"--3", 3},       // double negation
		{"+-+3", -3},     // mixed unary signs
		{"-(1+2)", -3},   // unary on group
		{"2^2*3", 12},    // ^ before *
		{"3*2^2", 12},    // ^ before *
		{"1 - -1", 2},    // spaced unary
		{"\t1\n+\r2", 3}, // any whitespace
		{"((((7))))", 7}, // nested parens
		{"sqrt(16)", 4},  // function
		{"sqrt(2)^2", 2.0000000000000004},
		{"pow(2, 10)", 1024},
		{"pow(2,-1)", 0.5},
		{"pow(-8, 1/3*3)", -8},
		{"SQRT(9)", 3},           // case-insensitive
		{"sin(30)", 0.5},         // degrees, snapped
		{"sin(90)", 1},           // degrees
		{"sin(-30)", -0.5},       // negative angle
		{"cos(90)", 0},           // snapped to exactly 0
		{"cos(60)", 0.5},         // snapped
		{"cos(180)", -1},         // exact
		{"tan(45)", 1},           // snapped
		{"tan(-45)", -1},         // snapped
		{"tan(180)", 0},          // snapped
		{"sin(720+30)", 0.5},     // reduced modulo 360
		{"sin(0)", 0},            // zero
		{"2*pi", 2 * math.Pi},    // constant
		{"PI", math.Pi},          // case-insensitive constant
		{"e", math.E},            // constant e
		{"1/4", 0.25},            // division
		{"0.1+0.2", 0.1 + 0.2},   // float semantics
		{"1e-400", 0},            // underflow is fine
		{"sin(30)+cos(60)", 1},   // sums of snapped values
		{"pow(2, 3)^2", 64},      // function then power
		{"-sqrt(4)", -2},         // unary on function
		{"sqrt(0)", 0},           // boundary
		{"1.5e3*2", 3000},        // exponent and op
		{"(1)+(2)*(3)", 7},       // groups
		{"pow((1+1), (1+2))", 8}, // nested args
	}
	for _, tc := range tests {
		got, err := Eval(tc.expr)
		if err != nil {
			t.Errorf("Eval(%q) error: %v", tc.expr, err)
			continue
		}
		if got != tc.want && math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("Eval(%q) = %v, want %v", tc.expr, got, tc.want)
		}
	}
}

func TestTrigExactness(t *testing.T) {
	for _, expr := range []string{"cos(90)", "cos(270)", "sin(180)", "sin(360)", "tan(0)", "tan(180)", "cos(-90)"} {
		got, err := Eval(expr)
		if err != nil {
			t.Fatalf("Eval(%q): %v", expr, err)
		}
		if got != 0 || math.Signbit(got) && Format(got) != "0" {
			t.Errorf("Eval(%q) = %v, want exactly 0", expr, got)
		}
	}
	got, _ := Eval("tan(45)")
	if math.Abs(got-1) > 1e-12 {
		t.Errorf("tan(45) = %v", got)
	}
}

func TestEvalErrors(t *testing.T) {
	tests := []struct {
		expr    string
		pos     int
		msgPart string
	}{
		{"", 0, "empty expression"},
		{"   ", 0, "empty expression"},
		{"1 + 2)", 5, `unexpected ")"`},
		{"(1+2))", 5, `unexpected ")"`},
		{"(1+2", 4, `missing ")" to close "(" at position 0`},
		{"((1)", 4, `missing ")"`},
		{"(1 2)", 3, `expected ")"`},
		{")", 0, `unexpected ")"`},
		{"()", 1, `unexpected ")"`},
		{"1 +", 3, "unexpected end of expression"},
		{"*2", 0, `unexpected "*"`},
		{"2 3", 2, `unexpected number "3"`},
		{"2e", 1, `unexpected identifier "e"`},
		{"1,2", 1, `unexpected ","`},
		{"foo", 0, `unknown identifier "foo"`},
		{"1 + bar(2)", 4, `unknown identifier "bar"`},
		{"sin(1, 2)", 0, "sin takes 1 argument, got 2"},
		{"sin()", 0, "sin takes 1 argument, got 0"},
		{"pow(2)", 0, "pow takes 2 arguments, got 1"},
		{"pow(1,2,3)", 0, "pow takes 2 arguments, got 3"},
		{"sin 30", 4, `expected "(" after function sin`},
		{"sin(30", 6, `missing ")"`},
		{"pi(2)", 2, "pi is a constant, not a function"},
		{"1/0", 1, "division by zero"},
		{"1/(2-2)", 1, "division by zero"},
		{"5 / 0.0", 2, "division by zero"},
		{"0^-1", 1, "division by zero"},
		{"pow(0,-2)", 0, "division by zero"},
		{"sqrt(-1)", 0, "sqrt of negative number -1"},
		{"2 * sqrt(-4)", 4, "sqrt of negative number"},
		{"(-8)^(1/3)", 4, "not a real number"},
		{"10^400", 2, "overflows"},
		{"pow(10, 400)", 0, "overflows"},
		{"1e308*10", 5, "overflows"},
		{"1e308+1e308", 5, "overflows"},
		{"-1e308-1e308", 6, "overflows"},
		{"1e400", 0, "too large"},
		{"tan(90)", 0, "tan is undefined at 90 degrees"},
		{"tan(-270)", 0, "tan is undefined"},
		{"1 # 2", 2, `unexpected character '#'`},
		{"3 × 4", 2, `unexpected character '×'`},
		{"1 + \xff", 4, "invalid UTF-8"},
		{"1..2", 2, `unexpected number ".2"`},    // "1." then ".2"
		{"x = 1", 2, `unexpected character '='`}, // characters are checked before names
		{"2(3)", 1, `unexpected "("`},            // no implicit multiplication
	}
	for _, tc := range tests {
		v, err := Eval(tc.expr)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("Eval(%q) = %v, %v; want *Error", tc.expr, v, err)
			continue
		}
		if e.Pos != tc.pos || !strings.Contains(e.Msg, tc.msgPart) {
			t.Errorf("Eval(%q) error = %q (pos %d), want pos %d containing %q", tc.expr, e.Error(), e.Pos, tc.pos, tc.msgPart)
		}
		if want := "at position "; !strings.HasPrefix(e.Error(), want) {
			t.Errorf("Error() = %q, want prefix %q", e.Error(), want)
		}
	}
}

func TestErrorString(t *testing.T) {
	_, err := Eval("1 + 2)")
	if got, want := err.Error(), `at position 5: unexpected ")"`; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

func TestLimits(t *testing.T) {
	// Exactly MaxDepth nested parentheses is fine; one more is rejected.
	ok := strings.Repeat("(", MaxDepth) + "1" + strings.Repeat(")", MaxDepth)
	if v, err := Eval(ok); err != nil || v != 1 {
		t.Errorf("depth %d: got %v, %v", MaxDepth, v, err)
	}
	tests := []struct {
		name, expr, msgPart string
	}{
		{"parens", strings.Repeat("(", MaxDepth+1) + "1" + strings.Repeat(")", MaxDepth+1), "nested too deeply"},
		{"unclosed parens", strings.Repeat("(", 500), "nested too deeply"},
		{"unary chain", strings.Repeat("-", 500) + "1", "nested too deeply"},
		{"power chain", "2" + strings.Repeat("^2", 200), "nested too deeply"},
		{"function chain", strings.Repeat("sqrt(", 150) + "1" + strings.Repeat(")", 150), "nested too deeply"},
		{"too long", strings.Repeat("1+", 500) + "1", "expression too long: 1001 characters (max 1000)"},
		{"too long multibyte", strings.Repeat("×", MaxLength+1), "expression too long"},
	}
	for _, tc := range tests {
		_, err := Eval(tc.expr)
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(e.Msg, tc.msgPart) {
			t.Errorf("%s: error = %v, want %q", tc.name, err, tc.msgPart)
		}
	}
	// The longest accepted expression still evaluates.
	long := strings.Repeat("1+", 499) + "1" // 999 chars
	if v, err := Eval(long); err != nil || v != 500 {
		t.Errorf("long expression: %v, %v", v, err)
	}
	// Too long is reported at the first character past the limit.
	_, err := Eval(strings.Repeat("×", MaxLength+1))
	if e := (*Error)(nil); errors.As(err, &e) && e.Pos != MaxLength*len("×") {
		t.Errorf("too long pos = %d, want %d", e.Pos, MaxLength*len("×"))
	}
}
