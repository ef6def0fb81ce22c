package jsonenc

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"
)

type pmStr string

func (pmStr) MarshalJSON() ([]byte, error) { return []byte(`"M"`), nil }

type ppStr string

func (*ppStr) MarshalJSON() ([]byte, error) { return []byte(`"PM"`), nil }

type ptStr string

func (*ptStr) MarshalText() ([]byte, error) { return []byte(`PT`), nil }

type pzInt int

func (pzInt) IsZero() bool { return true }

type ppzInt int

func (*ppzInt) IsZero() bool { return true }

type pStructPtrM struct{ A int }

func (*pStructPtrM) MarshalJSON() ([]byte, error) { return []byte(`"SPM"`), nil }

type pInnerA struct {
	A int
	B string
}
type pInnerB struct {
	A int
	C bool
}
type pinner struct{ X, Y int }

type pShadow struct {
	pInnerA
	pInnerB
	pinner
	B string `json:"B"`
}

type pOneBool struct{ B bool }
type pOneStr struct{ S string }
type pOneU8 struct{ U uint8 }
type pOnePtr struct{ P *int }
type pZero struct{}
type pArrHolder struct {
	Arr [2]pOneStr
	Z   pZero
	E   [0]int
}

type pOmit struct {
	S    string  `json:",omitempty"`
	B    bool    `json:",omitempty"`
	I8   int8    `json:",omitempty"`
	I16  int16   `json:",omitempty"`
	I32  int32   `json:",omitempty"`
	I64  int64   `json:",omitempty"`
	I    int     `json:",omitempty"`
	U8   uint8   `json:",omitempty"`
	U16  uint16  `json:",omitempty"`
	U32  uint32  `json:",omitempty"`
	U64  uint64  `json:",omitempty"`
	F32  float32 `json:",omitempty"`
	F64  float64 `json:",omitempty"`
	ZF32 float32 `json:",omitzero"`
	ZF64 float64 `json:",omitzero"`
	Dash int     `json:"-"`
	//lint:ignore SA5008 "-," names the member "-" (encoding/json's rule, encoded here on purpose)
	DashC int `json:"-,"`
	St    int `json:",string"`
}

type pNamed struct {
	A pmStr
	B ppStr
	C ptStr
	D pzInt  `json:",omitzero"`
	E ppzInt `json:",omitzero"`
	F pzInt  `json:",omitempty"`
}

type pWithStruct struct {
	S pStructPtrM
	N int
}

func TestPlainFieldsSameAsEncodingJSON(t *testing.T) {
	vals := []any{
		pOneBool{true}, pOneBool{}, &pOneBool{true}, pOneStr{"a<b\u2028\x7f\xff"}, pOneU8{200},
		pOnePtr{}, pZero{}, pArrHolder{}, [2]pOneStr{{"x"}, {"y"}}, &[2]pOneStr{{"x"}, {"y"}},
		pShadow{pInnerA{1, "b"}, pInnerB{2, true}, pinner{3, 4}, "top"}, &pShadow{B: "t"},
		pOmit{}, pOmit{F32: float32(math.Copysign(0, -1)), F64: math.Copysign(0, -1), ZF32: float32(math.Copysign(0, -1)), ZF64: math.Copysign(0, -1)},
		pOmit{S: "s", B: true, I8: -1, I16: -1, I32: -1, I64: math.MinInt64, I: 1, U8: 255, U16: 1, U32: 1, U64: math.MaxUint64, F32: 1e-7, F64: 1e21, ZF32: 3.4e38, ZF64: 5e-324, Dash: 1, DashC: 2, St: 3},
		pNamed{}, &pNamed{}, []pNamed{{}}, map[string]pNamed{"k": {}}, []any{pNamed{}, &pNamed{}},
		pWithStruct{}, &pWithStruct{}, []pWithStruct{{}}, map[string]pWithStruct{"a": {}},
		pStructPtrM{}, &pStructPtrM{}, []pStructPtrM{{}}, map[string]pStructPtrM{"a": {}}, []any{pStructPtrM{}},
		pOmit{F64: math.NaN()}, pOmit{F64: math.Inf(-1)}, pOmit{F32: float32(math.Inf(1))}, &pOmit{F64: math.NaN()},
		pOmit{ZF64: math.NaN()}, []pOmit{{F64: math.Inf(1)}},
		pOmit{F64: 0.1}, pOmit{F64: -0.05}, pOmit{F64: 123456789.25}, pOmit{F64: 1e20}, pOmit{F64: 100}, pOmit{F64: -1234567.5},
		pOmit{F32: 0.1}, pOmit{F32: 16777216}, pOmit{F32: 1e21}, pOmit{F32: -3.14},
		struct{ S string }{"\xed\xa0\x80 <>& \u2029"}, []struct{ S string }{{"ok"}},
		map[string]any{"a": pOneStr{"z"}, "b": pOneBool{true}},
	}
	for _, v := range vals {
		if d := diff(v); d != "" {
			t.Error(d)
		}
	}
	for _, f := range []float64{0.000001, 0.0000001, 1e-5, 12345678901234.5, 99999999999999.9, 0.123456789012, 1.0000000000000002, math.Copysign(0, -1), 4.35, 2.675, 1e15, 1e16 + 2} {
		if d := diff(pOmit{F64: f, ZF64: f}); d != "" {
			t.Error(d)
		}
		if d := diff(struct{ F float64 }{f}); d != "" {
			t.Error(d)
		}
	}
}

func TestPlainFieldsReadWhileOthersRead(t *testing.T) {
	v := &struct {
		A pOmit
		L []pOneStr
		P pArrHolder
	}{A: pOmit{S: "x", F64: 1.5}, L: []pOneStr{{"a"}, {"b"}}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; i < 200; i++ {
			_ = v.A.S + v.L[0].S
			_, _ = Marshal(v.A)
		}
	}()
	for i := 0; i < 200; i++ {
		if d := diff(v); d != "" {
			t.Error(d)
		}
		if d := diff(v.A); d != "" {
			t.Error(d)
		}
	}
	<-done
}

func TestPlainFieldsNegativeZero(t *testing.T) {
	nz := math.Copysign(0, -1)
	for _, v := range []any{struct{ F float64 }{nz}, struct{ F float32 }{float32(nz)}, &struct{ F float64 }{nz}, []struct{ F float64 }{{nz}}, map[string]struct{ F float64 }{"a": {nz}}} {
		if d := diff(v); d != "" {
			t.Error(d)
		}
	}
}

type pIn1 struct{ A int }

func (*pIn1) MarshalJSON() ([]byte, error) { return []byte(`"in1"`), nil }

type pIn2 struct{ B string }

func (*pIn2) MarshalJSON() ([]byte, error) { return []byte(`"in2"`), nil }

type pOutAmb struct {
	pIn1
	pIn2
}
type pOutOne struct {
	pIn1
	C int
}
type pIn3 struct{ A int }

func (pIn3) MarshalText() ([]byte, error) { return []byte(`t3`), nil }

type pIn4 struct{ B int }

func (pIn4) MarshalText() ([]byte, error) { return []byte(`t4`), nil }

type pOutAmbV struct {
	pIn3
	pIn4
	D bool
}

func TestPlainFieldsEmbeddedMarshalers(t *testing.T) {
	for _, v := range []any{pOutAmb{}, &pOutAmb{}, []pOutAmb{{}}, pOutOne{}, &pOutOne{}, []pOutOne{{}}, map[string]pOutOne{"a": {}},
		pOutAmbV{}, &pOutAmbV{}, []pOutAmbV{{}}, [1]pOutAmbV{}, struct{ X [2]pOutOne }{}, &struct{ X [2]pOutOne }{}} {
		if d := diff(v); d != "" {
			t.Error(d)
		}
	}
}

// TestRootPlainErrorValueIsNotSettable: a NaN in a root struct of plain
// fields, read in Marshal's interface, is reported with a Value that cannot
// be set, as json.Marshal's: setting it would change the caller's
// interface, which Go holds immutable.
func TestRootPlainErrorValueIsNotSettable(t *testing.T) {
	type T struct {
		F float64
		G float32
	}
	for _, v := range []any{T{F: math.NaN()}, T{G: float32(math.Inf(1))}} {
		_, err := Marshal(v)
		ge, ok := err.(*json.UnsupportedValueError)
		if !ok {
			t.Fatalf("Marshal(%v): %v, want an UnsupportedValueError", v, err)
		}
		_, werr := json.Marshal(v)
		we := werr.(*json.UnsupportedValueError)
		if ge.Value.CanSet() != we.Value.CanSet() || ge.Value.Type() != we.Value.Type() {
			t.Errorf("error's Value: CanSet %v, type %v; json.Marshal's: CanSet %v, type %v",
				ge.Value.CanSet(), ge.Value.Type(), we.Value.CanSet(), we.Value.Type())
		}
	}
}

// TestRootPlainMarshalRoom: the Encoder's framed encoding of a root
// struct of plain fields is Marshal's behind the room asked for.
func TestRootPlainMarshalRoom(t *testing.T) {
	v := pOmit{S: "<é>", F64: 2.5, U64: math.MaxUint64}
	want, _ := json.Marshal(v)
	e := NewEncoder(reflect.TypeFor[pOmit]())
	for range 2 {
		b, err := e.MarshalRoom(v, 3, 5)
		if err != nil || string(b[3:]) != string(want) || string(b[:3]) != "\x00\x00\x00" || cap(b)-len(b) < 5 {
			t.Fatalf("MarshalRoom: %q (cap %d), %v; want %q behind 3 zeros", b, cap(b), err, want)
		}
	}
}
