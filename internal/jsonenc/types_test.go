package jsonenc

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// The types the differential tests encode: every rule of encoding/json's
// encoder is reached by at least one field.

// rawMarshal's MarshalJSON returns the string as it is: invalid JSON,
// whitespace to compact and HTML characters to escape.
type rawMarshal string

func (r rawMarshal) MarshalJSON() ([]byte, error) {
	if r == "!" {
		return nil, errors.New("raw refused")
	}
	return []byte(r), nil
}

// ptrMarshal has a pointer-receiver MarshalJSON: called only when the
// value is addressable.
type ptrMarshal struct{ N int }

func (p *ptrMarshal) MarshalJSON() ([]byte, error) {
	if p.N < 0 {
		return nil, fmt.Errorf("negative %d", p.N)
	}
	return fmt.Appendf(nil, ` { "n" : %d } `, p.N), nil
}

// text's MarshalText returns the string; "!"-prefixed strings fail.
type text string

func (t text) MarshalText() ([]byte, error) {
	if len(t) > 0 && t[0] == '!' {
		return nil, errors.New("text refused")
	}
	return []byte("t:" + t), nil
}

// ptrText has a pointer-receiver MarshalText.
type ptrText struct{ S string }

func (p *ptrText) MarshalText() ([]byte, error) {
	if p.S == "!" {
		return nil, errors.New("ptr text refused")
	}
	return []byte("<" + p.S + ">"), nil
}

// zeroer has an IsZero that disagrees with reflect's.
type zeroer struct{ N int }

func (z zeroer) IsZero() bool { return z.N%2 == 0 }

type ptrZeroer struct{ N int }

func (z *ptrZeroer) IsZero() bool { return z.N == 7 }

type inner struct {
	A int            `json:"a,omitempty"`
	B string         `json:"b,string"`
	C *float64       `json:",omitempty"`
	D []byte         `json:"d"`
	E [2]uint8       `json:"e"`
	F map[string]int `json:"f,omitzero"`
	G []string       `json:"g,omitempty"`
	H *int           `json:"h,string"`
	//lint:ignore SA5008 encoding/json quotes through one unnamed pointer only: **int is not quoted
	I **int   `json:"i,string"`
	J float32 `json:"j,string"`
	K uint16  `json:",string"`
	L bool    `json:",string"`
	//lint:ignore SA5008 ",string" on an interface is ignored by encoding/json: the encoder must ignore it too
	M  any         `json:",string"`
	N  json.Number `json:",string"`
	Z  zeroer      `json:",omitzero"`
	ZP ptrZeroer   `json:",omitzero"`
	ZI interface {
		IsZero() bool
	} `json:",omitzero"`
	ZT time.Time       `json:",omitzero"`
	ZS struct{ X int } `json:",omitzero"`
	ZE struct{ X int } `json:",omitempty"`
}

type EmbedA struct {
	X      int
	Y      string `json:"y"`
	Shared int
	Deep
}

type EmbedB struct {
	X      int
	Shared int `json:"Shared"`
	Y      string
}

type Deep struct {
	Y     string
	Depth int
}

type embedHidden struct {
	Visible int
	//lint:ignore U1000 an unexported field, which the encoding must leave out
	hidden int
}

type (
	Named string
	Bytes []byte
	Byte  byte
)

type node struct {
	V    int   `json:"v"`
	Next *node `json:"next,omitempty"`
	Kids []node
}

type all struct {
	EmbedA
	*EmbedB
	embedHidden
	Inner inner
	P     *inner `json:"p,omitempty"`
	Any   any    `json:"any"`
	Anys  []any
	M     map[int]string
	MU    map[uint8]bool `json:",omitempty"`
	MT    map[text]int
	MN    map[Named]float64
	MA    map[string]any
	L     []inner
	LP    []*int
	Num   json.Number `json:",omitempty"`
	Raw   json.RawMessage
	Raws  []json.RawMessage
	T     time.Time
	TP    *time.Time
	F32   float32
	F64   float64
	I8    int8
	U     uint64
	UP    uintptr
	S     string `json:"<&>"`
	NS    Named
	BS    Bytes
	BB    []Byte
	//lint:ignore U1000 an unexported field, which the encoding must leave out
	hidden   int
	Stringer fmt.Stringer
	Err      error
	Raw2     rawMarshal
	RawP     *rawMarshal
	PM       ptrMarshal
	PMP      *ptrMarshal
	PMs      []ptrMarshal
	PMm      map[string]ptrMarshal
	Txt      text
	PT       ptrText
	PTs      [2]ptrText
	Arr      [3]string
	//lint:ignore SA5008 "-," names the member "-" (encoding/json's rule, encoded here on purpose)
	Dash int `json:"-,"`
	Skip int `json:"-"`
	//lint:ignore SA5008 an invalid tag name falls back to the Go name, as in encoding/json
	BadTag  int `json:"a\"b"`
	Uni     int `json:"ünï"`
	Node    *node
	Ch      chan int `json:",omitempty"`
	Fn      func()   `json:",omitempty"`
	Cx      complex64
	Nested  [][]map[string][]*int
	Pointer *any
	Empty   struct{}
	//lint:ignore U1000 an unexported field, which the encoding must leave out
	unexported inner
}

// conflict has two embedded structs at one depth naming X: X vanishes,
// the tagged Shared wins.
type conflict struct {
	EmbedA
	EmbedB
	Z int
}

// EmbedPtr embeds pointers (nil ones hide their fields), one of them
// under a tag name.
type EmbedPtr struct {
	*Deep
	*EmbedB `json:"eb"`
	Q       int
	PT      ptrText
}

// plainName is a named string with a method that is not a marshaler: a
// plain field still.
type plainName string

func (plainName) Len() int { return 0 }

// plainEmbedded is embedded by value in plainAll: its fields are plain
// fields of plainAll, at their offsets through it.
type plainEmbedded struct {
	X  int8   `json:"x"`
	Y  uint16 `json:"y,omitempty"`
	Ok bool
}

// plainAll has plain fields only (every kind, omitempty, omitzero, an
// embedded struct, a key with HTML characters): Marshal of the value
// reads it in the interface, of the pointer through reflect.
type plainAll struct {
	S   string    `json:"s"`
	SE  string    `json:"se,omitempty"`
	N   plainName `json:"<n&>"`
	B   bool      `json:"b,omitzero"`
	I   int       `json:"i"`
	I16 int16     `json:",omitempty"`
	I32 int32
	I64 int64 `json:"i64,omitzero"`
	U   uint
	U8  uint8   `json:",omitempty"`
	U32 uint32  `json:"u32"`
	U64 uint64  `json:"u64"`
	UP  uintptr `json:"up,omitempty"`
	F32 float32 `json:"f32"`
	F64 float64 `json:"f64,omitempty"`
	FZ  float64 `json:"fz,omitzero"`
	FP  float64
	plainEmbedded
}

// fuzzTypes are the types FuzzMarshal fills and encodes.
var fuzzTypes = []func() any{
	func() any { return new(all) },
	func() any { return new(inner) },
	func() any { return new(conflict) },
	func() any { return new(EmbedPtr) },
	func() any { return new(node) },
	func() any { return new(any) },
	func() any { return new(map[string]any) },
	func() any { return new([]any) },
	func() any { return new(map[text][]rawMarshal) },
	func() any { return new(string) },
	func() any { return new(float64) },
	func() any { return new(float32) },
	func() any { return new(json.Number) },
	func() any { return new([]byte) },
	func() any { return new(rawMarshal) },
	func() any { return new(ptrMarshal) },
	func() any { return new(ptrText) },
	func() any { return new(text) },
	func() any { return new(plainAll) },
	func() any { return new([]plainAll) },
	func() any { return new(struct{ P plainAll }) },
}
