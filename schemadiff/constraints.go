package schemadiff

import (
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/schema"
)

// undeclaredMembers says what a struct does with members its schema does
// not declare, which decides both its Go API (an Extra field for an open
// object) and what its decoder accepts: kept (JSON Schema's default),
// refused (additionalProperties: false), or taken as values of a type
// (additionalProperties: {…}, or a _meta object).
func undeclaredMembers(t *schema.Type) string {
	switch {
	case t.Closed:
		return "refused (additionalProperties: false)"
	case t.Open && t.Extra == nil:
		return "any value (additionalProperties)"
	case t.Open:
		return refString(t.Extra) + " (additionalProperties)"
	}
	return "kept"
}

// bounds renders the constraints the generated code enforces on a value
// beyond its type, in schema words: "format uri, minimum 1, maximum 10".
// Empty when there are none.
func bounds(format string, minimum, maximum *float64) string {
	var parts []string
	if format != "" {
		parts = append(parts, "format "+format)
	}
	if minimum != nil {
		parts = append(parts, "minimum "+number(*minimum))
	}
	if maximum != nil {
		parts = append(parts, "maximum "+number(*maximum))
	}
	return strings.Join(parts, ", ")
}

// checkString renders the Check of an array element or map value:
// `("a" | "b")`, `(1 | 2)`, `(minimum 0)`; empty for none.
func checkString(c *schema.Check) string {
	if c == nil {
		return ""
	}
	var parts []string
	if len(c.Enum) > 0 {
		parts = append(parts, strings.Join(quoteAll(c.Enum), " | "))
	}
	if len(c.Literals) > 0 {
		parts = append(parts, strings.Join(c.Literals, " | "))
	}
	if b := bounds("", c.Minimum, c.Maximum); b != "" {
		parts = append(parts, b)
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// scalarString renders what a scalar, alias, map or array type holds,
// with the values it allows: "integer (minimum 1)", "string (format uri)".
func scalarString(t *schema.Type) string {
	s := refString(t.Elem)
	var parts []string
	if len(t.Literals) > 0 {
		parts = append(parts, strings.Join(t.Literals, " | "))
	}
	if b := bounds(t.Format, t.Minimum, t.Maximum); b != "" {
		parts = append(parts, b)
	}
	if len(parts) > 0 {
		s += " (" + strings.Join(parts, ", ") + ")"
	}
	return s
}

func number(f float64) string {
	return strconv.FormatFloat(f, 'g', -1, 64)
}
