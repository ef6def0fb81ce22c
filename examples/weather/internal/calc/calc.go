// Package calc evaluates arithmetic expressions such as "2 * (3 + 4)",
// "-2^2", "sin(30)" or "pow(2, 10) / sqrt(16)".
//
// Grammar (whitespace is ignored, identifiers are case-insensitive):
//
//	expr    = term { ("+" | "-") term }
//	term    = unary { ("*" | "/") unary }
//	unary   = ("+" | "-") unary | power
//	power   = primary [ "^" unary ]          (right-associative)
//	primary = number | constant | func "(" [ expr { "," expr } ] ")" | "(" expr ")"
//
// so "^" binds tighter than unary minus (-2^2 = -4) and 2^3^2 = 2^9.
// Trigonometric functions take degrees. Every failure is reported as an
// *Error carrying the byte offset of the offending token.
package calc

import "unicode/utf8"

// MaxLength is the longest accepted expression, in characters.
const MaxLength = 1000

// MaxDepth is the deepest accepted nesting of parentheses, function calls,
// unary operators and exponents.
const MaxDepth = 100

// Eval parses and evaluates expr. The result is always finite.
func Eval(expr string) (float64, error) {
	if n := utf8.RuneCountInString(expr); n > MaxLength {
		pos := 0
		for i := range expr { // byte offset of the first character past the limit
			if pos == MaxLength {
				pos = i
				break
			}
			pos++
		}
		return 0, errorf(pos, "expression too long: %d characters (max %d)", n, MaxLength)
	}
	toks, err := tokenize(expr)
	if err != nil {
		return 0, err
	}
	if toks[0].kind == tokEOF {
		return 0, errorf(0, "empty expression")
	}
	p := &parser{toks: toks}
	v, err := p.expr()
	if err != nil {
		return 0, err
	}
	if t := p.peek(); t.kind != tokEOF {
		return 0, errorf(t.pos, "unexpected %s", t.describe())
	}
	return v, nil
}

type parser struct {
	toks  []token
	i     int
	depth int
}

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tokEOF {
		p.i++
	}
	return t
}

func (p *parser) isOp(ops ...string) bool {
	t := p.peek()
	if t.kind != tokOp {
		return false
	}
	for _, o := range ops {
		if t.text == o {
			return true
		}
	}
	return false
}

// enter records one more nesting level; callers must defer p.leave().
func (p *parser) enter(pos int) error {
	p.depth++
	if p.depth > MaxDepth {
		return errorf(pos, "expression nested too deeply (max %d levels)", MaxDepth)
	}
	return nil
}

func (p *parser) leave() { p.depth-- }

func (p *parser) expr() (float64, error) {
	v, err := p.term()
	if err != nil {
		return 0, err
	}
	for p.isOp("+", "-") {
		op := p.next()
		r, err := p.term()
		if err != nil {
			return 0, err
		}
		if op.text == "+" {
			v += r
		} else {
			v -= r
		}
		if err := checkFinite(v, op.pos); err != nil {
			return 0, err
		}
	}
	return v, nil
}

func (p *parser) term() (float64, error) {
	v, err := p.unary()
	if err != nil {
		return 0, err
	}
	for p.isOp("*", "/") {
		op := p.next()
		r, err := p.unary()
		if err != nil {
			return 0, err
		}
		if op.text == "*" {
			v *= r
		} else {
			if r == 0 {
				return 0, errorf(op.pos, "division by zero")
			}
			v /= r
		}
		if err := checkFinite(v, op.pos); err != nil {
			return 0, err
		}
	}
	return v, nil
}

func (p *parser) unary() (float64, error) {
	if !p.isOp("+", "-") {
		return p.power()
	}
	op := p.next()
	if err := p.enter(op.pos); err != nil {
		return 0, err
	}
	defer p.leave()
	v, err := p.unary()
	if err != nil {
		return 0, err
	}
	if op.text == "-" {
		return -v, nil
	}
	return v, nil
}

func (p *parser) power() (float64, error) {
	base, err := p.primary()
	if err != nil || !p.isOp("^") {
		return base, err
	}
	op := p.next()
	if err := p.enter(op.pos); err != nil {
		return 0, err
	}
	defer p.leave()
	exp, err := p.unary()
	if err != nil {
		return 0, err
	}
	return pow(base, exp, op.pos)
}

func (p *parser) primary() (float64, error) {
	t := p.next()
	switch {
	case t.kind == tokNum:
		return t.num, nil
	case t.kind == tokIdent:
		return p.identifier(t)
	case t.kind == tokOp && t.text == "(":
		if err := p.enter(t.pos); err != nil {
			return 0, err
		}
		defer p.leave()
		v, err := p.expr()
		if err != nil {
			return 0, err
		}
		return v, p.closeParen(t)
	case t.kind == tokEOF:
		return 0, errorf(t.pos, "unexpected end of expression")
	default:
		return 0, errorf(t.pos, "unexpected %s", t.describe())
	}
}

// closeParen consumes the ")" matching the "(" token open.
func (p *parser) closeParen(open token) error {
	t := p.peek()
	if t.kind == tokOp && t.text == ")" {
		p.next()
		return nil
	}
	if t.kind == tokEOF {
		return errorf(t.pos, `missing ")" to close "(" at position %d`, open.pos)
	}
	return errorf(t.pos, `expected ")" to close "(" at position %d, found %s`, open.pos, t.describe())
}
