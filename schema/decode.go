package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// decoder builds the nodes of a schema file from its one parse (a
// jsonscan tape): every value is read once, nesting deeper than MaxDepth
// is refused as it is met, without reading the subtree below, and every
// problem is located by the file's line and column and by JSON pointer.
type decoder struct {
	file string
	t    *jsonscan.Tape
	errs ErrorList
}

// decodeFile reads a schema file's definitions: those of "$defs" (prefix
// "#/$defs/") or of "definitions" ("#/definitions/"). The file must be
// UTF-8 (RFC 8259 §8.1) and name each member of an object once: a repeated
// keyword, definition or property is an error, never resolved silently
// (encoding/json keeps the last one, other tools may keep the first).
func decodeFile(file string, data []byte) (defs map[string]*node, prefix string, errs ErrorList) {
	t, serr := jsonscan.ParseTape(data, jsonscan.MaxNesting)
	if serr != nil {
		return nil, "", ErrorList{parseError(file, data, serr)}
	}
	defer t.Release()
	d := &decoder{file: file, t: t}
	if d.checkStrings(); len(d.errs) > 0 {
		return nil, "", d.errs
	}
	if t.Kind(0) != jsonscan.KindObject {
		d.errorf(0, "", "a schema file must hold a JSON object, not %s", kindName(t.Kind(0)))
		return nil, "", d.errs
	}
	for m := t.FirstMember(0); m >= 0; m = t.NextMember(0, m) {
		name := t.Text(m)
		if name != "$defs" && name != "definitions" {
			continue // $schema, $id, title…: no types come of them
		}
		if prefix != "" {
			d.errorf(m, "", "schema has both \"$defs\" and \"definitions\": keep one, so that no definition is left out")
			return nil, "", d.errs
		}
		prefix = "#/" + name + "/"
		defs = d.schemas(m+1, "#/"+name, -1)
	}
	return defs, prefix, d.errs
}

// parseError locates why the parse of a schema file failed.
func parseError(file string, data []byte, err *jsonscan.SyntaxError) *Error {
	line, col := position(data, err.Offset)
	msg := strings.TrimSuffix(err.Error(), fmt.Sprintf(" (at offset %d)", err.Offset))
	if err.Repeated {
		msg = fmt.Sprintf("member %q repeated in one object: a schema names each keyword, definition and property once", err.Duplicate)
	} else {
		msg = "invalid JSON: " + msg
	}
	return &Error{File: file, Line: line, Col: col, Msg: msg}
}

// position is the line and column (both from 1, the column in bytes) of
// offset in data.
func position(data []byte, offset int) (line, col int) {
	before := data[:min(offset, len(data))]
	line = bytes.Count(before, []byte("\n")) + 1
	col = len(before) - bytes.LastIndexByte(before, '\n')
	return line, col
}

// errorf records a problem with the value at node i, whose pointer is ptr.
func (d *decoder) errorf(i int, ptr, format string, args ...any) {
	line, col := position(d.t.Data, d.t.Offset(i))
	d.errs = append(d.errs, &Error{File: d.file, Pointer: ptr, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)})
}

// schemas reads an object whose members are schemas ($defs, properties),
// at depth for each of them.
func (d *decoder) schemas(i int, ptr string, depth int) map[string]*node {
	t := d.t
	if t.Kind(i) != jsonscan.KindObject {
		d.errorf(i, ptr, "want an object of schemas, not %s", kindName(t.Kind(i)))
		return nil
	}
	out := make(map[string]*node, t.Len(i))
	for m := t.FirstMember(i); m >= 0; m = t.NextMember(i, m) {
		name := t.Text(m)
		out[name] = d.schema(m+1, ptr+"/"+escapePointer(name), depth+1)
	}
	return out
}

// schemaList reads an array of schemas (anyOf, oneOf, allOf).
func (d *decoder) schemaList(i int, ptr string, depth int) []*node {
	t := d.t
	if t.Kind(i) != jsonscan.KindArray {
		d.errorf(i, ptr, "want a list of schemas, not %s", kindName(t.Kind(i)))
		return nil
	}
	out := make([]*node, 0, t.Len(i))
	for e, k := t.FirstElement(i), 0; e >= 0; e, k = t.NextElement(i, e), k+1 {
		out = append(out, d.schema(e, ptr+"/"+strconv.Itoa(k), depth+1))
	}
	return out
}

// schema reads the schema at node i, depth levels below its definition
// (0 for the definition itself): the boolean schemas true and false, or an
// object of keywords.
func (d *decoder) schema(i int, ptr string, depth int) *node {
	t := d.t
	if depth > MaxDepth {
		d.errorf(i, ptr, "schema nested more than %d levels deep", MaxDepth)
		return nil
	}
	switch t.Kind(i) {
	case jsonscan.KindTrue:
		return &node{}
	case jsonscan.KindFalse:
		return &node{False: true, keywords: []string{"false"}}
	case jsonscan.KindObject:
	default:
		d.errorf(i, ptr, "a schema must be an object or a boolean, not %s", kindName(t.Kind(i)))
		return nil
	}
	n := &node{keywords: make([]string, 0, t.Len(i))}
	for m := t.FirstMember(i); m >= 0; m = t.NextMember(i, m) {
		kw := t.Text(m)
		n.keywords = append(n.keywords, kw)
		d.keyword(n, kw, m+1, ptr+"/"+escapePointer(kw), depth)
	}
	return n
}

// keyword reads the value v of keyword kw of schema n into n.
func (d *decoder) keyword(n *node, kw string, v int, ptr string, depth int) {
	switch kw {
	case "$ref":
		n.Ref = d.str(v, ptr)
	case "type":
		n.Type = d.types(v, ptr)
	case "description":
		n.Description = d.str(v, ptr)
	case "format":
		n.Format = d.str(v, ptr)
	case "properties":
		n.Properties = d.schemas(v, ptr, depth)
	case "required":
		n.Required = d.strs(v, ptr, kw)
	case "items":
		n.Items = d.schema(v, ptr, depth+1)
	case "additionalProperties":
		n.AdditionalProperties = d.additional(v, ptr, depth)
	case "anyOf":
		n.AnyOf = d.schemaList(v, ptr, depth)
	case "oneOf":
		n.OneOf = d.schemaList(v, ptr, depth)
	case "allOf":
		n.AllOf = d.schemaList(v, ptr, depth)
	case "const":
		n.Const = d.raw(v)
	case "default":
		n.Default = d.raw(v)
	case "enum":
		n.Enum = d.values(v, ptr)
	case "deprecated":
		n.Deprecated = d.boolean(v, ptr)
	case "minimum":
		n.Minimum, n.minimumText = d.number(v, ptr), d.t.Number(v)
	case "maximum":
		n.Maximum, n.maximumText = d.number(v, ptr), d.t.Number(v)
	case "minItems":
		n.MinItems = d.integer(v, ptr)
	case "maxItems":
		n.MaxItems = d.integer(v, ptr)
	case "minLength":
		n.MinLength = d.integer(v, ptr)
	case "maxLength":
		n.MaxLength = d.integer(v, ptr)
	}
	// Any other keyword is only named (n.keywords): checkKeywords reports
	// those the loader does not understand.
}

func (d *decoder) str(i int, ptr string) string {
	if d.t.Kind(i) != jsonscan.KindString {
		d.errorf(i, ptr, "want a string, not %s", kindName(d.t.Kind(i)))
		return ""
	}
	return d.t.Text(i)
}

// types reads the "type" keyword: a name or a list of names.
func (d *decoder) types(i int, ptr string) typeList {
	if d.t.Kind(i) == jsonscan.KindString {
		return typeList{d.t.Text(i)}
	}
	if d.t.Kind(i) != jsonscan.KindArray {
		d.errorf(i, ptr, "type must be a string or a list of strings, not %s", kindName(d.t.Kind(i)))
		return nil
	}
	return d.strs(i, ptr, "type")
}

// strs reads a list of strings, the value of keyword kw.
func (d *decoder) strs(i int, ptr, kw string) []string {
	t := d.t
	if t.Kind(i) != jsonscan.KindArray {
		d.errorf(i, ptr, "%s must be a list of strings, not %s", kw, kindName(t.Kind(i)))
		return nil
	}
	out := make([]string, 0, t.Len(i))
	for e, k := t.FirstElement(i), 0; e >= 0; e, k = t.NextElement(i, e), k+1 {
		out = append(out, d.str(e, ptr+"/"+strconv.Itoa(k)))
	}
	return out
}

// additional reads additionalProperties: a boolean or a schema.
func (d *decoder) additional(i int, ptr string, depth int) *additional {
	switch d.t.Kind(i) {
	case jsonscan.KindTrue:
		return &additional{Allowed: true}
	case jsonscan.KindFalse:
		return &additional{Allowed: false}
	}
	return &additional{Allowed: true, Schema: d.schema(i, ptr, depth+1)}
}

// raw is node i's JSON text, copied (the model outlives the file's bytes).
func (d *decoder) raw(i int) json.RawMessage {
	return bytes.Clone(d.t.Raw(i))
}

// values reads the enum keyword: a list of any JSON values.
func (d *decoder) values(i int, ptr string) []json.RawMessage {
	t := d.t
	if t.Kind(i) != jsonscan.KindArray {
		d.errorf(i, ptr, "enum must be a list, not %s", kindName(t.Kind(i)))
		return nil
	}
	out := make([]json.RawMessage, 0, t.Len(i))
	for e := t.FirstElement(i); e >= 0; e = t.NextElement(i, e) {
		out = append(out, d.raw(e))
	}
	return out
}

func (d *decoder) boolean(i int, ptr string) bool {
	switch d.t.Kind(i) {
	case jsonscan.KindTrue:
		return true
	case jsonscan.KindFalse:
		return false
	}
	d.errorf(i, ptr, "want a boolean, not %s", kindName(d.t.Kind(i)))
	return false
}

func (d *decoder) number(i int, ptr string) *float64 {
	if d.t.Kind(i) != jsonscan.KindNumber {
		d.errorf(i, ptr, "want a number, not %s", kindName(d.t.Kind(i)))
		return nil
	}
	f, err := strconv.ParseFloat(d.t.Number(i), 64)
	if err != nil {
		d.errorf(i, ptr, "number %s is out of range", d.t.Number(i))
		return nil
	}
	return &f
}

func (d *decoder) integer(i int, ptr string) *int {
	if d.t.Kind(i) != jsonscan.KindNumber {
		d.errorf(i, ptr, "want an integer, not %s", kindName(d.t.Kind(i)))
		return nil
	}
	v, err := strconv.Atoi(d.t.Number(i))
	if err != nil {
		d.errorf(i, ptr, "want an integer, not %s", d.t.Number(i))
		return nil
	}
	return &v
}

// kindName names a JSON value's kind in an error.
func kindName(k jsonscan.NodeKind) string {
	switch k {
	case jsonscan.KindNull:
		return "null"
	case jsonscan.KindFalse, jsonscan.KindTrue:
		return "a boolean"
	case jsonscan.KindNumber:
		return "a number"
	case jsonscan.KindString:
		return "a string"
	case jsonscan.KindArray:
		return "an array"
	}
	return "an object"
}
