package skills

import (
	"encoding/json"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v4"
)

// The YAML 1.2 core schema's tags a scalar resolves to.
const (
	tagNull  = "!!null"
	tagBool  = "!!bool"
	tagInt   = "!!int"
	tagFloat = "!!float"
	tagStr   = "!!str"
)

// nonSpecificTag is the tag "!": it makes a scalar a string whatever its
// form (! 12 is "12") and leaves a collection as it is.
const nonSpecificTag = "!"

// scalar writes a scalar as the JSON of its value (resolve).
func (w *jsonWriter) scalar(n *yaml.Node) error {
	text, tag, err := w.resolve(n)
	if err != nil {
		return err
	}
	if tag == tagStr {
		writeString(&w.buf, text)
	} else {
		w.buf.WriteString(text)
	}
	return nil
}

// key is the JSON member name of mapping key n: a string key as it is,
// a null, boolean or integer key as the JSON text of its value (the
// integer key 0x10 is "16", as hosts render a YAML mapping whose key is
// the integer 16 as a JSON object). A float key has no single spelling
// across hosts (1.0 is "1" to one, "1.0" to another) and is an error.
func (w *jsonWriter) key(n *yaml.Node) (string, error) {
	text, tag, err := w.resolve(n)
	if err != nil {
		return "", err
	}
	if tag == tagFloat {
		return "", w.fail(n, "the mapping key %s is a number with a fraction or exponent, which JSON cannot carry as a member name; quote it (\"%s\")", n.Value, n.Value)
	}
	return text, nil
}

// explicitTag reports whether n carries a tag its author wrote.
func explicitTag(n *yaml.Node) bool {
	return n.Style&yaml.TaggedStyle != 0 || n.Tag == nonSpecificTag
}

// resolve types scalar n by the YAML 1.2 core schema (yaml.org/spec/1.2.2
// §10.3), as hosts' YAML parsers do. An explicit tag decides whatever the
// scalar's style: "!" and !!str make a string (! 12 is "12"); !!null,
// !!bool, !!int and !!float require a value of their form (!!int "3" is
// the integer 3, !!int abc is an error), and !!float takes an integer too.
// Any other tag (!!timestamp, !!binary, a local tag such as !env) is an
// error: hosts read it differently or refuse it, and JSON has no type for
// it. Without a tag, quoted and block scalars are strings and plain
// scalars resolve by their form (plain). text is the string for a string,
// else the JSON of the value: null, true, 16, 1.5.
func (w *jsonWriter) resolve(n *yaml.Node) (text, tag string, err error) {
	if !explicitTag(n) {
		if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
			return n.Value, tagStr, nil
		}
		return w.plain(n)
	}
	switch n.Tag {
	case nonSpecificTag, tagStr:
		return n.Value, tagStr, nil
	case tagNull, tagBool, tagInt, tagFloat:
	default:
		return "", "", w.fail(n, "the tag %s is not one of the YAML 1.2 core schema's (!!str, !!int, !!float, !!bool, !!null), which hosts read alike; remove it", n.Tag)
	}
	text, tag, err = w.plain(n)
	if err != nil {
		return "", "", err
	}
	switch {
	case tag == n.Tag:
		return text, tag, nil
	case n.Tag == tagFloat && tag == tagInt:
		return w.float(n, text)
	}
	return "", "", w.fail(n, "%q cannot be read as %s (the tag %s requires a value of its form)", n.Value, n.Tag, n.Tag)
}

// plain resolves the text of n as a plain scalar of the core schema.
func (w *jsonWriter) plain(n *yaml.Node) (text, tag string, err error) {
	v := n.Value
	switch {
	case v == "" || v == "~" || v == "null" || v == "Null" || v == "NULL":
		return "null", tagNull, nil
	case v == "true" || v == "True" || v == "TRUE":
		return "true", tagBool, nil
	case v == "false" || v == "False" || v == "FALSE":
		return "false", tagBool, nil
	case coreDecimal.MatchString(v):
		return decimalInt(v), tagInt, nil
	case coreOctal.MatchString(v):
		return w.bigInt(n, v[2:], 8)
	case coreHex.MatchString(v):
		return w.bigInt(n, v[2:], 16)
	case coreFloat.MatchString(v):
		return w.float(n, v)
	case coreInfNaN.MatchString(v):
		return "", "", w.fail(n, "%s cannot be represented in JSON", v)
	}
	return v, tagStr, nil
}

// float is the JSON of the float whose decimal text is v.
func (w *jsonWriter) float(n *yaml.Node, v string) (text, tag string, err error) {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsInf(f, 0) {
		return "", "", w.fail(n, "number %s is out of range", n.Value)
	}
	if f == 0 && math.Signbit(f) {
		return "-0.0", tagFloat, nil // json.Marshal's "-0" would read back as the integer 0
	}
	b, _ := json.Marshal(f)
	return string(b), tagFloat, nil
}

// decimalInt is the JSON of a core-schema decimal integer: its digits
// without a plus sign or leading zeros, in time linear in its length.
func decimalInt(v string) string {
	neg := strings.HasPrefix(v, "-")
	digits := strings.TrimLeft(strings.TrimLeft(v, "+-"), "0")
	switch {
	case digits == "":
		return "0"
	case neg:
		return "-" + digits
	}
	return digits
}

// bigInt is the JSON of the integer whose digits in base 8 or 16 are
// given. Its decimal text is first checked against maxFrontmatterJSON, so
// that no conversion outgrows the bound (converting megabytes of digits
// takes seconds).
func (w *jsonWriter) bigInt(n *yaml.Node, digits string, base int) (text, tag string, err error) {
	if err := w.checkSize(n, int(float64(len(digits))*math.Log10(float64(base)))); err != nil {
		return "", "", err
	}
	var i big.Int
	i.SetString(digits, base)
	return i.String(), tagInt, nil
}

// The YAML 1.2 core schema's number forms (yaml.org/spec/1.2.2 §10.3.2).
var (
	coreDecimal = regexp.MustCompile(`^[-+]?[0-9]+$`)
	coreOctal   = regexp.MustCompile(`^0o[0-7]+$`)
	coreHex     = regexp.MustCompile(`^0x[0-9a-fA-F]+$`)
	coreFloat   = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)
	coreInfNaN  = regexp.MustCompile(`^([-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN))$`)
)
