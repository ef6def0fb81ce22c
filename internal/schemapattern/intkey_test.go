package schemapattern

import (
	"math"
	"math/rand/v2"
	"regexp"
	"strconv"
	"testing"
)

// canonicalKey is the arguments decoder's verdict (argcheck's mapKey) on
// member name s for an integer key of bits bits: parsed in range and
// written back as itself.
func canonicalKey(s string, bits int, signed bool) bool {
	if signed {
		n, err := strconv.ParseInt(s, 10, bits)
		return err == nil && strconv.FormatInt(n, 10) == s
	}
	n, err := strconv.ParseUint(s, 10, bits)
	return err == nil && strconv.FormatUint(n, 10) == s
}

// TestIntegerKeyPatternMatchesExactlyTheDecodedKeys: for every integer key
// type, the pattern accepts a member name exactly when the decoder reads
// it as a key: every name of up to 5 characters over "-+0129" and every
// value of the 8- and 16-bit types and their neighbours, and the bounds of
// the wider ones, their neighbours and random values.
func TestIntegerKeyPatternMatchesExactlyTheDecodedKeys(t *testing.T) {
	names := []string{"", "-", "+1", "01", "-0", "00", " 1", "1 ", "1e2", "0x1", "١"}
	var gen func(prefix string, n int)
	gen = func(prefix string, n int) {
		names = append(names, prefix)
		if n == 0 {
			return
		}
		for _, c := range "-+0129" {
			gen(prefix+string(c), n-1)
		}
	}
	gen("", 5)
	for v := int64(-33000); v <= 66000; v++ {
		names = append(names, strconv.FormatInt(v, 10))
	}
	for _, bound := range []uint64{math.MaxInt32, math.MaxUint32, math.MaxInt64, math.MaxUint64} {
		for d := uint64(0); d < 3; d++ {
			names = append(names, strconv.FormatUint(bound-d, 10), "-"+strconv.FormatUint(bound-d, 10))
		}
		names = append(names, strconv.FormatUint(bound, 10)+"0", "-"+strconv.FormatUint(bound, 10)+"0")
	}
	names = append(names, "18446744073709551616", "-9223372036854775809", "9223372036854775808", "4294967296", "-2147483649")
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		names = append(names, strconv.FormatUint(r.Uint64()>>r.IntN(64), 10), strconv.FormatInt(r.Int64()>>r.IntN(64), 10), strconv.FormatInt(-r.Int64()>>r.IntN(64), 10))
	}
	for _, bits := range []int{8, 16, 32, 64} {
		for _, signed := range []bool{true, false} {
			pattern := IntegerKey(bits, signed)
			re := regexp.MustCompile(pattern)
			for _, s := range names {
				if got, want := re.MatchString(s), canonicalKey(s, bits, signed); got != want {
					t.Errorf("bits %d signed %v: %q matched %v, decoder accepts %v (pattern %s)", bits, signed, s, got, want, pattern)
				}
			}
		}
	}
}

// TestNumberPatternIsTheJSONNumberGrammar: a ",string" json.Number holds a
// JSON number literal, nothing else.
func TestNumberPatternIsTheJSONNumberGrammar(t *testing.T) {
	re := regexp.MustCompile(Number)
	for s, want := range map[string]bool{
		"0": true, "-0": true, "12": true, "1.5": true, "-1e9": true, "2E+3": true, "0.0e-0": true,
		"": false, "x": false, "1x": false, "-": false, "01": false, "+1": false, ".5": false, "1.": false, " 1": false, "null": false, "1e": false,
	} {
		if re.MatchString(s) != want {
			t.Errorf("%q matched %v, want %v", s, !want, want)
		}
	}
}
