package argcheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"net/netip"
	"reflect"
	"strings"
	"testing"
	"time"
)

// unmarshalDecode is the decode Decode did before the tape: parse to a
// tree, shape, validate, rewrite the tree for the type's plan (exact names,
// integral numbers), re-encode when anything changed, json.Unmarshal, and
// validate again with the numbers as the floats hold them (floatProblem). It
// is the oracle FuzzDecode holds the tape decoder to.
// It also reports whether it re-encoded the arguments (sorting members, so
// that of several type errors another may come first).
func unmarshalDecode[T any](v *Validator, args json.RawMessage) (T, bool, error) {
	var in T
	doc, raw, changed, err := v.check(args)
	if err != nil {
		return in, false, err
	}
	doc, bound := planFor(reflect.TypeFor[T]()).apply(doc, 0)
	if changed || bound {
		if raw, err = json.Marshal(doc); err != nil {
			return in, true, err
		}
	}
	if err := json.Unmarshal(raw, &in); err != nil {
		return in, changed || bound, decodeProblem(err)
	}
	if err := floatProblem[T](v, doc, bytes.Trim(args, " \t\r\n")); err != nil {
		var zero T
		return zero, changed || bound, err
	}
	return in, changed || bound, nil
}

type weatherAt struct {
	Lat float64 `json:"lat"`
	Lon float64 `json:"lon"`
}

type weatherArgs struct {
	Location string     `json:"location"`
	Units    string     `json:"units,omitempty"`
	Days     int        `json:"days,omitempty"`
	Zip      string     `json:"zip,omitempty"`
	Email    string     `json:"email,omitempty"`
	Since    time.Time  `json:"since,omitzero"`
	Raw      []byte     `json:"raw,omitempty"`
	At       *weatherAt `json:"at,omitempty"`
	Tags     []string   `json:"tags,omitempty"`
	Limit    *int64     `json:"limit,omitempty"`
	Extra    weatherAt  `json:"extra"`
}

// upper is a TextUnmarshaler (as a string map key and as a value).
type upper string

func (u *upper) UnmarshalText(b []byte) error {
	if strings.Contains(string(b), "!") {
		return fmt.Errorf("upper: %q has a '!'", b)
	}
	*u = upper(strings.ToUpper(string(b)))
	return nil
}

// counted is a json.Unmarshaler that records what it got.
type counted struct{ raw string }

func (c *counted) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == 't' {
		return fmt.Errorf("counted: no booleans")
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	c.raw = fmt.Sprint(v)
	return nil
}

type Inner struct {
	A int    `json:"a"`
	B string `json:"b,omitempty"`
	C *Inner `json:"c,omitempty"`
}

type Other struct {
	A string `json:"a"` // collides with Inner.A at the same depth: neither decodes
	D bool   `json:"d"`
}

type hidden struct {
	H int `json:"h"`
}

type sinkArgs struct {
	Inner
	*Other
	hidden
	S    string  `json:"s"`
	N    int8    `json:"n"`
	U    uint16  `json:"u"`
	F    float32 `json:"f"`
	Q    int     `json:"q,string"`
	QS   string  `json:"qs,string"`
	QB   bool    `json:"qb,string"`
	Skip string  `json:"-"`
	//lint:ignore SA5008 "-," names the member "-" (encoding/json's rule, decoded here on purpose)
	Dash    string             `json:"-,"`
	Ptr     *string            `json:"ptr"`
	PP      **float64          `json:"pp"`
	Arr     [2]int             `json:"arr"`
	Ints    []int              `json:"ints"`
	Counts  map[string]int     `json:"counts"`
	ByNum   map[int]string     `json:"bynum"`
	ByUpper map[upper]int      `json:"byupper"`
	Any     any                `json:"any"`
	Raw     json.RawMessage    `json:"raw"`
	Num     json.Number        `json:"num"`
	Up      upper              `json:"up"`
	UpPtr   *upper             `json:"upptr"`
	Cnt     counted            `json:"cnt"`
	CntPtr  *counted           `json:"cntptr"`
	Str     fmt.Stringer       `json:"str"`
	Items   []Inner            `json:"items"`
	Bytes   []byte             `json:"bytes"`
	Addr    netip.Addr         `json:"addr"`
	When    *time.Time         `json:"when"`
	Rat     *big.Int           `json:"rat"`
	Nested  map[string][]bool  `json:"nested"`
	Flag    *bool              `json:"flag"`
	Plain   struct{ X, Y int } `json:"plain"`
}

// recordSchema has defaults and null-means-absent rules at every level
// (object, array items, map values).
const recordSchema = `{"type":"object","properties":{"a":{"type":"integer","default":7},"b":{"type":"string"},"c":{"$ref":"#"},"items":{"type":"array","items":{"$ref":"#"}},"counts":{"type":"object","additionalProperties":{"type":"integer"}},"any":{"type":"object","properties":{"k":{"type":"string","default":"dk"},"z":{"type":"number"}}},"cnt":{"type":"object","properties":{"w":{"type":"integer","default":1}}}}}`

var decodeSeeds = []string{
	`{"location":"Paris","units":"metric","days":3.0,"at":{"lat":48.85,"lon":2.35},"tags":["a","b"],"raw":"AAEC","since":"2026-07-28T00:00:00Z"}`,
	`{"location":"x","days":1e1,"limit":-0,"zip":null,"extra":{"lat":1,"lon":2}}`, `{"location":"x","Location":"y","LOCATION":"z"}`,
	`{"a":1,"b":"x","c":{"a":2.0,"c":{"a":3e0,"b":null}},"d":true,"h":5}`, `{"s":"\u00e9\ud800","n":127,"u":65535,"f":3.4e38}`,
	`{"n":128}`, `{"u":-1}`, `{"f":1e39}`, `{"q":"12","qs":"\"x\"","qb":"true"}`, `{"q":12}`, `{"q":"1.0"}`, `{"qs":"x"}`, `{"qb":"nope"}`,
	`{"-":"dash","Skip":"no"}`, `{"ptr":"p","pp":1.5}`, `{"ptr":null,"pp":null}`, `{"arr":[1,2,3]}`, `{"arr":[1]}`, `{"ints":[]}`, `{"ints":null}`,
	`{"counts":{"a":1,"b":2.0}}`, `{"bynum":{"1":"a","-2":"b"}}`, `{"bynum":{"x":"a"}}`, `{"byupper":{"ab":1}}`, `{"byupper":{"a!":1}}`,
	`{"any":{"x":[1,"2",null,{"y":1e400}]}}`, `{"any":1e400}`, `{"any":{"z":null}}`, `{"raw":{"a" : 1}}`, `{"num":1.5e3}`, `{"num":"12"}`, `{"num":"x"}`,
	`{"up":"abc","upptr":"d"}`, `{"up":1}`, `{"up":null,"upptr":null}`, `{"up":"a!"}`, `{"cnt":{"w":null},"cntptr":[1]}`, `{"cnt":true}`, `{"cnt":null}`,
	`{"str":"s"}`, `{"str":null}`, `{"items":[{"a":1},{"a":"x"},null]}`, `{"bytes":"AAEC"}`, `{"bytes":"!!"}`, `{"bytes":"AA\nEC"}`,
	`{"addr":"127.0.0.1"}`, `{"addr":"bad"}`, `{"when":"2026-07-28T00:00:00Z"}`, `{"when":"x"}`, `{"rat":123456789012345678901234567890}`,
	`{"nested":{"a":[true,false]}}`, `{"flag":true}`, `{"plain":{"X":1,"x":2}}`, `{"s":1}`, `{"n":"1"}`, `{"ints":{}}`, `{"counts":[]}`,
	`{}`, `null`, ``, `[]`, `"x"`, `1`, `{"a":1,"a":2}`,
}

// FuzzDecode holds the tape decoder to unmarshalDecode: for each of a few
// representative argument types and schemas (defaults and nulls at every
// level, every kind encoding/json decodes, its special cases), the same
// value or, when one fails, both fail with the same message.
func FuzzDecode(f *testing.F) {
	for _, s := range decodeSeeds {
		for which := range uint8(4) {
			f.Add(which, []byte(s))
		}
	}
	weather := mustCompile(f, weatherSchema)
	record := mustCompile(f, recordSchema)
	open := mustCompile(f, `{"type":"object"}`)
	f.Fuzz(func(t *testing.T, which uint8, args []byte) {
		switch which % 5 {
		case 0:
			sameDecode[weatherArgs](t, weather, args)
		case 1:
			sameDecode[sinkArgs](t, record, args)
		case 2:
			sameDecode[sinkArgs](t, open, args)
		case 3:
			sameDecode[map[string]any](t, record, args)
		case 4:
			sameDecode[any](t, record, args)
		}
	})
}

func TestDecodeMatchesUnmarshal(t *testing.T) {
	weather := mustCompile(t, weatherSchema)
	record := mustCompile(t, recordSchema)
	open := mustCompile(t, `{"type":"object"}`)
	for _, s := range decodeSeeds {
		sameDecode[weatherArgs](t, weather, []byte(s))
		sameDecode[sinkArgs](t, record, []byte(s))
		sameDecode[sinkArgs](t, open, []byte(s))
		sameDecode[map[string]any](t, record, []byte(s))
		sameDecode[any](t, record, []byte(s))
	}
}

func mustCompile(t testing.TB, schema string) *Validator {
	v, err := Compile(json.RawMessage(schema))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func sameDecode[T any](t *testing.T, v *Validator, args []byte) {
	t.Helper()
	got, err := NewDecoder[T](v).Decode(args)
	want, reencoded, werr := unmarshalDecode[T](v, args)
	switch {
	case (err == nil) != (werr == nil):
		t.Fatalf("Decode[%T](%q): %v; json.Unmarshal: %v", want, args, err, werr)
	case err != nil && !sameProblems(err, werr, reencoded):
		t.Fatalf("Decode[%T](%q): %v; json.Unmarshal: %v", want, args, err, werr)
	case err == nil && !reflect.DeepEqual(normalRaw(&got), normalRaw(&want)):
		t.Fatalf("Decode[%T](%q) = %#v; json.Unmarshal %#v", want, args, got, want)
	}
}

// normalRaw rewrites every json.RawMessage in *p in its canonical form
// (compact, sorted keys): an Unmarshaler gets the member's own bytes from
// the tape, and got them re-encoded before whenever the shape or the plan
// changed anything in the arguments.
func normalRaw[T any](p *T) T {
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		if v.Type() == reflect.TypeFor[json.RawMessage]() {
			var x any
			if raw := v.Bytes(); raw != nil && json.Unmarshal(raw, &x) == nil {
				b, _ := json.Marshal(x)
				v.SetBytes(b)
			}
			return
		}
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if !v.IsNil() && v.Elem().CanSet() {
				walk(v.Elem())
			}
		case reflect.Struct:
			for i := range v.NumField() {
				if v.Field(i).CanSet() {
					walk(v.Field(i))
				}
			}
		case reflect.Slice, reflect.Array:
			for i := range v.Len() {
				walk(v.Index(i))
			}
		}
	}
	walk(reflect.ValueOf(p).Elem())
	return *p
}

// sameProblems compares two Decode errors: the same message, except that
// an Unmarshaler's own error (which quotes the bytes it got: the
// member's own from the tape, re-encoded ones before) needs only the same
// pointer, and when the oracle re-encoded the arguments (in another member
// order) a type error may be another one.
// lastToken is the last reference token of JSON pointer p.
func lastToken(p string) string { return p[strings.LastIndexByte(p, '/')+1:] }

// subsequence reports whether every token of sub is in all, in order.
func subsequence(sub, all []string) bool {
	for _, tok := range all {
		if len(sub) > 0 && sub[0] == tok {
			sub = sub[1:]
		}
	}
	return len(sub) == 0
}

func sameProblems(a, b error, reencoded bool) bool {
	if a.Error() == b.Error() {
		return true
	}
	va, ok1 := a.(*ValidationError)
	vb, ok2 := b.(*ValidationError)
	if !ok1 || !ok2 || len(va.Problems) != 1 || len(vb.Problems) != 1 {
		return false
	}
	pa, pb := va.Problems[0], vb.Problems[0]
	if pa.Keyword == pb.Keyword && pa.Message == pb.Message && (pb.Pointer == "" || lastToken(pa.Pointer) == lastToken(pb.Pointer) || subsequence(strings.Split(pb.Pointer, "/"), strings.Split(pa.Pointer, "/"))) {
		// json.Unmarshal's error names the struct fields only, with the
		// Go names of embedded structs, or no member at all; the
		// decoder's pointer adds array indexes and map member names and
		// leaves embedded structs out (TestDecodeErrorsPointAtTheirMember).
		return true
	}
	typeError := func(p Problem) bool { return strings.HasPrefix(p.Message, "cannot hold ") }
	if pa.Keyword != "type" || pb.Keyword != "type" {
		return false
	}
	return reencoded || !typeError(pa) && !typeError(pb) && pa.Pointer == pb.Pointer
}

// TestPlainType: only types whose values indirect hands back unchanged
// skip it (a pointer, an interface or an unmarshaler at either receiver,
// by value, promoted or behind an embedded pointer, does not); a container
// of unmarshalers is plain itself (indirect hands it back; its elements
// are checked one by one).
func TestPlainType(t *testing.T) {
	for _, c := range []struct {
		typ   reflect.Type
		plain bool
	}{
		{reflect.TypeFor[string](), true},
		{reflect.TypeFor[int](), true},
		{reflect.TypeFor[[]string](), true},
		{reflect.TypeFor[map[string]int](), true},
		{reflect.TypeFor[weatherAt](), true},
		{reflect.TypeFor[*int](), false},
		{reflect.TypeFor[any](), false},
		{reflect.TypeFor[upper](), false},           // *upper.UnmarshalText
		{reflect.TypeFor[json.RawMessage](), false}, // *RawMessage.UnmarshalJSON
		{reflect.TypeFor[time.Time](), false},
		{reflect.TypeFor[netip.Addr](), false},
		{reflect.TypeFor[big.Rat](), false},
		{reflect.TypeFor[valueUn](), false},
		{reflect.TypeFor[valueText](), false},
		{reflect.TypeFor[promotes](), false},
		{reflect.TypeFor[promotesPtr](), false},
		{reflect.TypeFor[upperList](), false},
		{reflect.TypeFor[[]*int](), true},
		{reflect.TypeFor[[2]upper](), true},
		{reflect.TypeFor[deepInner](), true},
		{reflect.TypeFor[plainArgs](), true},
	} {
		if got := plainType(c.typ); got != c.plain {
			t.Errorf("plainType(%v) = %v, want %v", c.typ, got, c.plain)
		}
		// Indirect agrees: a plain type's addressable value comes back as
		// is, any other's does not (but a nil interface's, which it has
		// nothing to walk in: interfaces are never plain).
		v := reflect.New(c.typ).Elem()
		u, ut, pv := indirect(v, false)
		same := u == nil && ut == nil && pv == v
		if c.plain && !same || !c.plain && same && c.typ.Kind() != reflect.Interface {
			t.Errorf("indirect(%v) returns the value itself: %v, plain %v", c.typ, same, c.plain)
		}
	}
}
