package schemapattern

import (
	"math/big"
	"strconv"
	"strings"
)

// IntegerKey is the pattern of the member names the arguments decoder
// reads as keys of a Go map whose key type is an integer of the given
// size in bits, signed or not: the canonical decimal text of each value
// of the type ("0", "-1", "255"; never "01", "+1", "-0" or a value out of
// range), which is also what encoding/json writes. Two members can then
// never fill one map entry, and a member name the schema accepts is one
// the decoder accepts.
func IntegerKey(bits int, signed bool) string {
	if signed {
		top := new(big.Int).Lsh(big.NewInt(1), uint(bits-1)) // -min; max is one less
		most := new(big.Int).Sub(top, big.NewInt(1))
		return "^(0|" + upTo(most.String()) + "|-(" + upTo(top.String()) + "))$"
	}
	most := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(bits)), big.NewInt(1))
	return "^(0|" + upTo(most.String()) + ")$"
}

// upTo is an alternation matching the canonical decimal text of every
// integer from 1 to n (n's decimal text, n ≥ 1): each shorter length, then
// for each digit of n a smaller digit after n's prefix, then n itself.
func upTo(n string) string {
	var alts []string
	if len(n) > 1 {
		alts = append(alts, "[1-9]"+digits(0, len(n)-2))
	}
	for i := range len(n) {
		lo := byte('0')
		if i == 0 {
			lo = '1'
		}
		if n[i] > lo {
			alts = append(alts, n[:i]+class(lo, n[i]-1)+digits(len(n)-i-1, len(n)-i-1))
		}
	}
	alts = append(alts, n)
	return strings.Join(alts, "|")
}

// class matches one digit from lo to hi.
func class(lo, hi byte) string {
	if lo == hi {
		return string(lo)
	}
	return "[" + string(lo) + "-" + string(hi) + "]"
}

// digits matches from least to most decimal digits.
func digits(least, most int) string {
	switch {
	case most == 0:
		return ""
	case least == most && most == 1:
		return "[0-9]"
	case least == most:
		return "[0-9]{" + strconv.Itoa(most) + "}"
	case least == 0 && most == 1:
		return "[0-9]?"
	}
	return "[0-9]{" + strconv.Itoa(least) + "," + strconv.Itoa(most) + "}"
}
