package support

import (
	"encoding/json"
	"strings"
	"testing"
)

// cycleNode holds itself through a pointer, a slice or a map.
type cycleNode struct {
	Next  *cycleNode     `json:"next,omitempty"`
	Kids  []any          `json:"kids,omitempty"`
	Named map[string]any `json:"named,omitempty"`
}

// A value that contains itself, through a pointer, a slice or a map, is
// refused with encoding/json's error; a value met twice side by side, or
// nested deeper than cycle detection starts, is not a cycle.
func TestAppendJSONRefusesCycles(t *testing.T) {
	ptr := &cycleNode{}
	ptr.Next = ptr
	slice := &cycleNode{Kids: make([]any, 1)}
	slice.Kids[0] = slice.Kids
	m := map[string]any{}
	m["m"] = m
	for name, v := range map[string]any{"pointer": ptr, "slice": slice, "map": m} {
		_, err := appendJSONAt(nil, v, encodeDepth{})
		if _, want := json.Marshal(v); want == nil {
			t.Fatalf("%s: encoding/json encodes it", name)
		}
		if err == nil || !strings.Contains(err.Error(), "encountered a cycle") {
			t.Errorf("%s: %v, want a cycle error", name, err)
		}
	}
	shared := map[string]any{"k": 1}
	var deep any = []any{shared, shared}
	for range 1500 {
		deep = map[string]any{"d": deep, "s": shared}
	}
	got, err := appendJSONAt(nil, deep, encodeDepth{})
	want, _ := json.Marshal(deep)
	if err != nil || string(got) != string(want) {
		t.Errorf("a deep value without a cycle: %v (equal to encoding/json: %t)", err, string(got) == string(want))
	}
}

// A map key that is not UTF-8 is refused: encoding/json writes "a\xff" and
// "a\xfe" both as "a\ufffd", one name twice.
func TestAppendJSONRefusesMapKeysNotUTF8(t *testing.T) {
	if out, err := appendJSONAt(nil, map[string]int{"a\xff": 1, "a\xfe": 2}, encodeDepth{}); err == nil {
		t.Errorf("encoded %q", out)
	}
	if _, err := appendExtraAt([]byte(`{}`), 0, map[string]json.RawMessage{"a\xff": json.RawMessage(`1`)}); err == nil {
		t.Error("appendExtraAt took a name that is not UTF-8")
	}
}

// uniqueMembers refuses an object naming a member twice at any depth, the
// name read as encoding/json reads it (escapes decoded, invalid UTF-8 as
// U+FFFD), past the few names compared one by one as well.
func TestUniqueMembers(t *testing.T) {
	var many strings.Builder
	many.WriteString(`{`)
	for i := range 40 {
		many.WriteString(`"k` + strings.Repeat("x", i) + `":1,`)
	}
	for _, c := range []struct {
		in string
		ok bool
	}{
		{`{"a":1,"b":{"a":1},"c":[{"a":1},{"a":2}]}`, true},
		{`[{"a":1,"a":2}]`, false},
		{`{"a":{"b":{"c":1,"c":2}}}`, false},
		{`{"a":1,"\u0061":2}`, false},
		{"{\"\xff\":1,\"\\ufffd\":2}", false},
		{many.String() + `"z":1}`, true},
		{many.String() + `"kxxx":1}`, false},
		{`{"a":1,}`, false},
	} {
		if err := uniqueMembers([]byte(c.in)); (err == nil) != c.ok {
			t.Errorf("uniqueMembers(%.60s): %v", c.in, err)
		}
	}
}

// A value that contains itself through a map whose keys are not strings
// is found as a cycle too: every map is walked with the depth carried,
// none is handed to encoding/json (whose MarshalJSON calls would start
// counting again and overflow the stack).
func TestAppendJSONRefusesCyclesThroughIntKeyedMaps(t *testing.T) {
	h := &generatedHolder{}
	h.V = map[int]any{1: h}
	_, err := appendJSONAt(nil, h, encodeDepth{})
	if err == nil || !strings.Contains(err.Error(), "encountered a cycle") {
		t.Errorf("%v, want a cycle error", err)
	}
}

// textKey is a map key encoding/json names by its MarshalText method.
type textKey struct{ name string }

func (k textKey) MarshalText() ([]byte, error) { return []byte(k.name), nil }

// Maps of integer and MarshalText keys are written as encoding/json
// writes them; a name that is not UTF-8 and two keys given one name are
// refused, as raw JSON naming a member twice is: the decoders refuse them.
func TestAppendJSONMapKeysAndRepeatedNames(t *testing.T) {
	for _, v := range []any{
		map[int8]int{-3: 1, 20: 2, 3: 3},
		map[uint64]string{18446744073709551615: "max", 0: "zero"},
		map[textKey]int{{"b"}: 1, {"a<"}: 2},
	} {
		want, _ := json.Marshal(v)
		if got, err := appendJSONAt(nil, v, encodeDepth{}); err != nil || string(got) != string(want) {
			t.Errorf("%#v: %s, %v; want %s", v, got, err, want)
		}
	}
	for name, v := range map[string]any{
		"text keys one name":        map[*textKey]int{{"a"}: 1, {"a"}: 2},
		"non-UTF-8 inside int keys": map[int]any{1: map[string]int{"\xff": 1, "\xfe": 2}},
		"non-UTF-8 text key":        map[textKey]int{{"\xff"}: 1},
		"raw member twice":          json.RawMessage(`{"a":1,"a":2}`),
		"raw member twice deep":     []any{json.RawMessage(` [ {"b":{"a":1, "\u0061":2}} ] `)},
		"raw invalid":               json.RawMessage(`{"a":}`),
		"extra member named twice":  rawExtra{Extra: map[string]json.RawMessage{"x": json.RawMessage(`{"a":1,"a":2}`)}},
		"MarshalJSON member twice":  dupMarshaler{},
		"unsupported map key type":  map[float64]int{1: 1},
	} {
		if out, err := appendJSONAt(nil, v, encodeDepth{}); err == nil {
			t.Errorf("%s: encoded %s", name, out)
		}
	}
}

// rawExtra holds undeclared members, as generated types do.
type rawExtra struct{ Extra map[string]json.RawMessage }

func (x rawExtra) appendJSONAt(dst []byte, _ encodeDepth) ([]byte, error) {
	start := len(dst)
	return appendExtraAt(append(dst, "{}"...), start, x.Extra)
}

// dupMarshaler's MarshalJSON names a member twice.
type dupMarshaler struct{}

func (dupMarshaler) MarshalJSON() ([]byte, error) { return []byte(`{"a":1,"a":2}`), nil }

// generatedHolder encodes itself as a generated type does: MarshalJSON
// starts at depth zero, appendJSONAt carries the depth.
type generatedHolder struct {
	V any `json:"v"`
}

func (x generatedHolder) MarshalJSON() ([]byte, error) { return x.appendJSONAt(nil, encodeDepth{}) }

func (x generatedHolder) appendJSONAt(dst []byte, d encodeDepth) ([]byte, error) {
	type wire generatedHolder
	return appendJSONAt(dst, wire(x), d)
}
