package calc

import (
	"fmt"
	"math"
	"strings"
)

var constants = map[string]float64{
	"pi": math.Pi,
	"e":  math.E,
}

type function struct {
	arity int
	call  func(args []float64, pos int) (float64, error)
}

var functions map[string]function

func init() {
	functions = map[string]function{
		"sin":  {1, func(a []float64, pos int) (float64, error) { return trig("sin", a[0], pos) }},
		"cos":  {1, func(a []float64, pos int) (float64, error) { return trig("cos", a[0], pos) }},
		"tan":  {1, func(a []float64, pos int) (float64, error) { return trig("tan", a[0], pos) }},
		"sqrt": {1, sqrt},
		"pow":  {2, func(a []float64, pos int) (float64, error) { return pow(a[0], a[1], pos) }},
	}
}

// identifier evaluates a constant or a function call whose name token is t.
func (p *parser) identifier(t token) (float64, error) {
	name := strings.ToLower(t.text)
	if v, ok := constants[name]; ok {
		if p.isOp("(") {
			return 0, errorf(p.peek().pos, "%s is a constant, not a function", t.text)
		}
		return v, nil
	}
	fn, ok := functions[name]
	if !ok {
		return 0, errorf(t.pos, "unknown identifier %q (known: sin, cos, tan, sqrt, pow, pi, e)", t.text)
	}
	if !p.isOp("(") {
		return 0, errorf(p.peek().pos, "expected \"(\" after function %s, found %s", t.text, p.peek().describe())
	}
	open := p.next()
	if err := p.enter(open.pos); err != nil {
		return 0, err
	}
	defer p.leave()
	var args []float64
	if !p.isOp(")") {
		for {
			v, err := p.expr()
			if err != nil {
				return 0, err
			}
			args = append(args, v)
			if !p.isOp(",") {
				break
			}
			p.next()
		}
	}
	if err := p.closeParen(open); err != nil {
		return 0, err
	}
	if len(args) != fn.arity {
		return 0, errorf(t.pos, "%s takes %s, got %d", name, plural(fn.arity, "argument"), len(args))
	}
	return fn.call(args, t.pos)
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// trig evaluates sin, cos or tan of deg degrees. The angle is reduced modulo
// 360 first; results within 1e-12 of 0, ±0.5 or ±1 are snapped to that value
// so that e.g. cos(90) is exactly 0 and sin(30) exactly 0.5.
func trig(name string, deg float64, pos int) (float64, error) {
	r := math.Mod(deg, 360)
	rad := r * math.Pi / 180
	var v float64
	switch name {
	case "sin":
		v = math.Sin(rad)
	case "cos":
		v = math.Cos(rad)
	default:
		if m := math.Mod(deg, 180); m == 90 || m == -90 {
			return 0, errorf(pos, "tan is undefined at %s degrees", Format(deg))
		}
		v = math.Tan(rad)
	}
	for _, s := range [...]float64{0, 0.5, -0.5, 1, -1} {
		if math.Abs(v-s) < 1e-12 {
			v = s
			break
		}
	}
	return v, checkFinite(v, pos)
}

func sqrt(a []float64, pos int) (float64, error) {
	if a[0] < 0 {
		return 0, errorf(pos, "sqrt of negative number %s", Format(a[0]))
	}
	return math.Sqrt(a[0]), nil
}

// pow computes base^exp, reporting errors at pos.
func pow(base, exp float64, pos int) (float64, error) {
	if base == 0 && exp < 0 {
		return 0, errorf(pos, "division by zero (0 raised to a negative power)")
	}
	v := math.Pow(base, exp)
	if math.IsNaN(v) {
		return 0, errorf(pos, "result is not a real number (%s raised to %s)", Format(base), Format(exp))
	}
	return v, checkFinite(v, pos)
}

// checkFinite reports NaN or ±Inf results as an overflow error at pos.
func checkFinite(v float64, pos int) error {
	switch {
	case math.IsNaN(v):
		return errorf(pos, "result is not a number")
	case math.IsInf(v, 0):
		return errorf(pos, "result overflows (not a finite number)")
	}
	return nil
}
