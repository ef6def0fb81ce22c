package argcheck

import (
	"math"
	"math/big"
	"strconv"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// Numbers a float cannot hold exactly.
//
// The checker compares a number by its exact decimal value; the decoder
// then hands a float32 or float64 field (or an `any`, which holds a
// float64) strconv.ParseFloat's nearest float. Most literals read back
// as themselves — a float, written as the shortest decimal that reads
// back as it (shortestDecimal: what encoding/json writes), is the
// literal's value again — and then whatever the checker found holds of
// the value the tool receives. A literal with more digits than the float
// has, or below its normal range, may not: 1e-400 becomes 0, which
// "exclusiveMinimum": 0 refused; 0.99999999999999999 becomes 1, which
// "exclusiveMaximum": 1 refused; 9007199254740993 becomes
// 9007199254740992, below "minimum": 9007199254740993 and no multiple of 3.
//
// So the decoder notes each number that does not read back as itself
// (floatNote), and when there are some the arguments are checked again
// with those numbers replaced by the floats' shortest decimals: every
// keyword (minimum, maximum, their exclusive forms, multipleOf, const,
// enum, the combinators) then holds of the values the tool gets, compared
// as the checker compares (exactly), and a problem names the member and
// what the float made of the literal. A decimal the float holds only
// approximately but reads back as (0.1, 19.99) is the literal again and
// costs nothing more; "maximum": 0.1 still lets 0.1 through.
//
// The check again comes after decoding (a type error of decoding is
// reported first, as before) and a refusal leaves the value zero. The
// element-wise path of large arguments checks each element again right
// after decoding it (lazyRun.recheckElement) and the rest at the end: the
// same problems as the whole tape's. A number of a default the shape
// inserts is the schema's own, and is not noted.

// floatNote is a number node whose float does not read back as its
// literal.
type floatNote struct {
	t        *jsonscan.Tape
	node     int
	lit      string // the literal
	shortest string // the float's shortest decimal
	bits     int    // 32 or 64
	at       string // the instance location, set by the checker when it reads the number
}

// floatHolds reports whether f, the float of bits bits that lit (a JSON
// number) reads as, written as its shortest decimal is lit's value again;
// when not, short is that decimal. A literal of at most 15 significant
// digits (6 for a float32: DBL_DIG, FLT_DIG) whose float is normal always
// is, which is decided without allocating; only other literals are
// written and compared.
func floatHolds(lit string, f float64, bits int) (short string, ok bool) {
	digits, sig := 0, 0 // digits from the first nonzero one; up to the last nonzero one
	for k := 0; k < len(lit); k++ {
		c := lit[k]
		if c == 'e' || c == 'E' {
			break
		}
		if c < '0' || c > '9' || (c == '0' && digits == 0) {
			continue // the sign, the point, leading zeros
		}
		digits++
		if c != '0' {
			sig = digits
		}
	}
	if sig == 0 {
		return "", true // zero, of either sign
	}
	maxDigits, minNormal := 15, 0x1p-1022
	if bits == 32 {
		maxDigits, minNormal = 6, 0x1p-126
	}
	if sig <= maxDigits && math.Abs(f) >= minNormal {
		return "", true
	}
	var buf [32]byte
	if text := appendShortestDecimal(buf[:0], f, bits); string(text) == lit {
		// Already the float's shortest decimal, as encoding/json and
		// JSON.stringify write full-precision floats: no allocation.
		return "", true
	}
	short = shortestDecimal(f, bits)
	a, ok1 := new(big.Rat).SetString(lit)
	b, ok2 := new(big.Rat).SetString(short)
	return short, ok1 && ok2 && a.Cmp(b) == 0
}

// shortestDecimal is the shortest decimal that reads back as f, a float
// of bits bits, written as encoding/json writes a float: without an
// exponent from 1e-6 up to 1e21, else with one of at least one digit.
func shortestDecimal(f float64, bits int) string {
	var buf [32]byte
	return string(appendShortestDecimal(buf[:0], f, bits))
}

// appendShortestDecimal appends shortestDecimal(f, bits) to dst.
func appendShortestDecimal(dst []byte, f float64, bits int) []byte {
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		start := len(dst)
		dst = strconv.AppendFloat(dst, f, 'e', -1, bits)
		if s := dst[start:]; len(s) >= 4 && string(s[len(s)-4:len(s)-1]) == "e-0" {
			dst = append(dst[:len(dst)-2], s[len(s)-1]) // 1e-07 is 1e-7
		}
		return dst
	}
	return strconv.AppendFloat(dst, f, 'f', -1, bits)
}

// plainFloat reports, for an ordinary literal, that f, the float of bits
// bits it reads as, reads back as it: at most 15 characters (6 for a
// float32) and a normal float. Inlined, it spares such literals the call
// of noteFloat.
func plainFloat(lit string, f float64, bits int) bool {
	if bits == 64 {
		return len(lit) <= 15 && math.Abs(f) >= 0x1p-1022
	}
	return len(lit) <= 6 && math.Abs(f) >= 0x1p-126
}

// noteFloat notes node i of t, a number literal lit that was decoded into
// a float of bits bits as f, unless f reads back as lit.
func (d *tapeDecoder) noteFloat(t *jsonscan.Tape, i int, lit string, f float64, bits int) {
	if short, ok := floatHolds(lit, f, bits); !ok {
		d.floats = append(d.floats, floatNote{t: t, node: i, lit: lit, shortest: short, bits: bits})
	}
}

// floatsOn returns the notes of nodes of t, keyed by node, or nil.
func floatsOn(t *jsonscan.Tape, notes []floatNote) map[int]*floatNote {
	var m map[int]*floatNote
	for k := range notes {
		if n := &notes[k]; n.t == t {
			if m == nil {
				m = map[int]*floatNote{}
			}
			m[n.node] = n
		}
	}
	return m
}

// explain adds to each problem at a noted number what its float made of
// it: "value 0 must be greater than 0" is otherwise a riddle for 1e-400.
func explain(probs []Problem, nums map[int]*floatNote) []Problem {
	for k := range probs {
		for _, n := range nums {
			if n.at == probs[k].Pointer {
				lit := n.lit
				if len(lit) > 40 {
					lit = lit[:40] + "…"
				}
				probs[k].Message += " (the number " + lit + " is " + n.shortest + " as a Go float" + strconv.Itoa(n.bits) + ")"
				break
			}
		}
	}
	return probs
}

// recheckFloats checks the arguments on t again (with the shape's rules,
// as validateTape does) with the numbers of notes replaced by their
// floats: a *ValidationError when the values the tool received do not
// match the schema.
func (v *Validator) recheckFloats(t *jsonscan.Tape, notes []floatNote) error {
	nums := floatsOn(t, notes)
	if nums == nil {
		return nil // only numbers of defaults, which are the schema's own
	}
	var probs []Problem
	if v.native != nil {
		probs = recheckNative(v.native, t, 0, v.shape.edits(t), nil, nil, nums, nil)
	} else {
		doc := valueOf(t, 0, nil, nums)
		v.shape.apply(doc)
		probs = v.full.Validate(doc)
		for _, n := range nums {
			n.at = pointerTo(t, 0, n.node)
		}
	}
	if len(probs) == 0 {
		return nil
	}
	return &ValidationError{Problems: sortProblems(explain(probs, nums))}
}

// recheckNative is checkFrom with the numbers of nums (nodes of t)
// replaced by their floats' shortest decimals; it returns the problems
// appended to probs, unsorted, and sets the notes' locations.
func recheckNative(s *nativeSchema, t *tape, i int, edits map[int]*objEdit, path []pathTok, lazy *lazyDefer, nums map[int]*floatNote, probs []Problem) []Problem {
	c := checkers.Get().(*checker)
	c.main, c.edits, c.path, c.probs, c.quiet, c.lazy, c.nums = t, edits, append(c.path[:0], path...), probs, 0, lazy, nums
	c.validate(s, t, i)
	probs = c.probs
	c.main, c.edits, c.probs, c.lazy, c.nums = nil, nil, nil, nil, nil
	checkers.Put(c)
	return probs
}
