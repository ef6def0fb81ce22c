package jsonscan

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"
	"unicode/utf8"
)

var memberSeeds = []string{
	`{}`, `{"a":1}`, `{"a":1,"a":2}`, `{"a":1,"\u0061":2}`, `{"method":1,"METHOD":2,"Method":3}`,
	`{"s":1,"ſ":2}`, `{"":1,"":2}`, `{"":1,"\u0000":2}`, `{"\ud800":1,"\udc00":2}`, `{"a":{"a":1,"a":2}}`, ` { "x" : [1,{"y":2}] , "z":"w\"" } `,
	`[1]`, `"a"`, `{"a"}`, `{"a":1,}`, `{"a":1`, `{"` + "\xff" + `":1}`,
	`{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"k3":17}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"t","NAME":"u","arguments":{}}}`,
}

// decodedMember is one member as encoding/json's tokenizer reads it.
type decodedMember struct {
	key   string
	value json.RawMessage
}

// decodeMembers reads the members of the object data with json.Decoder,
// which keeps every member (duplicates included) in order and unescapes
// names exactly as json.Unmarshal does.
func decodeMembers(data []byte) ([]decodedMember, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	var out []decodedMember
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, false
		}
		key, ok := tok.(string)
		if !ok {
			return nil, false
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, false
		}
		out = append(out, decodedMember{key, v})
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('}') {
		return nil, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, false
	}
	return out, true
}

// FuzzMembers checks Members against encoding/json on valid UTF-8 JSON:
// the same names in the same order, the same raw values, the same first
// duplicate, and failure exactly for non-objects. On any other input it
// must not panic.
func FuzzMembers(f *testing.F) {
	for _, s := range memberSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var got []decodedMember
		dup, repeated, ok := Members(data, func(key, value []byte) {
			got = append(got, decodedMember{string(key), append(json.RawMessage(nil), value...)})
		})
		if !json.Valid(data) || !utf8.Valid(data) {
			return
		}
		want, isObject := decodeMembers(data)
		if ok != isObject {
			t.Fatalf("Members(%q) ok = %v, encoding/json object = %v", data, ok, isObject)
		}
		if !ok {
			return
		}
		if len(got) != len(want) {
			t.Fatalf("Members(%q) gave %d members, encoding/json %d", data, len(got), len(want))
		}
		seen := map[string]bool{}
		wantDup, wantRepeated := "", false
		for i := range want {
			if got[i].key != want[i].key {
				t.Fatalf("member %d of %q: name %q, encoding/json %q", i, data, got[i].key, want[i].key)
			}
			if !sameJSON(got[i].value, want[i].value) {
				t.Fatalf("member %d of %q: value %q, encoding/json %q", i, data, got[i].value, want[i].value)
			}
			if seen[want[i].key] && !wantRepeated {
				wantDup, wantRepeated = want[i].key, true
			}
			seen[want[i].key] = true
		}
		if dup != wantDup || repeated != wantRepeated {
			t.Fatalf("Members(%q) dup = %q, %v, want %q, %v", data, dup, repeated, wantDup, wantRepeated)
		}
		// What a map decode keeps is the last of each name: a caller
		// that rejects dup never depends on which one.
		var m map[string]json.RawMessage
		if err := json.Unmarshal(data, &m); err != nil || len(m) != len(seen) {
			t.Fatalf("json.Unmarshal(%q) into a map: %v, %d names, want %d", data, err, len(m), len(seen))
		}
	})
}

// FuzzString checks String and IsInteger against encoding/json on every
// raw value: String succeeds exactly for JSON strings, with the same text;
// IsInteger exactly for numbers that decode into an int64-free integer
// form (no fraction, no exponent).
func FuzzString(f *testing.F) {
	for _, s := range []string{`""`, `"a"`, `"\u00e9"`, `"\ud83d\ude00"`, `"\ud800"`, `"a\"b"`, `"\n"`, "\"\x01\"", `"`, `"a`, `1`, `-0`, `01`, `1.0`, `1e3`, `-`, `null`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		s, ok := String(raw)
		isInt := IsInteger(raw)
		if !utf8.Valid(raw) || len(TrimSpace(raw)) != len(raw) {
			return // raw values, as Members gives them, carry no whitespace
		}
		var want string
		wantOK := json.Valid(raw) && len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, &want) == nil
		if ok != wantOK || s != want {
			t.Fatalf("String(%q) = %q, %v; encoding/json %q, %v", raw, s, ok, want, wantOK)
		}
		var n json.Number
		wantInt := json.Valid(raw) && len(raw) > 0 && (raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9') &&
			json.Unmarshal(raw, &n) == nil && !bytes.ContainsAny(raw, ".eE")
		if isInt != wantInt {
			t.Fatalf("IsInteger(%q) = %v, want %v", raw, isInt, wantInt)
		}
	})
}

// sameJSON reports whether a and b are equal after compaction.
func sameJSON(a, b []byte) bool {
	var ca, cb bytes.Buffer
	if json.Compact(&ca, a) != nil || json.Compact(&cb, b) != nil {
		return bytes.Equal(a, b)
	}
	return bytes.Equal(ca.Bytes(), cb.Bytes())
}
