package argcheck

import (
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

type ownedArgs struct {
	Data  string `json:"data"`
	Note  string `json:"note"`
	Other any    `json:"other"`
}

// viewOf reports whether s's bytes are inside buf.
func viewOf(s string, buf []byte) bool {
	if s == "" {
		return false
	}
	p, lo := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(&buf[0]))
	return p >= lo && p < lo+uintptr(len(buf))
}

// TestDecodeOwnedIntoAliasesOnlyWhatTheRuleAllows: decoding arguments
// that are part of an owned buffer makes a string that is most of it a
// view of the buffer (a struct field and an interface value alike), and
// copies a small string, an escaped one, and everything when the buffer
// is not owned (DecodeInto); the values are the same either way.
func TestDecodeOwnedIntoAliasesOnlyWhatTheRuleAllows(t *testing.T) {
	d := NewTypeDecoder(reflect.TypeFor[ownedArgs](), mustCompile(t, `{"type":"object"}`))
	big := strings.Repeat("d", 4000)
	for _, tc := range []struct {
		name, args        string
		owned             bool
		wantData, wantAny bool // a view
	}{
		{"owned, big field", `{"data":"` + big + `","note":"n"}`, true, true, false},
		{"owned, big interface", `{"other":"` + big + `","note":"n"}`, true, false, true},
		{"not owned", `{"data":"` + big + `","note":"n"}`, false, false, false},
		{"owned, escaped", `{"data":"` + big + `\t","note":"n"}`, true, false, false},
	} {
		buf := []byte(`{"jsonrpc":"2.0","id":1,"params":{"arguments":` + tc.args + `}}`)
		at := strings.Index(string(buf), tc.args)
		args := buf[at : at+len(tc.args)]
		owner := 0
		if tc.owned {
			owner = len(buf)
		}
		var got ownedArgs
		if err := d.DecodeOwnedInto(args, owner, &got); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var want ownedArgs
		if err := d.DecodeInto(args, &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: owned decode differs from DecodeInto", tc.name)
		}
		other, _ := got.Other.(string)
		if viewOf(got.Data, buf) != tc.wantData || viewOf(other, buf) != tc.wantAny || viewOf(got.Note, buf) {
			t.Errorf("%s: views data %v, other %v, note %v; want %v, %v, false", tc.name,
				viewOf(got.Data, buf), viewOf(other, buf), viewOf(got.Note, buf), tc.wantData, tc.wantAny)
		}
		wantOther, _ := want.Other.(string)
		if viewOf(want.Data, buf) || viewOf(wantOther, buf) {
			t.Errorf("%s: DecodeInto made a view", tc.name)
		}
	}
}
