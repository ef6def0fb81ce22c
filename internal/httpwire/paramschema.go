package httpwire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// annotationKey is the JSON Schema extension keyword that mirrors a tool
// argument into an Mcp-Param-{Name} header.
const annotationKey = "x-mcp-header"

// ParamHeadersFromSchema returns the x-mcp-header declarations of a tool
// inputSchema, sorted by header name, and checks every constraint of the
// "Schema Extension" section (server/tools.mdx#x-mcp-header): the value is a
// non-empty RFC 9110 token, case-insensitively unique within the schema, on a
// property of type string, integer or boolean (not number), reached from the
// root through "properties" keys only (never items, anyOf/oneOf/allOf/not,
// if/then/else or $ref). An annotation that breaks a rule makes the whole
// tool definition invalid (clients drop it from tools/list), so the error
// names each offending location. A schema without annotations gives nil.
func ParamHeadersFromSchema(inputSchema json.RawMessage) ([]ParamHeader, error) {
	if !bytes.Contains(inputSchema, []byte(annotationKey)) && !bytes.ContainsRune(inputSchema, '\\') && jsonscan.Valid(inputSchema) {
		return nil, nil // no member can be named x-mcp-header: nothing to decode (NewTool of many tools)
	}
	var root any
	if err := json.Unmarshal(inputSchema, &root); err != nil {
		return nil, fmt.Errorf("httpwire: inputSchema is not valid JSON: %w", err)
	}
	var out []ParamHeader
	var errs []error
	walkSchema(root, nil, true, &out, &errs)
	seen := map[string]string{}
	for _, p := range out {
		key := strings.ToLower(p.Name)
		if prev, dup := seen[key]; dup {
			errs = append(errs, fmt.Errorf("x-mcp-header %q at %s duplicates %q (names must be case-insensitively unique)", p.Name, pathString(p.Path), prev))
		}
		seen[key] = p.Name
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("httpwire: invalid x-mcp-header annotation: %w", errors.Join(errs...))
	}
	slices.SortFunc(out, func(a, b ParamHeader) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// walkSchema visits schema node v at property path; static says whether v
// is reachable from the root through "properties" keys only.
func walkSchema(v any, path []string, static bool, out *[]ParamHeader, errs *[]error) {
	switch node := v.(type) {
	case []any:
		for _, item := range node {
			walkSchema(item, path, false, out, errs)
		}
	case map[string]any:
		if ann, ok := node[annotationKey]; ok {
			if p, err := annotation(node, ann, path, static); err != nil {
				*errs = append(*errs, err)
			} else {
				*out = append(*out, p)
			}
		}
		for _, k := range sortedKeys(node) {
			child := node[k]
			if k == "properties" {
				if props, ok := child.(map[string]any); ok {
					for _, name := range sortedKeys(props) {
						walkSchema(props[name], append(slices.Clip(path), name), static, out, errs)
					}
					continue
				}
			}
			if k != annotationKey {
				walkSchema(child, path, false, out, errs)
			}
		}
	}
}

// annotation validates one x-mcp-header annotation on schema node.
func annotation(node map[string]any, ann any, path []string, static bool) (ParamHeader, error) {
	where := pathString(path)
	name, ok := ann.(string)
	switch {
	case !static || len(path) == 0:
		return ParamHeader{}, fmt.Errorf("x-mcp-header at %s is not on a property reachable through \"properties\" keys only", where)
	case !ok:
		return ParamHeader{}, fmt.Errorf("x-mcp-header at %s is not a string", where)
	case name == "":
		return ParamHeader{}, fmt.Errorf("x-mcp-header at %s is empty", where)
	case !isToken(name):
		return ParamHeader{}, fmt.Errorf("x-mcp-header %q at %s is not an HTTP token (RFC 9110 tchar)", name, where)
	}
	typ := primitiveType(node["type"])
	if typ == "" {
		return ParamHeader{}, fmt.Errorf("x-mcp-header %q at %s is on a property of type %v; only string, integer and boolean are allowed", name, where, node["type"])
	}
	return ParamHeader{Name: name, Path: slices.Clone(path), Type: typ}, nil
}

// primitiveType returns "string", "integer" or "boolean" when a JSON
// Schema "type" value is one of them, alone or paired with "null" (a null
// value means the header is omitted); otherwise "".
func primitiveType(t any) string {
	var types []string
	switch v := t.(type) {
	case string:
		types = []string{v}
	case []any:
		for _, e := range v {
			if s, ok := e.(string); ok && s != "null" {
				types = append(types, s)
			} else if !ok {
				return ""
			}
		}
	}
	if len(types) != 1 {
		return ""
	}
	switch types[0] {
	case "string", "integer", "boolean":
		return types[0]
	}
	return ""
}

// isToken reports whether s is an RFC 9110 token (1*tchar).
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

func pathString(path []string) string {
	if len(path) == 0 {
		return "the schema root"
	}
	return "properties." + strings.Join(path, ".properties.")
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
