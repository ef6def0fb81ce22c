package calc

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

type tokenKind int

const (
	tokEOF tokenKind = iota
	tokNum
	tokIdent
	tokOp // one of + - * / ^ ( ) ,
)

type token struct {
	kind tokenKind
	pos  int
	text string
	num  float64
}

// describe renders a token for error messages.
func (t token) describe() string {
	switch t.kind {
	case tokEOF:
		return "end of expression"
	case tokNum:
		return "number " + strconv.Quote(t.text)
	case tokIdent:
		return "identifier " + strconv.Quote(t.text)
	default:
		return strconv.Quote(t.text)
	}
}

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }

// tokenize splits expr into tokens, always ending with a tokEOF token.
func tokenize(expr string) ([]token, error) {
	var toks []token
	i := 0
	for i < len(expr) {
		c := expr[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case strings.IndexByte("+-*/^(),", c) >= 0:
			toks = append(toks, token{kind: tokOp, pos: i, text: string(c)})
			i++
		case isDigit(c) || c == '.' && i+1 < len(expr) && isDigit(expr[i+1]):
			t, err := lexNumber(expr, i)
			if err != nil {
				return nil, err
			}
			toks = append(toks, t)
			i += len(t.text)
		case isLetter(c):
			j := i + 1
			for j < len(expr) && (isLetter(expr[j]) || isDigit(expr[j])) {
				j++
			}
			toks = append(toks, token{kind: tokIdent, pos: i, text: expr[i:j]})
			i = j
		default:
			r, _ := utf8.DecodeRuneInString(expr[i:])
			if r == utf8.RuneError {
				return nil, errorf(i, "invalid UTF-8 byte 0x%02x", c)
			}
			return nil, errorf(i, "unexpected character %q", r)
		}
	}
	return append(toks, token{kind: tokEOF, pos: len(expr)}), nil
}

// lexNumber scans digits [. digits] [(e|E) [+-] digits] starting at i.
// An 'e' not followed by an exponent is left for the identifier lexer.
func lexNumber(expr string, i int) (token, error) {
	j := i
	for j < len(expr) && isDigit(expr[j]) {
		j++
	}
	if j < len(expr) && expr[j] == '.' {
		j++
		for j < len(expr) && isDigit(expr[j]) {
			j++
		}
	}
	if j < len(expr) && (expr[j] == 'e' || expr[j] == 'E') {
		k := j + 1
		if k < len(expr) && (expr[k] == '+' || expr[k] == '-') {
			k++
		}
		if k < len(expr) && isDigit(expr[k]) {
			for k < len(expr) && isDigit(expr[k]) {
				k++
			}
			j = k
		}
	}
	text := expr[i:j]
	v, err := strconv.ParseFloat(text, 64)
	if err != nil && !(errors.Is(err, strconv.ErrRange) && !math.IsInf(v, 0)) {
		if errors.Is(err, strconv.ErrRange) {
			return token{}, errorf(i, "number %s is too large", text)
		}
		return token{}, errorf(i, "invalid number %q", text)
	}
	return token{kind: tokNum, pos: i, text: text, num: v}, nil
}
