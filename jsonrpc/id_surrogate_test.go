package jsonrpc

import (
	"bytes"
	"testing"
)

// The package documents ID as "comparable ... two ids are equal exactly
// when they denote the same JSON value" and "Echoing an ID therefore sends
// back an equal JSON value". "\ud800", "\udc00" and "\ufffd" are three
// different JSON string values (RFC 8259 §7 lets any code unit be escaped):
// three IDs, each echoed as it came, so that a peer keeping UTF-16 strings
// (every JavaScript client) matches its answers and the server's in-flight
// and cancellation maps keep the requests apart.
func TestLoneSurrogateIDsAreDistinct(t *testing.T) {
	ids := []string{`"\ud800"`, `"\udc00"`, `"\ufffd"`}
	var got []ID
	for _, raw := range ids {
		msg, err := Decode([]byte(`{"jsonrpc":"2.0","id":` + raw + `,"method":"m"}`))
		if err != nil {
			t.Fatalf("id %s: %v", raw, err)
		}
		got = append(got, msg.ID)
	}
	for i := range got {
		for j := i + 1; j < len(got); j++ {
			if got[i] == got[j] {
				t.Errorf("ids %s and %s decode to the same ID %s", ids[i], ids[j], got[i])
			}
		}
	}
}

func TestLoneSurrogateIDIsEchoed(t *testing.T) {
	msg, err := Decode([]byte(`{"jsonrpc":"2.0","id":"\ud800","method":"m"}`))
	if err != nil {
		t.Fatal(err)
	}
	out := AppendResult(nil, msg.ID, []byte(`{}`))
	if !bytes.Contains(bytes.ToLower(out), []byte(`"id":"\ud800"`)) {
		t.Errorf("answer to id \"\\ud800\" is %s: not the same id", out)
	}
}

// The canonical text of string ids with escapes: re-encoded minimally,
// except lone surrogates, which stay escapes in lower case; a pair is one
// character. Equal JSON values give equal IDs, different ones different IDs.
func TestEscapedStringIDCanonicalText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`"\u0061"`, `"a"`},
		{`"\ud800"`, `"\ud800"`},
		{`"\uD800"`, `"\ud800"`},
		{`"\udc00"`, `"\udc00"`},
		{`"\ufffd"`, "\"\ufffd\""},
		{`"\ud83d\ude00"`, "\"\U0001F600\""},
		{`"\uD83D\uDE00"`, "\"\U0001F600\""},
		{`"\ude00\ud83d"`, `"\ude00\ud83d"`},
		{`"\ud83d\ud83d\ude00"`, "\"\\ud83d\U0001F600\""},
		{`"x\ud800\u0041\n\ud800"`, `"x\ud800A\n\ud800"`},
		{`"\\ud800"`, `"\\ud800"`},
		{`"\\\ud800"`, `"\\\ud800"`},
		{`"\ud800\u00"`, ""},
		{`"\ud800\x"`, ""},
	} {
		var id ID
		err := id.UnmarshalJSON([]byte(c.in))
		switch {
		case c.want == "" && err == nil:
			t.Errorf("id %s: accepted as %s", c.in, id)
		case c.want != "" && err != nil:
			t.Errorf("id %s: %v", c.in, err)
		case c.want != "" && id.String() != c.want:
			t.Errorf("id %s: canonical text %s, want %s", c.in, id, c.want)
		}
	}
}
