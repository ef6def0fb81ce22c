package driver

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestTopMembersAgreesWithDecode(t *testing.T) {
	big := strings.Repeat(`ab\"c\\`, 1000)
	for _, msg := range []string{
		`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"` + big + `"}],"id":9}}`,
		`{"result":{"x":[1,{"error":2}]}, "id" : 12 ,"jsonrpc":"2.0"}`,
		`{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"x}"}}`,
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"id":4}}`,
		`{"jsonrpc":"2.0","id":5,"error":null,"result":{}}`,
	} {
		var want struct {
			ID     json.RawMessage `json:"id"`
			Method json.RawMessage `json:"method"`
			Error  json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal([]byte(msg), &want); err != nil {
			t.Fatal(err)
		}
		got, ok := topMembers([]byte(msg))
		if !ok || string(got.id) != string(want.ID) || string(got.method) != string(want.Method) || string(got.err) != string(want.Error) {
			t.Errorf("topMembers(%.80s) = %q %q %q %v; want %q %q %q", msg, got.id, got.method, got.err, ok, want.ID, want.Method, want.Error)
		}
	}
	for _, bad := range []string{``, `[1]`, `{"id":1`, `{"id"`, `{"a":"unterminated}`} {
		if _, ok := topMembers([]byte(bad)); ok {
			t.Errorf("topMembers(%q): want not ok", bad)
		}
	}
}
