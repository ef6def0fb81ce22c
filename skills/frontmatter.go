package skills

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v4"
)

// maxFrontmatterJSON bounds the JSON a frontmatter may expand to (aliases
// can multiply a small document).
const maxFrontmatterJSON = 1 << 20

// splitFrontmatter returns the YAML between a SKILL.md's leading "---" line
// and the next "---" line, the line the YAML starts on, and the body after
// it. A UTF-8 BOM and CRLF line ends are accepted.
func splitFrontmatter(content []byte) (yamlText []byte, firstLine int, err error) {
	text := bytes.TrimPrefix(content, []byte("\xef\xbb\xbf"))
	line, rest, ok := bytes.Cut(text, []byte("\n"))
	if !ok || string(bytes.TrimRight(line, " \t\r")) != "---" {
		return nil, 0, errors.New("SKILL.md must begin with YAML frontmatter: a line \"---\", the YAML, and a closing line \"---\"")
	}
	var body []byte
	for len(rest) > 0 {
		l, next, _ := bytes.Cut(rest, []byte("\n"))
		if string(bytes.TrimRight(l, " \t\r")) == "---" {
			return body, 2, nil
		}
		body = append(body, l...)
		body = append(body, '\n')
		rest = next
	}
	return nil, 0, errors.New("SKILL.md frontmatter has no closing \"---\" line")
}

// frontmatterJSON parses a SKILL.md's frontmatter with go.yaml.in/yaml/v4
// and renders it verbatim as a JSON object: keys in the author's order,
// scalars typed by the YAML 1.2 core schema (what hosts' YAML parsers do:
// a date stays a string, "yes" stays a string), mapping keys too (the key
// 0x10 is the integer 16, the member "16"; 16 and 0x10 in one mapping are
// a duplicate key). Values JSON cannot carry (.inf, .nan, float keys,
// non-scalar keys, merge keys) are errors naming the line.
func frontmatterJSON(content []byte) (json.RawMessage, error) {
	text, first, err := splitFrontmatter(content)
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(text, &doc); err != nil {
		return nil, yamlError(err, first)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, &lineError{line: first, msg: "frontmatter must be a YAML mapping (name: …, description: …)"}
	}
	w := &jsonWriter{first: first}
	if err := w.node(doc.Content[0], 0); err != nil {
		return nil, err
	}
	return json.RawMessage(w.buf.Bytes()), nil
}

type jsonWriter struct {
	buf   bytes.Buffer
	first int // file line of YAML line 1
}

func (w *jsonWriter) fail(n *yaml.Node, format string, args ...any) error {
	return &lineError{line: w.first + n.Line - 1, msg: "frontmatter: " + fmt.Sprintf(format, args...)}
}

// lineError is a problem at a line of SKILL.md (1-based, counting the
// opening "---" as line 1); load reports it as path:line.
type lineError struct {
	line int
	msg  string
}

func (e *lineError) Error() string { return fmt.Sprintf("line %d: %s", e.line, e.msg) }

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): `)

// yamlError turns the parser's error, whose lines count from the YAML's
// first line, into a lineError in SKILL.md's lines.
func yamlError(err error, first int) error {
	msg := err.Error()
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		return &lineError{line: first + n - 1, msg: "frontmatter is not valid YAML: " + msg[len(m[0]):]}
	}
	return &lineError{line: first, msg: "frontmatter is not valid YAML: " + strings.TrimPrefix(msg, "yaml: ")}
}

func (w *jsonWriter) node(n *yaml.Node, depth int) error {
	if depth > 64 {
		return w.fail(n, "nested too deeply")
	}
	if w.buf.Len() > maxFrontmatterJSON {
		return w.fail(n, "frontmatter expands to more than %d bytes of JSON", maxFrontmatterJSON)
	}
	switch n.Kind {
	case yaml.AliasNode:
		return w.node(n.Alias, depth+1)
	case yaml.MappingNode:
		w.buf.WriteByte('{')
		seen := map[string]bool{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			for k.Kind == yaml.AliasNode {
				k = k.Alias
			}
			if k.Kind != yaml.ScalarNode {
				return w.fail(k, "a mapping key must be a scalar")
			}
			if k.Tag == "!!merge" {
				return w.fail(k, "merge keys (<<) are not supported in frontmatter")
			}
			name, err := w.key(k)
			if err != nil {
				return err
			}
			if seen[name] {
				if name != k.Value {
					return w.fail(k, "duplicate key %q (read as %q, like an earlier key)", k.Value, name)
				}
				return w.fail(k, "duplicate key %q", k.Value)
			}
			seen[name] = true
			if i > 0 {
				w.buf.WriteByte(',')
			}
			writeString(&w.buf, name)
			w.buf.WriteByte(':')
			if err := w.node(v, depth+1); err != nil {
				return err
			}
		}
		w.buf.WriteByte('}')
	case yaml.SequenceNode:
		w.buf.WriteByte('[')
		for i, c := range n.Content {
			if i > 0 {
				w.buf.WriteByte(',')
			}
			if err := w.node(c, depth+1); err != nil {
				return err
			}
		}
		w.buf.WriteByte(']')
	case yaml.ScalarNode:
		return w.scalar(n)
	default:
		return w.fail(n, "unsupported YAML node")
	}
	return nil
}

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

// The YAML 1.2 core schema's tags a scalar resolves to.
const (
	tagNull  = "!!null"
	tagBool  = "!!bool"
	tagInt   = "!!int"
	tagFloat = "!!float"
	tagStr   = "!!str"
)

// resolve types scalar n: quoted and block scalars and !!str are strings
// (text is the string); plain scalars resolve by the YAML 1.2 core schema
// (text is the JSON of the value: null, true, 16, 1.5).
func (w *jsonWriter) resolve(n *yaml.Node) (text, tag string, err error) {
	quoted := n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0
	explicit := n.Style&yaml.TaggedStyle != 0
	if quoted || (explicit && n.Tag == tagStr) {
		return n.Value, tagStr, nil
	}
	v := n.Value
	switch {
	case v == "" || v == "~" || v == "null" || v == "Null" || v == "NULL":
		return "null", tagNull, nil
	case v == "true" || v == "True" || v == "TRUE":
		return "true", tagBool, nil
	case v == "false" || v == "False" || v == "FALSE":
		return "false", tagBool, nil
	case coreDecimal.MatchString(v):
		return bigInt(strings.TrimPrefix(v, "+"), 10), tagInt, nil
	case coreOctal.MatchString(v):
		return bigInt(v[2:], 8), tagInt, nil
	case coreHex.MatchString(v):
		return bigInt(v[2:], 16), tagInt, nil
	case coreFloat.MatchString(v):
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsInf(f, 0) {
			return "", "", w.fail(n, "number %s is out of range", v)
		}
		if f == 0 && math.Signbit(f) {
			return "-0.0", tagFloat, nil // json.Marshal's "-0" would read back as the integer 0
		}
		b, _ := json.Marshal(f)
		return string(b), tagFloat, nil
	case coreInfNaN.MatchString(v):
		return "", "", w.fail(n, "%s cannot be represented in JSON", v)
	}
	return v, tagStr, nil
}

// bigInt is the decimal text of the integer digits in base.
func bigInt(digits string, base int) string {
	var i big.Int
	i.SetString(digits, base)
	return i.String()
}

// The YAML 1.2 core schema's number forms (yaml.org/spec/1.2.2 §10.3.2).
var (
	coreDecimal = regexp.MustCompile(`^[-+]?[0-9]+$`)
	coreOctal   = regexp.MustCompile(`^0o[0-7]+$`)
	coreHex     = regexp.MustCompile(`^0x[0-9a-fA-F]+$`)
	coreFloat   = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)
	coreInfNaN  = regexp.MustCompile(`^([-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN))$`)
)

// writeString writes s as a JSON string without HTML escaping.
func writeString(buf *bytes.Buffer, s string) {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	buf.Truncate(buf.Len() - 1) // Encode's newline
}
