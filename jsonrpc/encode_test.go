package jsonrpc

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestAppend(t *testing.T) {
	tests := []struct {
		name string
		got  []byte
		want string
	}{
		{"result", AppendResult(nil, IntID(1), []byte(`{"content":[]}`)), `{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`},
		{"result string id", AppendResult(nil, StringID(`a"b`), []byte(`{}`)), `{"jsonrpc":"2.0","id":"a\"b","result":{}}`},
		{"result nil", AppendResult(nil, IntID(2), nil), `{"jsonrpc":"2.0","id":2,"result":null}`},
		{"result multiline compacted", AppendResult(nil, IntID(3), []byte("{\n  \"a\": \"x\\ny\"\r\n}")), `{"jsonrpc":"2.0","id":3,"result":{"a":"x\ny"}}`},
		{"error", AppendError(nil, IntID(4), &Error{Code: CodeMethodNotFound, Message: "Method not found"}), `{"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"Method not found"}}`},
		{"error data", AppendError(nil, StringID("x"), NewError(CodeInvalidParams, "Invalid params", map[string]string{"f": "g"})), `{"jsonrpc":"2.0","id":"x","error":{"code":-32602,"message":"Invalid params","data":{"f":"g"}}}`},
		{"error no id", AppendError(nil, ID{}, &Error{Code: CodeParseError, Message: "Parse error"}), `{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}`},
		{"error nil", AppendError(nil, IntID(5), nil), `{"jsonrpc":"2.0","id":5,"error":{"code":-32603,"message":"Internal error"}}`},
		{"notification", AppendNotification(nil, "notifications/progress", []byte(`{"progress":1}`)), `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}`},
		{"notification no params", AppendNotification(nil, "n", nil), `{"jsonrpc":"2.0","method":"n"}`},
		{"request escaped method", AppendRequest(nil, IntID(6), "we\"ird\\\n\x00\u2028é", nil), `{"jsonrpc":"2.0","id":6,"method":"we\"ird\\\n\u0000` + "\u2028é" + `"}`},
		{"request params", AppendRequest(nil, StringID("r"), "m", []byte(`[1]`)), `{"jsonrpc":"2.0","id":"r","method":"m","params":[1]}`},
		{"appends to dst", AppendNotification([]byte("prefix "), "n", nil), `prefix {"jsonrpc":"2.0","method":"n"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if string(tt.got) != tt.want {
				t.Errorf("got  %s\nwant %s", tt.got, tt.want)
			}
			out := strings.TrimPrefix(string(tt.got), "prefix ")
			if !json.Valid([]byte(out)) {
				t.Errorf("output is not valid JSON: %s", out)
			}
			if strings.ContainsAny(out, "\r\n") {
				t.Errorf("output spans lines: %q", out)
			}
		})
	}
}

func TestAppendMethodMatchesEncodingJSON(t *testing.T) {
	for _, m := range []string{"tools/call", "a\"b", "\\", "\x00\x1f\x7f", "日本", "bad\xffutf8", "\t\b\f\r\n"} {
		msg, err := Decode(AppendNotification(nil, m, nil))
		if err != nil {
			t.Fatalf("%q: %v", m, err)
		}
		var want string
		enc, _ := json.Marshal(m)
		_ = json.Unmarshal(enc, &want)
		if msg.Method != want {
			t.Errorf("method %q decoded as %q, want %q", m, msg.Method, want)
		}
	}
}

func TestNewError(t *testing.T) {
	e := NewError(-32000, "boom", nil)
	if e.Data != nil || e.Code != -32000 || e.Message != "boom" {
		t.Errorf("NewError = %+v", e)
	}
	e = NewError(1, "x", json.RawMessage(`{"a": 1}`))
	if string(e.Data) != `{"a":1}` {
		t.Errorf("raw data = %s", e.Data)
	}
	e = NewError(1, "x", func() {})
	if !json.Valid(e.Data) || !strings.Contains(string(e.Data), "cannot marshal") {
		t.Errorf("unmarshalable data = %s", e.Data)
	}
	var err error = NewError(CodeMethodNotFound, "Method not found", "tools/nope")
	var je *Error
	if !errors.As(err, &je) || je.Code != CodeMethodNotFound {
		t.Errorf("errors.As failed: %v", err)
	}
	if got := err.Error(); got != `jsonrpc: -32601 Method not found: "tools/nope"` {
		t.Errorf("Error() = %q", got)
	}
	b, _ := json.Marshal(NewError(2, "y", nil))
	if string(b) != `{"code":2,"message":"y"}` {
		t.Errorf("json.Marshal(Error) = %s", b)
	}
}

func TestAppendResultAllocs(t *testing.T) {
	buf := make([]byte, 0, 1024)
	id := StringID("call-1")
	res := []byte(`{"content":[{"type":"text","text":"hi"}]}`)
	n := testing.AllocsPerRun(100, func() {
		buf = AppendResult(buf[:0], id, res)
	})
	if n != 0 {
		t.Errorf("AppendResult allocates %v times", n)
	}
}
