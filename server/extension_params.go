package server

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/mcpgen/mcpgen/internal/jsonfields"
	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// Extension params are decoded with encoding/json, which matches struct
// fields case-insensitively and keeps the last of duplicate members. So that
// the handler reads the message as every peer does (one message, one
// reading), checkMembers first rejects, at any depth, a duplicate member and
// a member that names a struct field only under case folding, Unicode's as
// encoding/json applies it ("TEXT" for "text", "taſkId" with U+017F for
// "taskId").

// maxParamsDepth bounds the recursion of checkMembers (encoding/json's own
// limit is far deeper; params this deep are hostile).
const maxParamsDepth = 256

// checkMembers checks raw against type t (nil: any JSON) and returns the
// -32602 naming the member at fault, under path ("params").
func checkMembers(raw []byte, t reflect.Type, path string, depth int) error {
	if depth > maxParamsDepth {
		return invalidParams(path + ": nested too deeply")
	}
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t != nil && (t == rawMessageType || reflect.PointerTo(t).Implements(unmarshalerType)) {
		t = nil // the type reads its own JSON; duplicates are still checked
	}
	switch jsonscan.Kind(raw) {
	case '{':
		var fields map[string]structField
		var elem reflect.Type
		if t != nil {
			switch t.Kind() {
			case reflect.Struct:
				fields = fieldsOf(t)
			case reflect.Map:
				elem = t.Elem()
			}
		}
		var bad error
		dup, repeated, _ := jsonscan.Members(raw, func(key, value []byte) {
			if bad != nil {
				return
			}
			name := string(key)
			at := path + "." + name
			next := elem
			if fields != nil {
				f, ok := fields[name]
				if !ok {
					if f, folded := foldedField(fields, name); folded {
						bad = invalidParams(fmt.Sprintf("%s: unknown member (the field is %q; names are case-sensitive)", at, f.name))
						return
					}
				}
				next = f.typ // nil for an unknown member: ignored, but still checked
			}
			bad = checkMembers(value, next, at, depth+1)
		})
		if repeated {
			return invalidParams(fmt.Sprintf("%s: duplicate member %q", path, dup))
		}
		return bad
	case '[':
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem()
		}
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			return nil // the decoder reports it
		}
		for i, item := range items {
			if err := checkMembers(item, elem, fmt.Sprintf("%s[%d]", path, i), depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// foldedField returns the field whose name equals name under Unicode
// simple case folding (strings.EqualFold) but not exactly: the member
// encoding/json would store in that field, as it matches names so folded
// ("TASKID", and "taſkId" with U+017F, both fill taskId), while the checks
// that read the exact name never see it. Of several, the first in name
// order, so the error is the same every time.
func foldedField(fields map[string]structField, name string) (structField, bool) {
	var found structField
	ok := false
	for exact, f := range fields {
		if exact != name && strings.EqualFold(exact, name) && (!ok || exact < found.name) {
			found, ok = f, true
		}
	}
	return found, ok
}

type structField struct {
	name string
	typ  reflect.Type
}

var fieldCache sync.Map // reflect.Type -> map[string]structField

// fieldsOf maps the JSON names of a struct's fields to the field, by
// exact name, chosen as encoding/json chooses them (jsonfields.TypeFields:
// the shallowest of one name wins over an embedded struct's, `json:"-,"`
// is the member "-"), so the checks descend into the type encoding/json
// fills.
func fieldsOf(t reflect.Type) map[string]structField {
	if m, ok := fieldCache.Load(t); ok {
		return m.(map[string]structField)
	}
	m := map[string]structField{}
	for _, f := range jsonfields.TypeFields(t) {
		m[f.Name] = structField{name: f.Name, typ: f.Type}
	}
	fieldCache.Store(t, m)
	return m
}
