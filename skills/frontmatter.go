package skills

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
// a duplicate key), explicit tags deciding (resolve). Values JSON cannot
// carry (.inf, .nan, float keys, non-scalar keys, merge keys, tags outside
// the core schema), a second YAML document and more than
// maxFrontmatterJSON bytes of JSON are errors naming the line.
func frontmatterJSON(content []byte) (json.RawMessage, error) {
	text, first, err := splitFrontmatter(content)
	if err != nil {
		return nil, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(text))
	var doc, more yaml.Node
	if err := dec.Decode(&doc); err != nil {
		return nil, yamlError(err, first)
	}
	// A document end marker ("...") may be followed by a second document,
	// which a host's single-document parser refuses (js-yaml load, PyYAML
	// safe_load) and the entry could not carry: refuse it too.
	switch err := dec.Decode(&more); {
	case errors.Is(err, io.EOF):
	case err != nil:
		return nil, yamlError(err, first)
	default:
		return nil, &lineError{line: first + more.Line - 1, msg: "frontmatter holds a second YAML document (after a \"...\" line); it must be one mapping"}
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
	if err := w.checkSize(n, 0); err != nil {
		return err
	}
	if err := w.collectionTag(n); err != nil {
		return err
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
		if err := w.scalar(n); err != nil {
			return err
		}
	default:
		return w.fail(n, "unsupported YAML node")
	}
	return w.checkSize(n, 0)
}

// collectionTag fails when mapping or sequence n has an explicit tag
// other than its own (!!map, !!seq) or the non-specific "!": a scalar tag
// on a collection (!!str {a: 1}) cannot be satisfied, and other tags have
// no JSON type.
func (w *jsonWriter) collectionTag(n *yaml.Node) error {
	own := map[yaml.Kind]string{yaml.MappingNode: "!!map", yaml.SequenceNode: "!!seq"}[n.Kind]
	if own == "" || !explicitTag(n) || n.Tag == own || n.Tag == nonSpecificTag {
		return nil
	}
	return w.fail(n, "the tag %s cannot be given to a %s", n.Tag, map[string]string{"!!map": "mapping", "!!seq": "sequence"}[own])
}

// checkSize fails when the JSON written so far and more bytes still to
// write exceed maxFrontmatterJSON.
func (w *jsonWriter) checkSize(n *yaml.Node, more int) error {
	if w.buf.Len()+more > maxFrontmatterJSON {
		return w.fail(n, "frontmatter expands to more than %d bytes of JSON", maxFrontmatterJSON)
	}
	return nil
}

// writeString writes s as a JSON string without HTML escaping.
func writeString(buf *bytes.Buffer, s string) {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	buf.Truncate(buf.Len() - 1) // Encode's newline
}
