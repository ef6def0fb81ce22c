package jsonscan

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

var treeSeeds = []string{
	`{"location":"New York"}`, `{"days":1e1,"neg":-0.0,"big":123456789012345678901234567890}`,
	`{"location":"\u00e9\ud83d\ude00","lone":"\ud800x","pair":"\ud83d\u0041"}`, "{\"location\":\"\xff\xfe\"}",
	`{"location":"a","location":"b"}`, `{"a":{"b":1,"b":2}}`, `{"a":1,"\u0061":2}`, `{"":1,"":2}`,
	`{"tags":["a",1,null,true,false,{},[]]}`, `{}`, `[]`, `null`, `"x"`, `0`, ``, ` `,
	`{"a":}`, `{"a":1}x`, `{"a":01}`, `{"a":1.}`, `{"a":-}`, `{"a":1e}`, `{"a":"\x"}`, `{"a":"\u12g4"}`,
	"{\"a\":\"\x01\"}", `{"a":"`, `{"a":"\`, `{"a" 1}`, `{"a":1,}`, `[1,]`, `[1 2]`, `{1:2}`, `tru`, `nulL`,
	` { "location" : [ 1 , { "b" : null } ] } `,
	strings.Repeat("[", 5) + strings.Repeat("]", 5), strings.Repeat("[", 6) + strings.Repeat("]", 6),
}

// treeDepth is the nesting FuzzTree allows, small so the fuzzer reaches it.
const treeDepth = 5

// decodeTree is encoding/json's tree of data, and the nesting depth of data.
func decodeTree(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if !json.Valid(data) { // trailing data
		return nil, &json.SyntaxError{}
	}
	return v, nil
}

// depthOf is the deepest nesting of containers in v (a scalar is 0, [] is 1).
func depthOf(v any) int {
	d := 0
	switch v := v.(type) {
	case map[string]any:
		for _, e := range v {
			d = max(d, depthOf(e))
		}
		return d + 1
	case []any:
		for _, e := range v {
			d = max(d, depthOf(e))
		}
		return d + 1
	}
	return 0
}

func TestTreeMatchesEncodingJSON(t *testing.T) {
	for _, s := range treeSeeds {
		checkTree(t, []byte(s))
	}
}

// FuzzTree checks Tree against encoding/json (Decoder.UseNumber) on
// arbitrary bytes: Tree accepts exactly what encoding/json accepts, except
// a repeated member name (Duplicate set) and nesting deeper than its
// limit, and builds the same tree.
func FuzzTree(f *testing.F) {
	for _, s := range treeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkTree(t, data) })
}

func checkTree(t *testing.T, data []byte) {
	t.Helper()
	got, err := Tree(data, treeDepth)
	want, jerr := decodeTree(data)
	switch {
	case err == nil && jerr != nil:
		t.Fatalf("Tree accepted %q, encoding/json: %v", data, jerr)
	case err == nil && !reflect.DeepEqual(got, want):
		t.Fatalf("Tree(%q) = %#v, encoding/json %#v", data, got, want)
	case err == nil && depthOf(got) > treeDepth+1:
		t.Fatalf("Tree(%q) accepted nesting %d over its limit %d", data, depthOf(got), treeDepth)
	case err != nil && jerr == nil:
		switch {
		case err.Repeated:
			if !repeatsName(data, err.Duplicate) {
				t.Fatalf("Tree(%q): %v, but encoding/json sees no object repeating %q", data, err, err.Duplicate)
			}
		case strings.Contains(err.Error(), "nested deeper"):
			if depthOf(want) <= treeDepth {
				t.Fatalf("Tree(%q): %v, but it nests only %d deep", data, err, depthOf(want))
			}
		default:
			t.Fatalf("Tree rejected %q (%v), encoding/json accepts it", data, err)
		}
	case err != nil && (err.Offset < 0 || err.Offset > len(data) || err.Error() == ""):
		t.Fatalf("Tree(%q): error %v at offset %d", data, err, err.Offset)
	}
}

// repeatsName reports whether some object in data has the member name
// twice, as encoding/json's token stream reads the names.
func repeatsName(data []byte, name string) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // a number out of float64's range (1e700) is no error of the tokens
	type frame struct {
		object  bool
		names   map[string]bool
		wantKey bool
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.wantKey {
			if k, ok := tok.(string); ok {
				if k == name && top.names[k] {
					return true
				}
				top.names[k], top.wantKey = true, false
				continue
			}
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{object: true, names: map[string]bool{}, wantKey: true})
			continue
		case json.Delim('['):
			stack = append(stack, &frame{})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 && stack[len(stack)-1].object {
			stack[len(stack)-1].wantKey = true // a value ended
		}
	}
}
