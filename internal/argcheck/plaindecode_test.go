package argcheck

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// valueUn is a json.Unmarshaler at the value receiver (so both valueUn and
// *valueUn implement it); it keeps what it got in a shared sink.
type valueUn struct{ p *string }

func (v valueUn) UnmarshalJSON(b []byte) error {
	if v.p != nil {
		*v.p = string(b)
	}
	if len(b) > 0 && b[0] == 'f' {
		return fmt.Errorf("valueUn: no false")
	}
	return nil
}

// valueText is a TextUnmarshaler at the value receiver (it can only
// accept or refuse).
type valueText string

func (v valueText) UnmarshalText(b []byte) error {
	if strings.Contains(string(b), "!") {
		return fmt.Errorf("valueText: %q has a '!'", b)
	}
	return nil
}

// promotes embeds counted: *promotes has counted's UnmarshalJSON, so the
// whole object goes to it, its own field X included.
type promotes struct {
	counted
	X int `json:"x"`
}

// promotesPtr embeds upper: *promotesPtr has upper's UnmarshalText, so a
// string decodes into it and an object does not.
type promotesPtr struct {
	upper
	Y int `json:"y"`
}

// upperList is a named slice with an Unmarshaler.
type upperList []string

func (u *upperList) UnmarshalJSON(b []byte) error {
	*u = upperList{strings.ToUpper(string(b))}
	return nil
}

type deepInner struct {
	Z  int     `json:"z"`
	Up upper   `json:"dup"`
	Cn counted `json:"dcn"`
}

type plainArgs struct {
	*deepInner          // fields reached through an embedded pointer
	Prom       promotes `json:"prom"`
	PromP      promotesPtr
	UpList     upperList           `json:"uplist"`
	UpArr      [2]upper            `json:"uparr"`
	CntArr     [2]counted          `json:"cntarr"`
	UpSlice    []upper             `json:"upslice"`
	CntSlice   []counted           `json:"cntslice"`
	PtrSlice   []*int              `json:"ptrslice"`
	AnySlice   []any               `json:"anyslice"`
	AnyArr     [2]any              `json:"anyarr"`
	UpMap      map[string]upper    `json:"upmap"`
	CntMap     map[string]*counted `json:"cntmap"`
	Nested     [][]upper           `json:"nested"`
	ArrArr     [2][1]counted       `json:"arrarr"`
	ValText    valueText           `json:"valtext"`
	VU         valueUn             `json:"vu"`
	PtrArr     [2]*string          `json:"ptrarr"`
	Iface      fmt.Stringer        `json:"iface"`
	Plain      [2]int              `json:"plain"`
	Struct     struct {
		U upper   `json:"u"`
		C counted `json:"c"`
		P *int    `json:"p"`
	} `json:"struct"`
}

var plainSeeds = []string{
	`{"z":1,"dup":"ab","dcn":{"q":1}}`, `{"dup":1}`, `{"dcn":true}`, `{"z":null,"dup":null,"dcn":null}`,
	`{"prom":{"x":5,"raw":1}}`, `{"prom":null}`, `{"prom":true}`, `{"prom":"s"}`,
	`{"PromP":"abc"}`, `{"PromP":{"y":1}}`, `{"PromP":null}`, `{"PromP":"a!"}`,
	`{"uplist":[1,2]}`, `{"uplist":null}`, `{"uplist":"x"}`,
	`{"uparr":["a","b","c"]}`, `{"uparr":[1]}`, `{"uparr":["a!"]}`, `{"uparr":[null,"x"]}`, `{"uparr":null}`,
	`{"cntarr":[{"a":1},[2]]}`, `{"cntarr":[true]}`, `{"cntarr":[null]}`,
	`{"upslice":["a","b"]}`, `{"upslice":[1]}`, `{"upslice":[null]}`, `{"cntslice":[1,"x",null]}`, `{"cntslice":[false,true]}`,
	`{"ptrslice":[1,null,2]}`, `{"anyslice":[1,{"a":[]},null]}`, `{"anyarr":[1,2,3]}`,
	`{"upmap":{"a":"b","c":null}}`, `{"upmap":{"a":1}}`, `{"cntmap":{"a":{"b":1},"c":null}}`,
	`{"nested":[["a"],["b","c"],null]}`, `{"nested":[[1]]}`, `{"arrarr":[[{"x":1}],[true]]}`, `{"arrarr":[[null]]}`,
	`{"valtext":"k"}`, `{"vu":false}`, `{"vu":[1]}`, `{"valtext":"k!"}`, `{"valtext":{"k":1}}`, `{"valtext":null}`, `{"valtext":1}`,
	`{"ptrarr":["a",null]}`, `{"iface":null}`, `{"iface":"x"}`, `{"plain":[1,2,3]}`, `{"plain":null}`, `{"plain":["x"]}`,
	`{"struct":{"u":"a","c":{"b":2},"p":3}}`, `{"struct":{"u":1}}`, `{"struct":{"c":true}}`, `{"struct":null}`,
}

func TestDecodePlainTypesMatchUnmarshal(t *testing.T) {
	open := mustCompile(t, `{"type":"object"}`)
	for _, s := range plainSeeds {
		sameDecode[plainArgs](t, open, []byte(s))
		sameDecode[[2]upper](t, open, []byte(s))
		sameDecode[promotes](t, open, []byte(s))
	}
	for _, s := range []string{`["a","b"]`, `[1]`, `[null]`, `null`, `"x"`} {
		sameDecode[[2]upper](t, open, []byte(s))
		sameDecode[[]upper](t, open, []byte(s))
		sameDecode[[1]counted](t, open, []byte(s))
		sameDecode[upperList](t, open, []byte(s))
	}
}

func FuzzDecodePlain(f *testing.F) {
	for _, s := range append(plainSeeds, decodeSeeds...) {
		f.Add([]byte(s))
	}
	open := mustCompile(f, `{"type":"object"}`)
	f.Fuzz(func(t *testing.T, args []byte) {
		sameDecode[plainArgs](t, open, args)
	})
}

var _ json.Unmarshaler = valueUn{}
