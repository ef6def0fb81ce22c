package jsonenc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"unicode/utf8"
)

// FuzzMarshal holds Marshal to json.Marshal: for values of the fuzzTypes
// built from the input (json.Unmarshal of it, or set field by field by
// filler), the same bytes or the same error, both for the pointer
// (addressable fields: pointer-receiver marshalers run) and the value.
func FuzzMarshal(f *testing.F) {
	for _, s := range []string{
		"\x00\x00{}", "\x00\x01\x05\x07\x09\x01\xff", "\x01\x00{\"a\":1,\"b\":\"2\"}",
		"\x05\x00{\"x\":[1,2.5,\"\\u2028<>\",null,{\"y\":true}]}", "\x04\x01\x02\x02\x02\x01\x02\x01",
		"\x00\x01" + string(bytes.Repeat([]byte{3, 7, 200, 1}, 60)), "\x06\x00{\"!\":1,\"<\":2}",
		"\x0c\x01\x10", "\x08\x01\x07\x22\x01\x21",
		"\x12\x00" + plainSeed, "\x12\x01\x41\x42\x07\x80\xff\x01\x02\x03\x30\x31\xfe",
		"\x13\x00[" + plainSeed + ",{}]", "\x14\x00{\"P\":" + plainSeed + "}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		p := fuzzTypes[int(data[0])%len(fuzzTypes)]()
		if data[1]&1 == 0 {
			_ = json.Unmarshal(data[2:], p)
		} else {
			fl := &filler{data: data[2:], budget: 64}
			fl.fill(reflect.ValueOf(p).Elem())
		}
		same(t, p)
		same(t, reflect.ValueOf(p).Elem().Interface())
	})
}

// plainSeed is a plainAll in JSON: escapes, a negative zero, a float
// that is not a short decimal, the embedded struct's fields.
const plainSeed = `{"s":"a<b\u2028","se":"","<n&>":"x","b":true,"i":-3,"I16":0,"i64":5,"u32":7,` +
	`"f32":1.5,"f64":21.5,"fz":-0,"FP":1e21,"x":-1,"y":2,"Ok":true}`

// same fails t unless Marshal(v) is json.Marshal(v): bytes or error.
func same(t *testing.T, v any) {
	t.Helper()
	if d := diff(v); d != "" {
		t.Fatal(d)
	}
}

// short cuts a long encoding for a failure message.
func short(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}

// diff describes how Marshal(v) and Append differ from json.Marshal(v),
// "" when they do not.
func diff(v any) string {
	want, wantErr := json.Marshal(v)
	got, gotErr := Marshal(v)
	if wantErr == nil && !utf8.Valid(want) {
		// Raw JSON that is not UTF-8: refused (ErrInvalidUTF8), not copied.
		if !errors.Is(gotErr, ErrInvalidUTF8) {
			return fmt.Sprintf("%T: json.Marshal wrote invalid UTF-8 %q; got %q, %v, want ErrInvalidUTF8", v, short(want), short(got), gotErr)
		}
		return ""
	}
	if wantErr != nil || gotErr != nil {
		if wantErr == nil || gotErr == nil || wantErr.Error() != gotErr.Error() ||
			fmt.Sprintf("%T", wantErr) != fmt.Sprintf("%T", gotErr) {
			return fmt.Sprintf("%T: errors differ:\n got  %T %v (%s)\n want %T %v (%s)", v, gotErr, gotErr, short(got), wantErr, wantErr, short(want))
		}
		if got != nil {
			return fmt.Sprintf("%T: error %v with output %q", v, gotErr, short(got))
		}
		return ""
	}
	if !bytes.Equal(got, want) {
		return fmt.Sprintf("%T: encodings differ:\n got  %s\n want %s", v, short(got), short(want))
	}
	// Append appends: a prefix stays, and the result is the same.
	pre := []byte("prefix")
	got2, err := Append(pre, v)
	if err != nil || !bytes.Equal(got2[:len(pre)], pre) || !bytes.Equal(got2[len(pre):], want) {
		return fmt.Sprintf("%T: Append: %q, %v", v, short(got2), err)
	}
	return ""
}
