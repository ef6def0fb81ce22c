package bind

import (
	"go/ast"
	"go/token"
	"slices"
	"strconv"
	"strings"
)

// directivePrefix starts every mcpgen directive line.
const directivePrefix = "//mcp:"

// Directive kinds.
const (
	kindTool     = "tool"
	kindPrompt   = "prompt"
	kindResource = "resource"
	kindTemplate = "resourceTemplate"
)

// keySpec describes one key a directive accepts.
type keySpec struct {
	name   string
	flag   bool // bare key means true; key=true / key=false also accepted
	repeat bool // may appear more than once
}

var directiveKeys = map[string][]keySpec{
	kindTool: {
		{name: "name"}, {name: "title"}, {name: "icon", repeat: true},
		{name: "readOnly", flag: true}, {name: "destructive", flag: true},
		{name: "idempotent", flag: true}, {name: "openWorld", flag: true}, {name: "scopes"},
		{name: "taskSupport"}, {name: "meta"}, {name: "inputSchema"}, {name: "outputSchema"},
	},
	kindPrompt:   {{name: "name"}, {name: "title"}, {name: "icon", repeat: true}, {name: "scopes"}, {name: "complete"}},
	kindResource: {{name: "uri"}, {name: "name"}, {name: "title"}, {name: "mimeType"}, {name: "icon", repeat: true}, {name: "scopes"}},
	kindTemplate: {{name: "uriTemplate"}, {name: "name"}, {name: "title"}, {name: "mimeType"}, {name: "icon", repeat: true}, {name: "scopes"}, {name: "complete"}},
}

var directiveKinds = []string{kindTool, kindPrompt, kindResource, kindTemplate}

// directive is one parsed //mcp: line.
type directive struct {
	kind  string
	pos   token.Position // of the leading "//"
	items []item
}

// item is one key, key=value or key="quoted value" of a directive.
type item struct {
	key      string
	value    string
	hasValue bool
	pos      token.Position // of the key
}

// first returns the first item with the given key.
func (d *directive) first(key string) (item, bool) {
	for _, it := range d.items {
		if it.key == key {
			return it, true
		}
	}
	return item{}, false
}

// value returns the value of key, or "".
func (d *directive) value(key string) string {
	it, _ := d.first(key)
	return it.value
}

// values returns every value of a repeatable key.
func (d *directive) values(key string) []string {
	var out []string
	for _, it := range d.items {
		if it.key == key {
			out = append(out, it.value)
		}
	}
	return out
}

// flag returns the value of a flag key: nil when absent.
func (d *directive) flag(key string) *bool {
	it, ok := d.first(key)
	if !ok {
		return nil
	}
	v := !it.hasValue || it.value == "true"
	return &v
}

// isDirective reports whether a comment is an mcpgen directive.
func isDirective(c *ast.Comment) bool {
	return strings.HasPrefix(c.Text, directivePrefix)
}

// spacedDirective reports a comment that reads like a directive with a
// space after the slashes ("// mcp:tool …"), which Go treats as prose: it
// would silently bind nothing. It returns the kind it names.
func spacedDirective(c *ast.Comment) (string, bool) {
	rest, ok := strings.CutPrefix(c.Text, "//")
	if !ok || rest == "" || !isSpace(rest[0]) {
		return "", false
	}
	rest, ok = strings.CutPrefix(strings.TrimLeft(rest, " \t"), "mcp:")
	if !ok {
		return "", false
	}
	kind, _, _ := strings.Cut(rest, " ")
	return kind, slices.Contains(directiveKinds, kind) || suggest(kind, directiveKinds) != ""
}

// parseDirective parses one directive comment, reporting problems to errs.
// It returns nil when the directive kind is unknown.
func parseDirective(fset *token.FileSet, c *ast.Comment, errs *ErrorList) *directive {
	base := fset.Position(c.Slash)
	at := func(off int) token.Position {
		p := base
		p.Offset += off
		p.Column += off
		return p
	}
	text := c.Text
	i := len(directivePrefix)
	start := i
	for i < len(text) && !isSpace(text[i]) {
		i++
	}
	kind := text[start:i]
	specs, ok := directiveKeys[kind]
	if !ok {
		msg := "unknown directive //mcp:" + kind
		if s := suggest(kind, directiveKinds); s != "" {
			msg += " (did you mean //mcp:" + s + "?)"
		} else {
			msg += " (known: //mcp:tool, //mcp:prompt, //mcp:resource, //mcp:resourceTemplate)"
		}
		errs.add(at(0), "%s", msg)
		return nil
	}
	d := &directive{kind: kind, pos: base}
	seen := map[string]bool{}
	for {
		for i < len(text) && isSpace(text[i]) {
			i++
		}
		if i >= len(text) {
			break
		}
		keyStart := i
		for i < len(text) && isKeyChar(text[i]) {
			i++
		}
		key := text[keyStart:i]
		if key == "" {
			errs.add(at(i), "unexpected %q in //mcp:%s directive: want key, key=value or key=\"quoted value\"", text[i], kind)
			return d
		}
		it := item{key: key, pos: at(keyStart)}
		if i < len(text) && text[i] == '=' {
			i++
			it.hasValue = true
			switch {
			case i < len(text) && text[i] == '"':
				end, val, problem := scanQuoted(text, i)
				if problem != "" {
					errs.add(at(i), "%s quoted value for key %s", problem, key)
					return d
				}
				it.value, i = val, end
				if i < len(text) && !isSpace(text[i]) {
					errs.add(at(i), "unexpected %q after the quoted value of key %s: separate items with spaces", text[i], key)
					return d
				}
			default:
				vs := i
				for i < len(text) && !isSpace(text[i]) {
					i++
				}
				it.value = text[vs:i]
				if it.value == "" {
					errs.add(it.pos, "missing value for key %s: write %s=value or %s=\"quoted value\"", key, key, key)
					continue
				}
			}
		} else if i < len(text) && !isSpace(text[i]) {
			errs.add(at(i), "unexpected %q after key %s: want key, key=value or key=\"quoted value\"", text[i], key)
			for i < len(text) && !isSpace(text[i]) {
				i++
			}
			continue
		}
		spec, known := findKey(specs, key)
		switch {
		case !known && !it.hasValue && len(d.items) > 0 && d.items[len(d.items)-1].hasValue && suggest(key, keyNames(specs)) == "":
			prev := d.items[len(d.items)-1]
			errs.add(it.pos, "unexpected word %q in //mcp:%s directive: a value with spaces must be quoted, e.g. %s=\"%s %s\"", key, kind, prev.key, prev.value, key)
			continue
		case !known:
			errs.add(it.pos, "%s", unknownKeyMessage(kind, key, specs))
			continue
		case seen[key] && !spec.repeat:
			errs.add(it.pos, "duplicate key %s in //mcp:%s directive", key, kind)
			continue
		case spec.flag && it.hasValue && it.value != "true" && it.value != "false":
			errs.add(it.pos, "key %s is a flag: write %s, %s=true or %s=false, not %s=%s", key, key, key, key, key, it.value)
			continue
		case !spec.flag && !it.hasValue:
			errs.add(it.pos, "missing value for key %s: write %s=value or %s=\"quoted value\"", key, key, key)
			continue
		}
		seen[key] = true
		d.items = append(d.items, it)
	}
	return d
}

// scanQuoted scans a Go-syntax double-quoted string starting at text[i]
// and returns the offset after it and its unquoted value, or a problem
// ("unterminated" or "invalid").
func scanQuoted(text string, i int) (end int, val, problem string) {
	j := i + 1
	for j < len(text) {
		switch text[j] {
		case '\\':
			j += 2
			continue
		case '"':
			v, err := strconv.Unquote(text[i : j+1])
			if err != nil {
				return 0, "", "invalid"
			}
			return j + 1, v, ""
		}
		j++
	}
	return 0, "", "unterminated"
}

func findKey(specs []keySpec, key string) (keySpec, bool) {
	for _, s := range specs {
		if s.name == key {
			return s, true
		}
	}
	return keySpec{}, false
}

func keyNames(specs []keySpec) []string {
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = s.name
	}
	return names
}

func unknownKeyMessage(kind, key string, specs []keySpec) string {
	names := keyNames(specs)
	msg := "unknown key " + key + " in //mcp:" + kind + " directive"
	if s := suggest(key, names); s != "" {
		return msg + " (did you mean " + s + "?)"
	}
	return msg + " (known keys: " + strings.Join(names, ", ") + ")"
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\r' || b == '\n' }

func isKeyChar(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || b == '_'
}
