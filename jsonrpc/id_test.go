package jsonrpc

import (
	"encoding/json"
	"math"
	"strconv"
	"testing"
)

func TestIDRoundTrip(t *testing.T) {
	strs := []string{"", "abc", `quote " and \ backslash`, "line\nbreak\ttab\x01ctl", "unicode é 日本 😀", "html <&>", "sep \u2028\u2029"}
	for _, s := range strs {
		id := StringID(s)
		if id.IsZero() || !id.IsString() {
			t.Errorf("StringID(%q) zero=%v string=%v", s, id.IsZero(), id.IsString())
		}
		got, ok := id.Str()
		if !ok || got != s {
			t.Errorf("StringID(%q).Str() = %q, %v", s, got, ok)
		}
		// The JSON text must decode to the same string with encoding/json.
		var back string
		if err := json.Unmarshal([]byte(id.String()), &back); err != nil || back != s {
			t.Errorf("StringID(%q) text %s decodes to %q, %v", s, id, back, err)
		}
		// Through a full message, the decoded ID equals the constructed one.
		msg, derr := Decode(AppendRequest(nil, id, "m", nil))
		if derr != nil || msg.ID != id {
			t.Errorf("round trip of %q: got %v (%v), want %v", s, msg.ID, derr, id)
		}
		// encoding/json's encoding of the same string parses to an equal ID.
		enc, _ := json.Marshal(s)
		var viaJSON ID
		if err := json.Unmarshal(enc, &viaJSON); err != nil || viaJSON != id {
			t.Errorf("json.Marshal(%q)=%s -> %v, %v; want %v", s, enc, viaJSON, err, id)
		}
	}
	for _, n := range []int64{0, 1, -1, 42, math.MaxInt64, math.MinInt64} {
		id := IntID(n)
		if id.IsString() || id.IsZero() {
			t.Errorf("IntID(%d) string=%v zero=%v", n, id.IsString(), id.IsZero())
		}
		got, ok := id.Int64()
		if !ok || got != n {
			t.Errorf("IntID(%d).Int64() = %d, %v", n, got, ok)
		}
		msg, derr := Decode(AppendResult(nil, id, []byte(`{}`)))
		if derr != nil || msg.ID != id {
			t.Errorf("round trip of %d: got %v (%v)", n, msg.ID, derr)
		}
	}
}

func TestIDInvalidUTF8Canonical(t *testing.T) {
	// Invalid UTF-8 becomes U+FFFD, matching what json.Unmarshal reads.
	if StringID("a\xffb") != StringID("a\uFFFDb") {
		t.Errorf("StringID with invalid UTF-8 = %s", StringID("a\xffb"))
	}
}

func TestIDEscapedEqualsPlain(t *testing.T) {
	var a, b ID
	if err := json.Unmarshal([]byte(`"\u0061b\/c"`), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(`"ab/c"`), &b); err != nil {
		t.Fatal(err)
	}
	if a != b || a != StringID("ab/c") {
		t.Errorf("escaped %v, plain %v", a, b)
	}
	m := map[ID]int{a: 1}
	if m[StringID("ab/c")] != 1 {
		t.Error("ID not usable as map key")
	}
	if StringID("1") == IntID(1) {
		t.Error(`"1" and 1 must be different ids`)
	}
}

func TestIDJSON(t *testing.T) {
	type wrap struct {
		ID ID `json:"id,omitzero"`
	}
	b, err := json.Marshal(wrap{ID: IntID(7)})
	if err != nil || string(b) != `{"id":7}` {
		t.Errorf("marshal = %s, %v", b, err)
	}
	b, err = json.Marshal(wrap{})
	if err != nil || string(b) != `{}` {
		t.Errorf("marshal zero = %s, %v", b, err)
	}
	if b, _ := (ID{}).MarshalJSON(); string(b) != "null" {
		t.Errorf("zero MarshalJSON = %s", b)
	}
	var w wrap
	if err := json.Unmarshal([]byte(`{"id":"x"}`), &w); err != nil || w.ID != StringID("x") {
		t.Errorf("unmarshal = %v, %v", w.ID, err)
	}
	w.ID = IntID(3)
	if err := json.Unmarshal([]byte(`{"id":null}`), &w); err != nil || !w.ID.IsZero() {
		t.Errorf("unmarshal null = %v, %v", w.ID, err)
	}
	for _, bad := range []string{`1.5`, `1e3`, `true`, `{}`, `[]`, `99999999999999999999`} {
		var id ID
		if err := json.Unmarshal([]byte(bad), &id); err == nil {
			t.Errorf("Unmarshal(%s) succeeded: %v", bad, id)
		}
	}
	if _, ok := StringID("5").Int64(); ok {
		t.Error("string id reported as integer")
	}
	if _, ok := IntID(5).Str(); ok {
		t.Error("integer id reported as string")
	}
	var zero ID
	if zero.String() != "" || !zero.IsZero() {
		t.Error("zero ID")
	}
}

// TestParseIDShortIntegers holds parseID's shortcut for ids of at most
// maxShortID digits to what ParseInt and IntID make of them, on both sides
// of the int64 range and of the shortcut's length.
func TestParseIDShortIntegers(t *testing.T) {
	for _, raw := range []string{"0", "7", "42", "100", "12345678901234567", "999999999999999999",
		"1000000000000000000", "9223372036854775807", "9223372036854775808", "99999999999999999999",
		"-1", "-0", "-999999999999999999", "-9223372036854775808", "-9223372036854775809"} {
		got, ok := parseID([]byte(raw))
		n, err := strconv.ParseInt(raw, 10, 64)
		if want := IntID(n); ok != (err == nil) || ok && got != want {
			t.Errorf("parseID(%s) = %q, %v; want %q, %v", raw, got.raw, ok, want.raw, err == nil)
		}
	}
}
