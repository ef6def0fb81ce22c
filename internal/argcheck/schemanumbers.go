package argcheck

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
)

// schemaNumberError refuses a schema with a number literal beyond the
// argument limits (MaxNumberExponent, MaxNumberLength), naming its JSON
// pointer, or returns nil. Such a number has no use in a schema (no
// argument may carry one), and the full validator panics on some of them
// (a big.Rat out of range: "maximum": 1e10000000), so a client compiling
// a hostile server's outputSchema must refuse it first. Keys are walked in
// sorted order, so the error names the same member every time.
func schemaNumberError(doc any) error {
	if !hasOversizedNumber(doc) {
		return nil // the common case: one walk, no allocation
	}
	ptr, lit, ok := oversizedSchemaNumber(doc, "")
	if !ok {
		return nil
	}
	if len(lit) > 40 {
		lit = lit[:40] + "…"
	}
	return fmt.Errorf("argschema: schema number %s at %q is beyond the limits (an exponent of at most ±%d, at most %d characters)",
		lit, ptr, MaxNumberExponent, MaxNumberLength)
}

func oversizedSchemaNumber(v any, at string) (ptr, lit string, found bool) {
	switch v := v.(type) {
	case json.Number:
		if !numberWithinLimits([]byte(v)) {
			return at, string(v), true
		}
	case []any:
		for i, e := range v {
			if ptr, lit, found = oversizedSchemaNumber(e, at+"/"+strconv.Itoa(i)); found {
				return
			}
		}
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if ptr, lit, found = oversizedSchemaNumber(v[k], at+"/"+escape(k)); found {
				return
			}
		}
	}
	return "", "", false
}

// hasOversizedNumber reports whether a number beyond the limits is anywhere in v.
func hasOversizedNumber(v any) bool {
	switch v := v.(type) {
	case json.Number:
		return !numberWithinLimits([]byte(v))
	case []any:
		for _, e := range v {
			if hasOversizedNumber(e) {
				return true
			}
		}
	case map[string]any:
		for _, e := range v {
			if hasOversizedNumber(e) {
				return true
			}
		}
	}
	return false
}
