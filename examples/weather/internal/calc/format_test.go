package calc

import (
	"math"
	"testing"
)

func TestFormat(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{7, "7"},
		{0.5, "0.5"},
		{-0.25, "-0.25"},
		{math.Pi, "3.14159265359"},
		{math.Copysign(0, -1), "0"},
		{0, "0"},
		{1000, "1000"},
		{0.1 + 0.2, "0.3"},
		{1.0 / 3, "0.333333333333"},
		{123456789012, "123456789012"},
		{1234567890123, "1.23456789012e12"},
		{1e21, "1e21"},
		{1e-7, "1e-7"},
		{-2.5e-10, "-2.5e-10"},
		{0.0001, "0.0001"},
		{math.Inf(1), "+Inf"},
	}
	for _, tc := range tests {
		if got := Format(tc.in); got != tc.want {
			t.Errorf("Format(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestFormatRoundTrip(t *testing.T) {
	for _, v := range []float64{7, -0.5, math.Pi, 1e21, 1e-7, 6.02214076e23, -1.5e-300} {
		s := Format(v)
		got, err := Eval(s)
		if err != nil {
			t.Errorf("Eval(Format(%v)=%q): %v", v, s, err)
			continue
		}
		if math.Abs(got-v) > 1e-11*math.Abs(v) {
			t.Errorf("round trip %v -> %q -> %v", v, s, got)
		}
	}
}

func TestEvalThenFormat(t *testing.T) {
	tests := map[string]string{
		"3+4":     "7",
		"sin(30)": "0.5",
		"pi":      "3.14159265359",
		"-0":      "0",
		"0*-1":    "0",
		"cos(90)": "0",
		"2^10":    "1024",
		"sqrt(2)": "1.41421356237",
		"10/4":    "2.5",
	}
	for expr, want := range tests {
		v, err := Eval(expr)
		if err != nil {
			t.Fatalf("Eval(%q): %v", expr, err)
		}
		if got := Format(v); got != want {
			t.Errorf("Format(Eval(%q)) = %q, want %q", expr, got, want)
		}
	}
}
