package support

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// point is decoded and encoded the way generated code does it, through the
// support functions: a required const, a required and an optional string,
// a bounded number, an enum, a nullable member, a list, a map, a nested
// struct by value and by pointer, and checked extra members.
type point struct {
	Name    string
	Label   string
	Weight  float64
	Color   string
	Note    *string
	Tags    []string
	Maybe   []*int64
	Counts  map[string]int64
	Child   *leaf
	Origin  leaf
	Level   *int64
	Leaves  []leaf
	Extra   map[string]json.RawMessage
	strict  bool
	rawJSON json.RawMessage
}

type leaf struct{ X int64 }

func (l *leaf) UnmarshalJSON(data []byte) error {
	var raws [1]json.RawMessage
	rest, err := split(data, []string{"x"}, raws[:])
	if err != nil {
		return err
	}
	var fs fields
	required(&fs, raws[0], &l.X, "x", integer)
	refuse(&fs, rest)
	return fs.err
}

var pointNames = []string{"kind", "name", "label", "weight", "color", "note", "tags", "counts", "child", "origin", "level", "raw", "maybe", "leaves"}

func (p *point) UnmarshalJSON(data []byte) error {
	var raws [14]json.RawMessage
	rest, err := split(data, pointNames, raws[:])
	if err != nil {
		return err
	}
	var fs fields
	constant(&fs, raws[0], `"point"`, "kind", true)
	required(&fs, raws[1], &p.Name, "name", str)
	optionalNotNull(&fs, raws[2], &p.Label, "label", str)
	required(&fs, raws[3], &p.Weight, "weight", plain[float64])
	fs.check(checkBounds(p.Weight, "weight", bounds{min: 0, max: 1, hasMin: true, hasMax: true}))
	optionalNotNull(&fs, raws[4], &p.Color, "color", str)
	fs.check(checkOneOf(p.Color, "color", raws[4] != nil, "red", "blue"))
	requiredOrNull(&fs, raws[5], &p.Note, "note", plain[*string])
	fs.check(checkOneOfOptional(p.Note, "note", "n1", "n2"))
	optional(&fs, raws[6], &p.Tags, "tags", sliceOf(str))
	fs.check(checkRule(p.Tags, "tags", eachRule(enumRule("x", "y"))))
	optional(&fs, raws[12], &p.Maybe, "maybe", sliceOf(optionalInteger))
	fs.check(checkRule(p.Maybe, "maybe", eachRule(optionalRule(boundsRule[int64](bounds{min: 1, hasMin: true})))))
	optional(&fs, raws[7], &p.Counts, "counts", mapOf(integer))
	fs.check(checkRule(p.Counts, "counts", valuesRule(bothRules(literalRule[int64]("1", "2", "9"), boundsRule[int64](bounds{max: 5, hasMax: true})))))
	optional(&fs, raws[8], &p.Child, "child", viaPointer[leaf])
	optional(&fs, raws[9], &p.Origin, "origin", via[leaf])
	optionalNotNull(&fs, raws[10], &p.Level, "level", optionalInteger)
	fs.check(checkBoundsOptional(p.Level, "level", bounds{max: 3, hasMax: true}))
	fs.check(checkLiteralOptional(p.Level, "level", "1", "2", "3"))
	optional(&fs, raws[11], &p.rawJSON, "raw", rawObject)
	optional(&fs, raws[13], &p.Leaves, "leaves", sliceVia[leaf])
	if p.strict {
		refuse(&fs, rest)
	} else {
		p.Extra = keepChecked(&fs, rest, checkedBy(integer, boundsRule[int64](bounds{min: 0, hasMin: true})))
	}
	return fs.err
}

func (p point) MarshalJSON() ([]byte, error) {
	if err := checkRaw(p.rawJSON, "raw", 'o', false); err != nil {
		return nil, err
	}
	members := map[string]json.RawMessage{"kind": json.RawMessage(`"point"`)}
	for _, m := range []struct {
		name     string
		value    any
		optional bool
	}{{"name", p.Name, false}, {"label", p.Label, true}, {"weight", p.Weight, false}, {"tags", p.Tags, true}} {
		if err := addMember(members, m.name, m.value, m.optional); err != nil {
			return nil, err
		}
	}
	obj, err := json.Marshal(members)
	if err != nil {
		return nil, err
	}
	return appendExtraAt(obj, 0, p.Extra, pointNames...)
}

func decodeErr(t *testing.T, data string, strict bool) *DecodeError {
	t.Helper()
	p := point{strict: strict}
	err := p.UnmarshalJSON([]byte(data))
	var de *DecodeError
	if !errors.As(err, &de) {
		t.Fatalf("%s: error %v, want a *DecodeError", data, err)
	}
	return de
}

func TestDecodeLikeGeneratedCode(t *testing.T) {
	in := `{"kind":"point","name":"a\u00e9","label":"","weight":0.5,"color":"red","note":null,` +
		`"tags":["x","y"],"counts":{"k":2.0},"child":{"x":1},"origin":{"x":2},"level":2e0,"raw":{"z":[1]},"more":7,"leaves":[{"x":1},{"x":20E-1}]}`
	var p point
	if err := p.UnmarshalJSON([]byte(in)); err != nil {
		t.Fatal(err)
	}
	if p.Name != "aé" || p.Weight != 0.5 || p.Color != "red" || p.Note != nil || len(p.Tags) != 2 ||
		p.Counts["k"] != 2 || p.Child == nil || p.Child.X != 1 || p.Origin.X != 2 || *p.Level != 2 ||
		string(p.rawJSON) != `{"z":[1]}` || string(p.Extra["more"]) != "7" || len(p.Leaves) != 2 || p.Leaves[1].X != 2 {
		t.Fatalf("decoded %+v", p)
	}
	out, err := p.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"kind":"point","name":"aé","tags":["x","y"],"weight":0.5,"more":7}`; string(out) != want {
		t.Fatalf("encoded %s, want %s", out, want)
	}

	for _, c := range []struct{ in, path, msg string }{
		{`{"name":"a","weight":0,"note":null}`, "kind", "missing required member"},
		{`{"kind":"line","name":"a","weight":0,"note":null}`, "kind", `must be "point"`},
		{`{"kind":"point","weight":0,"note":null}`, "name", "missing required member"},
		{`{"kind":"point","name":null,"weight":0,"note":null}`, "name", "must not be null"},
		{`{"kind":"point","name":"a","weight":0}`, "note", "missing required member"},
		{`{"kind":"point","name":"a","weight":0,"note":"n3"}`, "note", `"n3" is not one of ["n1" "n2"]`},
		{`{"kind":"point","name":"a","weight":0,"note":""}`, "note", `"" is not one of ["n1" "n2"]`},
		{`{"kind":"point","name":"a","weight":2,"note":null}`, "weight", "above the maximum"},
		{`{"kind":"point","name":"a","weight":-1,"note":null}`, "weight", "below the minimum"},
		{`{"kind":"point","name":"a","weight":0,"note":null,"color":"green"}`, "color", "is not one of"},
		{`{"kind":"point","name":"a","weight":0,"note":null,"color":""}`, "color", `"" is not one of ["red" "blue"]`},
		{`{"kind":"point","name":"a","weight":0,"note":null,"color":null}`, "color", "must not be null"},
		{`{"kind":"point","name":"a","weight":0,"note":null,"label":null}`, "label", "must not be null"},
		{`{"kind":"point","name":"a","weight":0,"note":null,"level":null}`, "level", "must not be null"},
		{`{"kind":"point","name":"a","weight":0,"note":null,"tags":["x",3]}`, "tags[1]", "expected a string, got number"},
		{`{"kind":"point","name":"a","weight":0,"note":null,"counts":{"k":"v"}}`, "counts.k", "expected an integer, got string"},
		{`{"kind":"point","name":"a","weight":0,"note":null,"tags":["x","z"]}`, "tags[1]", `"z" is not one of ["x" "y"]`},
		{`{"kind":"point","name":"a","weight":0,"note":null,"counts":{"a":1,"k":3,"z":4}}`, "counts.k", "3 is not one of 1, 2, 9"},
		{`{"kind":"point","name":"a","weight":0,"note":null,"counts":{"a":9}}`, "counts.a", "9 is above the maximum 5"},
		{`{"kind":"point","name":"a","weight":0,"note":null,"child":{"x":1,"y":2}}`, "child.y", "not allowed"},
		{`{"kind":"point","name":"a","weight":0,"note":null,"level":7}`, "level", "above the maximum"},
		{`{"kind":"point","name":"a","weight":0,"note":null,"maybe":[null,1,0]}`, "maybe[2]", "0 is below the minimum 1"},
		{`{"kind":"point","name":"a","weight":0,"note":null,"level":0}`, "level", "is not one of 1, 2, 3"},
		{`{"kind":"point","name":"a","weight":0,"note":null,"raw":[]}`, "raw", "expected an object"},
		{`{"kind":"point","name":"a","weight":0,"note":null,"more":"x"}`, "more", "expected an integer, got string"},
		{`{"kind":"point","name":"a","weight":0,"note":null,"more":-1}`, "more", "-1 is below the minimum 0"},
		{`{"kind":"point","name":"a","weight":0,"note":null,"leaves":[{"x":1},{"x":1.5}]}`, "leaves[1].x", "expected an integer, got number 1.5"},
		{`{"kind":"point","name":"a","weight":0,"note":null,"leaves":[{"x":1},{}]}`, "leaves[1].x", "missing required member"},
		{`{"kind":"point","name":"a","weight":0,"note":null,"leaves":{}}`, "leaves", "expected an array, got object"},
		{`{"kind":"point","name":"a","weight":0,"note":null,"maybe":[1,"x"]}`, "maybe[1]", "expected an integer, got string"},
	} {
		de := decodeErr(t, c.in, false)
		if de.Path != c.path || !strings.Contains(de.Msg, c.msg) {
			t.Errorf("%s: error %q at %q, want %q at %q", c.in, de.Msg, de.Path, c.msg, c.path)
		}
	}
	if de := decodeErr(t, `{"kind":"point","name":"a","weight":0,"note":null,"other":1}`, true); de.Path != "other" {
		t.Errorf("strict: %v", de)
	}
	if _, err := (point{rawJSON: json.RawMessage(`[1]`)}).MarshalJSON(); err == nil {
		t.Error("encoding a raw member of the wrong kind succeeded")
	}
	if _, err := (point{Extra: map[string]json.RawMessage{"bad": json.RawMessage(`{`)}}).MarshalJSON(); err == nil {
		t.Error("encoding an invalid extra member succeeded")
	}
}

// TestSplit: split agrees with encoding/json on what is valid JSON, keeps
// escaped keys by their value and refuses trailing data and deep nesting.
func TestSplit(t *testing.T) {
	for _, in := range []string{
		`{}`, ` { "a" : 1 , "b\u0063" : [true, false, null, -1.5e3, "s\"\n"] } `, `{"a":{"b":{}}}`,
		`[]`, `{"a":1,}`, `{"a" 1}`, `{"a":01}`, `{"a":1} x`, `{"a":"\x"}`, `{"a":tru}`, `{"a":-}`, `{"a":1.}`, `{"a":"` + "\x01" + `"}`, `{`, `"s"`,
	} {
		var raws [1]json.RawMessage
		rest, err := split([]byte(in), []string{"a"}, raws[:])
		var obj map[string]json.RawMessage
		want := json.Unmarshal([]byte(in), &obj)
		if (err == nil) != (want == nil) {
			t.Errorf("%s: split error %v, encoding/json %v", in, err, want)
			continue
		}
		if err != nil {
			continue
		}
		if string(raws[0]) != strings.TrimSpace(string(obj["a"])) || len(rest)+btoi(raws[0] != nil) != len(obj) {
			t.Errorf("%s: a=%s rest=%v, want %v", in, raws[0], rest, obj)
		}
	}
	var raws [1]json.RawMessage
	if rest, _ := split([]byte(`{"b\u0063":1}`), nil, raws[:0]); string(rest["bc"]) != "1" {
		t.Errorf("escaped key: %v", rest)
	}
	nest := func(n int) []byte {
		return []byte(`{"a":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}`)
	}
	if _, err := split(nest(maxDepth+1), nil, nil); err != nil {
		t.Errorf("nesting of maxDepth refused: %v", err)
	}
	if _, err := split(nest(maxDepth+2), nil, nil); err == nil || !strings.Contains(err.Error(), "nested too deeply") {
		t.Errorf("nesting beyond maxDepth: %v", err)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestUnions: candidates ranks union members by shape, tagOf reads a
// discriminator, and the member decoders return the union's interface.
func TestUnions(t *testing.T) {
	shapes := []shape{
		{kind: 'o', required: []string{"type"}, consts: map[string][]string{"type": {`"text"`}}, props: []string{"type", "text"}},
		{kind: 'o', required: []string{"type", "data"}, props: []string{"type", "data"}, nested: map[string]*shape{"data": {required: []string{"n"}}}},
		{kind: 's'},
	}
	for in, want := range map[string][]int{
		`{"type":"text","text":"x"}`:        {0},
		`{"type":"image","data":{"n":1}}`:   {1},
		`{"type":"text","data":{"n":1}}`:    {1, 0},
		`{"type":"image","data":{"m":1}}`:   {},
		`"hello"`:                           {2},
		`12`:                                {},
		`{"type":"text","text":"x","x":1,}`: nil,
	} {
		if got := candidates([]byte(in), shapes); jsonOf(got) != jsonOf(want) {
			t.Errorf("candidates(%s) = %v, want %v", in, got, want)
		}
	}
	if tag, ok, err := tagOf([]byte(`{"type":"text"}`), "type"); tag != "text" || !ok || err != nil {
		t.Errorf("tagOf = %q %v %v", tag, ok, err)
	}
	if _, ok, err := tagOf([]byte(`{"x":1}`), "type"); ok || err != nil {
		t.Errorf("tagOf absent = %v %v", ok, err)
	}
	if _, _, err := tagOf([]byte(`{"type":1}`), "type"); err == nil {
		t.Error("tagOf of a number succeeded")
	}
	if _, _, err := tagOf([]byte(`[]`), "type"); err == nil {
		t.Error("tagOf of an array succeeded")
	}
	type member interface{}
	if v, err := decodeMember[leaf, member]([]byte(`{"x":4}`)); err != nil || v.(*leaf).X != 4 {
		t.Errorf("decodeMember = %v %v", v, err)
	}
	if v, err := decodeValueMember[[]int64, member]([]byte(`[1,2]`)); err != nil || len(v.([]int64)) != 2 {
		t.Errorf("decodeValueMember = %v %v", v, err)
	}
	if _, err := decodeMember[leaf, error]([]byte(`{"x":4}`)); err == nil {
		t.Error("decodeMember of a non-member succeeded")
	}
	if _, err := decodeValueMember[[]int64, error]([]byte(`[1]`)); err == nil {
		t.Error("decodeValueMember of a non-member succeeded")
	}
	if v, err := decodeNew[leaf]([]byte(`{"x":5}`)); err != nil || v.(*leaf).X != 5 {
		t.Errorf("decodeNew = %v %v", v, err)
	}
	if _, err := decodeNew[leaf]([]byte(`{"y":5}`)); err == nil {
		t.Error("decodeNew of a bad leaf succeeded")
	}
}

func jsonOf(v []int) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestScalars: a scalar union keeps integers as int64 and refuses kinds it
// does not allow, both ways; a non-string literal is not its string.
func TestScalars(t *testing.T) {
	for _, c := range []struct {
		in      string
		allowed []string
		want    any
		ok      bool
	}{
		{`"a"`, []string{"string", "integer"}, "a", true},
		{`3`, []string{"string", "integer"}, int64(3), true},
		{`3.5`, []string{"number"}, 3.5, true},
		{`3.5`, []string{"integer"}, nil, false},
		{`true`, []string{"boolean"}, true, true},
		{`null`, []string{"string", "null"}, nil, true},
		{`null`, []string{"string"}, nil, false},
		{`"a"`, []string{"integer"}, nil, false},
		{`[]`, []string{"string"}, nil, false},
	} {
		got, err := unmarshalScalar([]byte(c.in), c.allowed)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("unmarshalScalar(%s, %v) = %v, %v", c.in, c.allowed, got, err)
		}
	}
	for _, c := range []struct {
		v       any
		allowed []string
		want    string
	}{{"a", []string{"string"}, `"a"`}, {int64(2), []string{"number"}, `2`}, {2.0, []string{"integer"}, `2`}, {nil, []string{"string", "null"}, `null`}, {true, []string{"boolean"}, `true`}} {
		if got, err := marshalScalar(c.v, "v", c.allowed); err != nil || string(got) != c.want {
			t.Errorf("marshalScalar(%v) = %s, %v", c.v, got, err)
		}
	}
	if _, err := marshalScalar(1.5, "v", []string{"string"}); err == nil {
		t.Error("marshalScalar of a number into a string union succeeded")
	}
	// What unmarshalScalar refuses is refused: null where the union does
	// not take it, and non-int64 numbers where it takes integers only.
	for _, v := range []any{nil, 1.5, float32(0.25), 1e300, uint64(1 << 63), uint(1 << 63)} {
		if out, err := marshalScalar(v, "v", []string{"string", "integer"}); err == nil {
			t.Errorf("marshalScalar(%T %v) into string|integer = %s, want an error", v, v, out)
		}
	}
	if out, err := marshalScalar(uint64(1<<63), "v", []string{"number"}); err != nil || string(out) != "9223372036854775808" {
		t.Errorf("marshalScalar(uint64(1<<63)) into a number union = %s, %v", out, err)
	}
	if _, err := marshalScalar([]int{1}, "v", []string{"string"}); err == nil {
		t.Error("marshalScalar of a slice succeeded")
	}
	if checkLiteral(true, "b", "true") != nil || checkLiteral("true", "b", "true") == nil || checkLiteral(1.0, "n", "1") != nil {
		t.Error("checkLiteral confuses a literal with its string")
	}
	if !sameJSON(json.RawMessage(`{ "a" : 1 }`), `{"a":1}`) || !sameJSON(json.RawMessage(`1.0`), `1`) || sameJSON(json.RawMessage(`"1"`), `1`) || sameJSON(json.RawMessage(`{`), `1`) {
		t.Error("sameJSON")
	}
}

// TestAlternatives: a scalar union's members narrow its values; a value
// must fit one of them (exactly one under oneOf), on decoding and encoding.
func TestAlternatives(t *testing.T) {
	alts := []alternative{
		{at: "anyOf/0", types: []string{"string"}, literals: []string{`"a"`, `"b"`}},
		{at: "anyOf/1", types: []string{"integer"}, bounds: &bounds{min: 0, hasMin: true}},
		{at: "anyOf/2", types: []string{"number", "null"}, literals: []string{"2.5", "null"}},
	}
	allowed := []string{"string", "integer", "number", "null"}
	for in, want := range map[string]string{
		`"a"`:   "",
		`0`:     "",
		`2.5`:   "",
		`null`:  "",
		`4.0`:   "",
		`"zzz"`: `"zzz" matches no member (anyOf/0: "zzz" is not one of "a", "b"; anyOf/1: not integer; anyOf/2: not number or null)`,
		`-5`:    `-5 matches no member (anyOf/0: not string; anyOf/1: -5 is below the minimum 0; anyOf/2: -5 is not one of 2.5, null)`,
		`1.5`:   `1.5 matches no member (anyOf/0: not string; anyOf/1: not integer; anyOf/2: 1.5 is not one of 2.5, null)`,
		`true`:  "expected string or integer or number or null, got true",
	} {
		_, err := unmarshalAlternatives([]byte(in), allowed, alts, false)
		if want == "" && err != nil || want != "" && (err == nil || err.Error() != want) {
			t.Errorf("%s: err = %v, want %q", in, err, want)
		}
	}
	exclusive := []alternative{{at: "oneOf/0", types: []string{"integer"}, bounds: &bounds{max: 10, hasMax: true}}, {at: "oneOf/1", types: []string{"number"}, bounds: &bounds{min: 5, hasMin: true}}}
	if _, err := unmarshalAlternatives([]byte(`7`), []string{"number"}, exclusive, true); err == nil || err.Error() != "7 matches more than one member of oneOf (oneOf/0, oneOf/1)" {
		t.Errorf("oneOf 7: %v", err)
	}
	for _, in := range []string{`4`, `11`, `7.5`} {
		if _, err := unmarshalAlternatives([]byte(in), []string{"number"}, exclusive, true); err != nil {
			t.Errorf("oneOf %s: %v", in, err)
		}
	}
	if out, err := marshalAlternatives(int64(3), "v", allowed, alts, false); err != nil || string(out) != "3" {
		t.Errorf("marshal 3: %s, %v", out, err)
	}
	if _, err := marshalAlternatives("c", "v", allowed, alts, false); err == nil || !strings.HasPrefix(err.Error(), `v: "c" matches no member`) {
		t.Errorf("marshal c: %v", err)
	}
	if _, err := marshalAlternatives([]int{1}, "v", allowed, alts, false); err == nil {
		t.Error("marshal of a slice succeeded")
	}
	if err := checkAlternatives(int32(1), alts, false); err == nil {
		t.Error("an int32 (not what unmarshalScalar returns) matched")
	}
}

func TestMetaKeys(t *testing.T) {
	for key, ok := range map[string]bool{
		"": true, "name": true, "a.b-c/x_y.z": true, "io.modelcontextprotocol/related-task": true, "x/": true,
		"/x": false, "a/b/c": false, "1a/x": false, "a-/x": false, "a..b/x": false, "-x": false, "x-": false, "a b": false,
	} {
		if err := ValidateMetaKey(key); (err == nil) != ok {
			t.Errorf("ValidateMetaKey(%q) = %v", key, err)
		}
	}
	for key, reserved := range map[string]bool{"io.modelcontextprotocol/x": true, "dev.mcp/x": true, "com.example.mcp/x": false, "mcp": false} {
		if IsReservedMetaKey(key) != reserved {
			t.Errorf("IsReservedMetaKey(%q) != %v", key, reserved)
		}
	}
}

// TestErrorsAndRaw: error paths nest, messages name JSON types, texts are
// cut on rune boundaries, and params/result/raw helpers check what they keep.
func TestErrorsAndRaw(t *testing.T) {
	err := within("params", within("content", within("[2]", &DecodeError{Path: "type", Msg: "bad"})))
	if err.Error() != "params.content[2].type: bad" {
		t.Errorf("within: %v", err)
	}
	var v struct{ A bool }
	if err := within("x", json.Unmarshal([]byte(`{"A":"s"}`), &v)); err.Error() != "x.A: expected a boolean, got string" {
		t.Errorf("type error: %v", err)
	}
	if err := within("x", json.Unmarshal([]byte(`{`), &v)); !strings.HasPrefix(err.Error(), "x: invalid JSON") {
		t.Errorf("syntax error: %v", err)
	}
	if err := within("x", errors.New("plain")); err.Error() != "x: plain" {
		t.Errorf("plain error: %v", err)
	}
	long := json.RawMessage(`"` + strings.Repeat("é", 30) + `"`)
	if s := truncate(long); !utf8.ValidString(s) || !strings.HasSuffix(s, "…") || len(s) > 44 {
		t.Errorf("truncate = %q", s)
	}
	if p, err := decodeParams[leaf](nil, false, false); err != nil || p == nil {
		t.Errorf("optional absent params: %v", err)
	}
	if _, err := decodeParams[leaf](json.RawMessage(`null`), true, false); err == nil {
		t.Error("required null params accepted")
	}
	if _, err := decodeParams[leaf](json.RawMessage(`null`), false, false); err == nil {
		t.Error("optional null params that may not be null accepted")
	}
	if p, err := decodeParams[leaf](json.RawMessage(`null`), true, true); err != nil || p == nil {
		t.Errorf("null params that may be null: %v", err)
	}
	if _, err := decodeParams[leaf](nil, true, true); err == nil {
		t.Error("required absent params that may be null accepted")
	}
	if _, err := decodeParams[leaf](json.RawMessage(`{"x":"s"}`), true, false); err == nil || !strings.HasPrefix(err.Error(), "params.") {
		t.Errorf("bad params: %v", err)
	}
	if p, err := decodeParams[leaf](json.RawMessage(`{"x":1}`), true, false); err != nil || p.X != 1 {
		t.Errorf("params: %v", err)
	}
	if r, err := decodeResult[leaf](json.RawMessage(`{"x":1}`)); err != nil || r.X != 1 {
		t.Errorf("result: %v", err)
	}
	if _, err := decodeResult[leaf](json.RawMessage(`{}`)); err == nil || !strings.HasPrefix(err.Error(), "result.") {
		t.Errorf("bad result: %v", err)
	}
	if _, err := rawValue([]byte(`{`)); err == nil {
		t.Error("rawValue of invalid JSON")
	}
	buf := []byte(`[1]`)
	raw, err := rawValue(buf)
	buf[1] = '2'
	if err != nil || string(raw) != "[1]" {
		t.Errorf("rawValue does not copy: %s %v", raw, err)
	}
	if checkRaw(nil, "r", 0, true) == nil || checkRaw(nil, "r", 0, false) != nil || checkRaw(json.RawMessage(`{`), "r", 0, false) == nil {
		t.Error("checkRaw")
	}
	if (&NotImplementedError{Method: "tools/call"}).Error() != "method not implemented: tools/call" {
		t.Error("NotImplementedError")
	}
	if p, err := viaPointer[leaf]([]byte(`null`)); p != nil || err != nil {
		t.Errorf("viaPointer(null) = %v %v", p, err)
	}
	if _, err := viaPointer[leaf]([]byte(`{}`)); err == nil {
		t.Error("viaPointer of a bad leaf succeeded")
	}
	if keep(&fields{}, nil) != nil {
		t.Error("keep of nothing")
	}
	if jsonKind([]byte(" x")) != 0 || jsonKind(nil) != 0 {
		t.Error("jsonKind of invalid input")
	}
}
