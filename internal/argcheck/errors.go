package argcheck

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// ValidationError lists every way the arguments of a call failed their schema.
type ValidationError struct {
	Problems []Problem
}

// Problem is one failed rule.
type Problem struct {
	// Pointer is the JSON pointer (RFC 6901) of the offending value; "" is
	// the arguments object itself. For a missing property it points at the
	// property that should exist.
	Pointer string
	// Keyword is the JSON Schema keyword that failed ("required", "enum",
	// "type", …) or "json" when the arguments are not valid JSON.
	Keyword string
	// Message says what is wrong in words a model can act on.
	Message string
}

// Error renders all problems on one line, e.g.
// `invalid arguments: /location: required property is missing; /units: value "rankine" is not one of ["metric","imperial"]`.
func (e *ValidationError) Error() string {
	var b strings.Builder
	b.WriteString("invalid arguments: ")
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(p.String())
	}
	return b.String()
}

// String renders the problem as "pointer: message"; the root is "(root)".
func (p Problem) String() string {
	at := p.Pointer
	if at == "" {
		at = "(root)"
	}
	return at + ": " + p.Message
}

var printer = message.NewPrinter(language.English)

// rat prints a number the way JSON would: integers without a fraction.
func rat(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}

var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

func escape(tok string) string { return pointerEscaper.Replace(tok) }

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
