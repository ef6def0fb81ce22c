package jsonrpc

import (
	"bytes"
	"testing"
)

// The package documents ID as "comparable ... two ids are equal exactly
// when they denote the same JSON value" and "Echoing an ID therefore sends
// back an equal JSON value". "\ud800", "\udc00" and "\ufffd" are three
// different JSON string values (RFC 8259 §7 lets any code unit be escaped);
// Decode maps all of them to one ID whose echo is U+FFFD, so a peer that
// keeps UTF-16 strings (every JavaScript client) cannot match the answer,
// and the server's in-flight and cancellation maps confuse the requests.
func TestAttackLoneSurrogateIDsDistinct(t *testing.T) {
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

func TestAttackLoneSurrogateIDEchoed(t *testing.T) {
	msg, err := Decode([]byte(`{"jsonrpc":"2.0","id":"\ud800","method":"m"}`))
	if err != nil {
		t.Fatal(err)
	}
	out := AppendResult(nil, msg.ID, []byte(`{}`))
	if !bytes.Contains(bytes.ToLower(out), []byte(`"id":"\ud800"`)) {
		t.Errorf("answer to id \"\\ud800\" is %s: not the same id", out)
	}
}
