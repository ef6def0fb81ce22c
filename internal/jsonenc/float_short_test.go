package jsonenc

import (
	"math"
	"strconv"
	"testing"
)

// FuzzShortDecimal holds appendShortDecimal to strconv.AppendFloat's
// shortest 'f' formatting, on the float64 of any bits and on the decimals
// m/10^k it is meant for (and their neighbours, which must not take the
// fast path with the decimal's text).
func FuzzShortDecimal(f *testing.F) {
	for _, seed := range []struct {
		bits uint64
		m    int64
		k    uint8
	}{{math.Float64bits(21.5), 215, 1}, {math.Float64bits(0.1), 1, 1}, {math.Float64bits(-0.05), -5, 2},
		{math.Float64bits(1e13), 1 << 44, 0}, {math.Float64bits(math.Copysign(0, -1)), 0, 3}, {1, 12345, 4},
		{math.Float64bits(0.001), 1<<45 - 1, 4}, {math.Float64bits(math.Inf(1)), -999, 2}} {
		f.Add(seed.bits, seed.m, seed.k)
	}
	check := func(t *testing.T, v float64) {
		want := strconv.AppendFloat([]byte("x"), v, 'f', -1, 64)
		got, ok := appendShortDecimal([]byte("x"), v)
		if ok && string(got) != string(want) {
			t.Fatalf("appendShortDecimal(%v) = %s, AppendFloat: %s", v, got, want)
		}
		if !ok && string(got) != "x" {
			t.Fatalf("appendShortDecimal(%v) declined but wrote %s", v, got)
		}
	}
	f.Fuzz(func(t *testing.T, bits uint64, m int64, k uint8) {
		check(t, math.Float64frombits(bits))
		k %= uint8(len(shortPow10) + 2)
		v := float64(m) / math.Pow10(int(k))
		check(t, v)
		check(t, math.Nextafter(v, math.Inf(1)))
		check(t, math.Nextafter(v, math.Inf(-1)))
	})
}

// TestShortDecimalTaken checks the values the fast path is for do take it.
func TestShortDecimalTaken(t *testing.T) {
	for _, v := range []float64{21.5, 70.7, -3.25, 0.001, 1013, 0.1, 123456.7891} {
		if got, ok := appendShortDecimal(nil, v); !ok || string(got) != strconv.FormatFloat(v, 'f', -1, 64) {
			t.Errorf("appendShortDecimal(%v) = %s, %v", v, got, ok)
		}
	}
}
