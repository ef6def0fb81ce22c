package httpwire

import (
	"math/big"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// ParamHeader declares one tool argument mirrored into an HTTP header by an
// x-mcp-header annotation in the tool's inputSchema ("Custom Headers from
// Tool Parameters" section; server/tools.mdx#x-mcp-header).
type ParamHeader struct {
	// Name is the x-mcp-header value; the header is "Mcp-Param-" + Name.
	Name string
	// Path is the chain of "properties" keys from the schema root to the
	// annotated property, e.g. ["region"] or ["target", "region"].
	Path []string
	// Type is the property's JSON Schema type: "string", "integer" or
	// "boolean".
	Type string
}

// HeaderKey returns the header name for p: "Mcp-Param-" + p.Name.
func (p ParamHeader) HeaderKey() string { return ParamHeaderPrefix + p.Name }

// argValue returns the raw value at path in the raw tools/call arguments,
// read with the runtime's scanner (exact member names, as the tool's
// binding reads them); nil when the path has no value or a null one. dup
// is true when an object on the path repeats a member name: the body then
// has no single value to compare with.
func argValue(args []byte, path []string) (raw []byte, dup bool) {
	cur := args
	for _, key := range path {
		var next []byte
		_, repeated, ok := jsonscan.Members(cur, func(k, v []byte) {
			if string(k) == key {
				next = v
			}
		})
		if repeated {
			return nil, true
		}
		if !ok || next == nil {
			return nil, false
		}
		cur = next
	}
	if jsonscan.IsNullOrAbsent(cur) {
		return nil, false
	}
	return cur, false
}

// checkParamHeaders applies the Mcp-Param-{Name} rules ("Server Behavior for
// Custom Headers" table): a value in the body requires the header and they
// must match after decoding; a missing or null value must come without the
// header. Headers for undeclared names are ignored.
func checkParamHeaders(h http.Header, decls []ParamHeader, rawArgs []byte) *Rejection {
	for _, d := range decls {
		key := d.HeaderKey()
		vals, present := headerValues(h, key)
		body, dup := argValue(rawArgs, d.Path)
		if dup {
			return mismatch(key, "Header mismatch: the body repeats a member on the path of argument %q", strings.Join(d.Path, "."))
		}
		if body == nil {
			if present {
				return mismatch(key, "Header mismatch: %s header is present but the body has no value for argument %q", key, strings.Join(d.Path, "."))
			}
			continue
		}
		if !present {
			return mismatch(key, "Header mismatch: missing %s header for argument %q that is present in the body", key, strings.Join(d.Path, "."))
		}
		raw, rej := singleValue(key, vals)
		if rej != nil {
			return rej
		}
		got, err := DecodeHeaderValue(raw)
		if err != nil {
			return mismatch(key, "Header mismatch: %s header value %s is malformed: %v", key, clip(raw), err)
		}
		if !paramMatches(got, body) {
			return mismatch(key, "Header mismatch: %s header value %s does not match body value %s", key, clip(got), clip(string(body)))
		}
	}
	return nil
}

// paramMatches compares a decoded header value with the body value by the
// body value's JSON type ("Value Encoding": strings as-is, integers in
// decimal, booleans as lowercase true/false; "Server Validation" note:
// integers SHOULD compare numerically, so "42.0" matches 42).
func paramMatches(header string, body []byte) bool {
	switch jsonscan.Kind(body) {
	case '"':
		v, ok := jsonscan.String(body)
		return ok && header == v
	case 't', 'f':
		return header == string(body)
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return numbersEqual(header, string(body))
	}
	return false // objects and arrays cannot be mirrored
}

// numberPattern is the JSON number grammar.
var numberPattern = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$`)

// maxNumberLen bounds the numbers compared; it keeps big.Rat cheap.
const maxNumberLen = 64

// maxExponent bounds the exponent of compared numbers for the same reason.
const maxExponent = 400

// numbersEqual compares two decimal number strings exactly.
func numbersEqual(a, b string) bool {
	ra, ok := parseNumber(a)
	if !ok {
		return false
	}
	rb, ok := parseNumber(b)
	return ok && ra.Cmp(rb) == 0
}

func parseNumber(s string) (*big.Rat, bool) {
	if len(s) > maxNumberLen || !numberPattern.MatchString(s) {
		return nil, false
	}
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		exp, err := strconv.Atoi(strings.TrimPrefix(s[i+1:], "+"))
		if err != nil || exp > maxExponent || exp < -maxExponent {
			return nil, false
		}
	}
	r, ok := new(big.Rat).SetString(s)
	return r, ok
}
