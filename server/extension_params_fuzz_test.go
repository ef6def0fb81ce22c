package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"testing"
	"unicode/utf8"
)

// hasDuplicateMember is the reference: encoding/json's token stream, a set
// of names per open object.
func hasDuplicateMember(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	type frame struct {
		object bool
		seen   map[string]bool
		key    bool // the next token of this object is a key
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return false
		}
		if err != nil {
			return false
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if name, isString := tok.(string); isString && top != nil && top.object && top.key {
			if top.seen[name] {
				return true
			}
			top.seen[name] = true
			top.key = false
			continue
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{object: true, seen: map[string]bool{}, key: true})
			continue
		case json.Delim('['):
			stack = append(stack, &frame{})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 && stack[len(stack)-1].object {
			stack[len(stack)-1].key = true // a value ended: a key comes next
		}
	}
}

// FuzzExtensionParamsDuplicates checks checkMembers against an independent
// reading: for any valid UTF-8 JSON object it rejects the params exactly
// when encoding/json's token stream shows a name twice in one object, at
// any depth.
func FuzzExtensionParamsDuplicates(f *testing.F) {
	for _, seed := range []string{
		`{}`, `{"a":1,"a":2}`, `{"a":{"b":1,"b":2}}`, `{"a":[{"x":1},{"x":1,"x":2}]}`,
		`{"a":"\u0062","b":1}`, `{"\u0061":1,"a":2}`, `{"a":{"a":{"a":1}},"b":[[{"c":1,"d":2}]]}`,
		`{"k":[1,"two",null,true,{"k":{}}],"K":1}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !utf8.Valid(data) || !json.Valid(data) || len(bytes.TrimSpace(data)) == 0 || bytes.TrimSpace(data)[0] != '{' {
			return
		}
		if bytes.Count(data, []byte("["))+bytes.Count(data, []byte("{")) > maxParamsDepth/2 {
			return // the depth limit is its own rule
		}
		got := checkMembers(data, nil, "params", 0) != nil
		if want := hasDuplicateMember(data); got != want {
			t.Fatalf("checkMembers rejects=%v, reference duplicate=%v for %s", got, want, data)
		}
	})
}
