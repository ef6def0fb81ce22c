package bind

import (
	"fmt"
	"strings"
)

// tagItem is one comma-separated item of a `jsonschema:"…"` tag.
type tagItem struct {
	key, value string
	hasValue   bool
}

// Keys of the tag dialect (invopop/jsonschema's), by the JSON type they
// apply to. Every other key is an error.
var (
	genericTagKeys = []string{"title", "description", "required", "-"}
	stringTagKeys  = []string{"minLength", "maxLength", "pattern", "format", "default", "example", "enum"}
	numberTagKeys  = []string{"multipleOf", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "default", "example", "enum"}
	boolTagKeys    = []string{"default"}
	arrayTagKeys   = []string{"minItems", "maxItems", "uniqueItems", "default"}
	allTagKeys     = dedupe(genericTagKeys, stringTagKeys, numberTagKeys, arrayTagKeys)
)

func dedupe(lists ...[]string) []string {
	seen := map[string]bool{}
	var out []string
	for _, l := range lists {
		for _, k := range l {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	return out
}

// splitTag splits a jsonschema tag on commas not escaped as `\,`. A
// description= or title= value runs on over the following items that
// cannot be items themselves — ones starting with a space, or bare words
// that are not keys — so that
//
//	description=City name, address, or lat,long
//
// keeps all of its text (invopop would cut it at the first comma). An item
// that looks like a misspelled key is an error, not more description.
func splitTag(tag string) ([]tagItem, error) {
	var raw []string
	var cur strings.Builder
	for i := 0; i < len(tag); i++ {
		switch {
		case tag[i] == '\\' && i+1 < len(tag) && tag[i+1] == ',':
			cur.WriteByte(',')
			i++
		case tag[i] == ',':
			raw = append(raw, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(tag[i])
		}
	}
	raw = append(raw, cur.String())
	var items []tagItem
	for _, r := range raw {
		if n := len(items); n > 0 && (items[n-1].key == "description" || items[n-1].key == "title") && continuesText(r) {
			items[n-1].value += "," + r
			continue
		}
		if r == "" {
			if len(raw) == 1 {
				return nil, nil
			}
			return nil, fmt.Errorf("empty item in jsonschema tag %q (a stray comma?)", tag)
		}
		key, value, has := strings.Cut(r, "=")
		items = append(items, tagItem{key: key, value: value, hasValue: has})
	}
	return items, nil
}

// continuesText reports whether a tag item is more of the text before it.
func continuesText(item string) bool {
	if item == "" || item[0] == ' ' || item[0] == '\t' {
		return true
	}
	key, _, hasValue := strings.Cut(item, "=")
	if hasValue || strings.ContainsAny(key, " \t") {
		return !isTagKeyword(key) && strings.ContainsAny(key, " \t")
	}
	return !isTagKeyword(key) && suggest(key, allTagKeys) == ""
}

func isTagKeyword(k string) bool {
	for _, c := range allTagKeys {
		if c == k {
			return true
		}
	}
	return k == "nullable"
}

// parseExtras parses `jsonschema_extras:"k=v,k2=v2"` as invopop does: true
// and false become booleans, a repeated key a list of strings.
func parseExtras(tag string) (map[string]any, error) {
	if tag == "" {
		return nil, nil
	}
	out := map[string]any{}
	for _, item := range strings.Split(tag, ",") {
		k, v, ok := strings.Cut(item, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("jsonschema_extras item %q is not key=value", item)
		}
		var val any = v
		switch v {
		case "true":
			val = true
		case "false":
			val = false
		}
		switch old := out[k].(type) {
		case nil:
			out[k] = val
		case string:
			out[k] = []string{old, v}
		case []string:
			out[k] = append(old, v)
		default:
			out[k] = val
		}
	}
	return out, nil
}
