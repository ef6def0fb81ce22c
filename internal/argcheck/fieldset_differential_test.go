package argcheck

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"
)

type probeUnitsJSON string

func (u probeUnitsJSON) UnmarshalJSON(b []byte) error { return nil } // value receiver: a no-op

type probeInner struct {
	Location string `json:"location"`
	Flag     bool   `json:"flag"`
	Deep     string `json:"deep"`
}

type probeArgs struct {
	probeInner
	Location string         `json:"location"` // shadows the embedded one
	Units    directLabel    `json:"units"`
	UJ       probeUnitsJSON `json:"uj"`
	UT       upper          `json:"ut"`
	P        *string        `json:"p"`
	Skip     string         `json:"-"`
	Renamed  string         `json:"other_name"`
	//lint:ignore SA5008 "-," names the member "-" (encoding/json's rule, decoded here on purpose)
	Dash    string      `json:"-,"`
	On      bool        `json:"on"`
	Nested  probeInner  `json:"nested"`
	NestedP *probeInner `json:"nested_p"`
}

func TestDirectStoreMatchesUnmarshal(t *testing.T) {
	schemas := []string{
		`{"type":"object"}`,
		`{"type":"object","properties":{"location":{"type":"string"},"units":{"type":"string"},"on":{"type":"boolean"},"ghost":{"type":"string"},"deep":{"type":"string"},"-":{"type":"string"},"Skip":{}}}`,
		`{"type":"object","properties":{"location":{"type":"string"},"on":{"type":"boolean"}},"additionalProperties":{"type":"string"}}`,
		`{"type":"object","properties":{"location":{"type":"string"},"on":{"type":"boolean","default":true},"units":{"type":"string","default":"metric"}}}`,
		`{"type":"object","properties":{"a":{},"b":{},"c":{},"d":{},"e":{},"f":{},"g":{},"h":{},"i":{},"location":{"type":"string"},"deep":{},"units":{},"on":{}}}`,
	}
	docs := []string{
		`{"location":"a","flag":true,"deep":"d","units":"u","uj":"x","ut":"low","p":"pp","Skip":"s","-":"dash","other_name":"r","on":false}`,
		`{"\u006cocation":"esc","\u0064eep":"d2","\u006fn":true}`,
		`{"location":"a\u0000b","units":"\ud83d\ude00","deep":"\u00e9\n"}`,
		"{\"location\":\"bad\xff\xfeutf8\",\"deep\":\"x\xc3\"}",
		`{"location":1}`, `{"on":"true"}`, `{"location":true}`, `{"on":1}`, `{"on":null,"location":null}`,
		`{"nested":{"location":"n","flag":true,"deep":"\u0041"},"nested_p":{"location":"np","flag":"x"}}`,
		`{"nested":{"flag":"no"}}`, `{"nested_p":{"deep":3}}`,
		`{"ghost":"g","location":"x"}`, `{"Skip":"s","skip":"t"}`,
	}
	for _, s := range schemas {
		v := mustCompile(t, s)
		for _, d := range docs {
			sameDecode[probeArgs](t, v, []byte(d))
		}
	}
}

// Exact names: a case-folded name never fills a field, directly stored or not.
func TestDirectStoreExactNames(t *testing.T) {
	for _, s := range []string{`{"type":"object"}`, `{"type":"object","properties":{"location":{"type":"string"},"on":{"type":"boolean"}}}`} {
		v := mustCompile(t, s)
		got, err := NewDecoder[probeArgs](v).Decode([]byte(`{"LOCATION":"x","On":true,"Units":"u","locatioN":"y","\u004cocation":"z"}`))
		if err != nil {
			t.Fatal(err)
		}
		if got.Location != "" || got.On || got.Units != "" {
			t.Fatalf("%s: case folded: %+v", s, got)
		}
	}
}

// A directly stored string does not change when the arguments' buffer is reused.
func TestDirectStoreOwnsSmallString(t *testing.T) {
	v := mustCompile(t, `{"type":"object","properties":{"location":{"type":"string"}}}`)
	buf := []byte(`{"location":"abcdef"}`)
	got, err := NewDecoder[probeArgs](v).Decode(buf)
	if err != nil {
		t.Fatal(err)
	}
	for i := range buf {
		buf[i] = 'X'
	}
	if got.Location != "abcdef" {
		t.Fatalf("aliases the buffer: %q", got.Location)
	}
}

func TestDirectStoreConcurrent(t *testing.T) {
	v := mustCompile(t, `{"type":"object","properties":{"location":{"type":"string"},"on":{"type":"boolean"}}}`)
	dec := NewDecoder[probeArgs](v)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				loc := strings.Repeat(string(rune('a'+g)), i%7+1)
				got, err := dec.Decode([]byte(`{"location":"` + loc + `","on":true,"nested":{"location":"` + loc + `"}}`))
				if err != nil || got.Location != loc || !got.On || got.Nested.Location != loc {
					t.Errorf("%v %+v", err, got)
					return
				}
			}
		}()
	}
	wg.Wait()
}

var _ = json.Number("")

func FuzzDirectStore(f *testing.F) {
	for _, s := range []string{`{"location":"a","on":true,"units":"u","nested":{"location":"b","flag":false}}`, `{"\u006cocation":"x\u0000","deep":"\u00e9"}`, `{"on":"x","location":false}`} {
		for w := range uint8(3) {
			f.Add(w, []byte(s))
		}
	}
	vs := []*Validator{
		mustCompile(f, `{"type":"object"}`),
		mustCompile(f, `{"type":"object","properties":{"location":{"type":"string"},"units":{"type":"string"},"on":{"type":"boolean"},"ghost":{"type":"string"},"deep":{"type":"string"}}}`),
		mustCompile(f, `{"type":"object","properties":{"location":{"type":"string"},"on":{"type":"boolean","default":true},"units":{"type":"string","default":"metric"}},"additionalProperties":{"type":"string"}}`),
	}
	f.Fuzz(func(t *testing.T, which uint8, args []byte) {
		sameDecode[probeArgs](t, vs[int(which)%len(vs)], args)
	})
}

// A member named twice, once through an escape, is refused, not stored
// twice (the last one winning) by the direct path.
func TestDirectStoreRepeatedEscapedName(t *testing.T) {
	for _, s := range []string{`{"type":"object"}`, `{"type":"object","properties":{"location":{"type":"string"},"on":{"type":"boolean"}}}`} {
		v := mustCompile(t, s)
		for _, d := range []string{`{"location":"a","\u006cocation":"b"}`, `{"on":true,"\u006fn":false}`, `{"\u006fn":true,"o\u006e":false}`} {
			if got, err := NewDecoder[probeArgs](v).Decode([]byte(d)); err == nil {
				t.Errorf("%s %s: accepted: %+v", s, d, got)
			}
		}
	}
}

type probeNode struct {
	Name  string      `json:"name"`
	On    bool        `json:"on"`
	Child *probeNode  `json:"child"`
	Kids  []probeNode `json:"kids"`
}

// A recursive schema ("$ref": "#") gives nested objects the root's shape;
// they are of the root's type here, and fill as encoding/json fills them.
func TestDirectStoreRecursiveSchema(t *testing.T) {
	v := mustCompile(t, `{"type":"object","properties":{"name":{"type":"string","default":"d"},"on":{"type":"boolean"},"child":{"$ref":"#"},"kids":{"type":"array","items":{"$ref":"#"}}}}`)
	for _, d := range []string{
		`{"name":"r","child":{"name":"c","on":true,"child":{"\u006eame":"g"}},"kids":[{"name":"k1"},{"on":false},{"name":1}]}`,
		`{"child":{"on":"x"}}`, `{"kids":[{"child":{"name":"\u00e9"}}]}`,
	} {
		sameDecode[probeNode](t, v, []byte(d))
	}
}

type probeOther struct {
	Pad  [3]int64 `json:"pad"`
	On   bool     `json:"on"`
	Name string   `json:"name"`
}

type probeTop struct {
	Name  string      `json:"name"`
	On    bool        `json:"on"`
	Child *probeOther `json:"child"`
}

// A nested object under the root's shape but of another Go type is filled
// by that type's own fields, not the root's offsets.
func TestDirectStoreRootShapeOtherType(t *testing.T) {
	v := mustCompile(t, `{"type":"object","properties":{"name":{"type":"string"},"on":{"type":"boolean"},"child":{"$ref":"#"}}}`)
	for _, d := range []string{`{"name":"r","on":true,"child":{"name":"c","on":true}}`, `{"child":{"on":false,"name":"x"}}`} {
		sameDecode[probeTop](t, v, []byte(d))
	}
}
