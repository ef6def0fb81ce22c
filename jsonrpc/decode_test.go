package jsonrpc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func TestDecodeClassification(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		kind   Kind
		code   int64  // 0 means success expected
		id     string // expected ID.String()
		method string
		params string
		result string
	}{
		// Successes.
		{name: "request int id", in: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}`, kind: KindRequest, id: `1`, method: "tools/call", params: `{"name":"x"}`},
		{name: "request string id", in: `{"jsonrpc":"2.0","id":"abc","method":"ping"}`, kind: KindRequest, id: `"abc"`, method: "ping"},
		{name: "request negative id", in: `{"jsonrpc":"2.0","id":-7,"method":"ping"}`, kind: KindRequest, id: `-7`, method: "ping"},
		{name: "request array params", in: `{"jsonrpc":"2.0","id":2,"method":"m","params":[1,2]}`, kind: KindRequest, id: `2`, method: "m", params: `[1,2]`},
		{name: "request null params", in: `{"jsonrpc":"2.0","id":2,"method":"m","params":null}`, kind: KindRequest, id: `2`, method: "m"},
		{name: "request escaped method", in: `{"jsonrpc":"2.0","id":2,"method":"a\/b\u0021"}`, kind: KindRequest, id: `2`, method: "a/b!"},
		{name: "request escaped key", in: `{"jsonrpc":"2.0","id":2,"\u006dethod":"m"}`, kind: KindRequest, id: `2`, method: "m"},
		{name: "request whitespace", in: " \r\n\t{ \"jsonrpc\" : \"2.0\" , \"id\" : 3 , \"method\" : \"m\" } \n", kind: KindRequest, id: `3`, method: "m"},
		{name: "unknown members ignored", in: `{"jsonrpc":"2.0","id":1,"method":"m","x":{"y":[1,"}"]},"Method":5,"METHOD":1}`, kind: KindRequest, id: `1`, method: "m"},
		{name: "empty method", in: `{"jsonrpc":"2.0","id":1,"method":""}`, kind: KindRequest, id: `1`, method: ""},
		{name: "notification", in: `{"jsonrpc":"2.0","method":"notifications/initialized"}`, kind: KindNotification, method: "notifications/initialized"},
		{name: "notification with params", in: `{"method":"n","params":{},"jsonrpc":"2.0"}`, kind: KindNotification, method: "n", params: `{}`},
		{name: "response", in: `{"jsonrpc":"2.0","id":5,"result":{"ok":true}}`, kind: KindResponse, id: `5`, result: `{"ok":true}`},
		{name: "response null result", in: `{"jsonrpc":"2.0","id":"r","result":null}`, kind: KindResponse, id: `"r"`, result: `null`},
		{name: "error response", in: `{"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"Method not found"}}`, kind: KindErrorResponse, id: `5`},
		{name: "error response no id", in: `{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}`, kind: KindErrorResponse},
		{name: "error response null id", in: `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error","data":null}}`, kind: KindErrorResponse},
		{name: "large int id", in: `{"jsonrpc":"2.0","id":9223372036854775807,"method":"m"}`, kind: KindRequest, id: `9223372036854775807`, method: "m"},
		{name: "min int id", in: `{"jsonrpc":"2.0","id":-9223372036854775808,"method":"m"}`, kind: KindRequest, id: `-9223372036854775808`, method: "m"},
		{name: "minus zero id", in: `{"jsonrpc":"2.0","id":-0,"method":"m"}`, kind: KindRequest, id: `0`, method: "m"},
		{name: "escaped string id canonical", in: `{"jsonrpc":"2.0","id":"\u0061\"b","method":"m"}`, kind: KindRequest, id: `"a\"b"`, method: "m"},
		{name: "escaped jsonrpc version", in: `{"jsonrpc":"\u0032.0","id":1,"method":"m"}`, kind: KindRequest, id: `1`, method: "m"},

		// Parse errors.
		{name: "empty", in: ``, code: CodeParseError},
		{name: "garbage", in: `{"jsonrpc":`, code: CodeParseError},
		{name: "trailing garbage", in: `{"jsonrpc":"2.0","method":"m"} x`, code: CodeParseError},
		{name: "two objects", in: `{"jsonrpc":"2.0","method":"m"}{"jsonrpc":"2.0","method":"m"}`, code: CodeParseError},
		{name: "invalid utf8 in string", in: "{\"jsonrpc\":\"2.0\",\"method\":\"m\xff\"}", code: CodeParseError},
		{name: "invalid utf8 in unknown member", in: "{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"x\":\"\xc3\"}", code: CodeParseError},

		// Invalid requests.
		{name: "batch", in: `[{"jsonrpc":"2.0","id":1,"method":"m"}]`, code: CodeInvalidRequest},
		{name: "empty batch", in: `[]`, code: CodeInvalidRequest},
		{name: "string", in: `"hello"`, code: CodeInvalidRequest},
		{name: "number", in: `42`, code: CodeInvalidRequest},
		{name: "null", in: `null`, code: CodeInvalidRequest},
		{name: "empty object", in: `{}`, code: CodeInvalidRequest},
		{name: "missing version", in: `{"id":1,"method":"m"}`, code: CodeInvalidRequest, id: `1`},
		{name: "wrong version", in: `{"jsonrpc":"1.0","id":1,"method":"m"}`, code: CodeInvalidRequest, id: `1`},
		{name: "numeric version", in: `{"jsonrpc":2.0,"id":"a","method":"m"}`, code: CodeInvalidRequest, id: `"a"`},
		{name: "version case", in: `{"JSONRPC":"2.0","id":1,"method":"m"}`, code: CodeInvalidRequest, id: `1`},
		{name: "method not string", in: `{"jsonrpc":"2.0","id":1,"method":5}`, code: CodeInvalidRequest, id: `1`},
		{name: "method null", in: `{"jsonrpc":"2.0","id":1,"method":null}`, code: CodeInvalidRequest, id: `1`},
		{name: "id null request", in: `{"jsonrpc":"2.0","id":null,"method":"m"}`, code: CodeInvalidRequest},
		{name: "id float", in: `{"jsonrpc":"2.0","id":1.5,"method":"m"}`, code: CodeInvalidRequest},
		{name: "id exponent", in: `{"jsonrpc":"2.0","id":1e2,"method":"m"}`, code: CodeInvalidRequest},
		{name: "id integral float", in: `{"jsonrpc":"2.0","id":1.0,"method":"m"}`, code: CodeInvalidRequest},
		{name: "id too large", in: `{"jsonrpc":"2.0","id":9223372036854775808,"method":"m"}`, code: CodeInvalidRequest},
		{name: "id bool", in: `{"jsonrpc":"2.0","id":true,"method":"m"}`, code: CodeInvalidRequest},
		{name: "id object", in: `{"jsonrpc":"2.0","id":{},"method":"m"}`, code: CodeInvalidRequest},
		{name: "id array", in: `{"jsonrpc":"2.0","id":[1],"method":"m"}`, code: CodeInvalidRequest},
		{name: "duplicate method", in: `{"jsonrpc":"2.0","id":1,"method":"a","method":"b"}`, code: CodeInvalidRequest, id: `1`},
		{name: "duplicate id", in: `{"jsonrpc":"2.0","id":1,"id":2,"method":"a"}`, code: CodeInvalidRequest},
		{name: "duplicate unknown member", in: `{"jsonrpc":"2.0","id":1,"method":"a","x":1,"x":2}`, code: CodeInvalidRequest, id: `1`},
		{name: "duplicate id after another duplicate", in: `{"jsonrpc":"2.0","x":1,"x":2,"id":1,"id":2,"method":"a"}`, code: CodeInvalidRequest},
		{name: "duplicate via escape", in: `{"jsonrpc":"2.0","id":1,"method":"a","\u006dethod":"b"}`, code: CodeInvalidRequest, id: `1`},
		{name: "request with result", in: `{"jsonrpc":"2.0","id":1,"method":"m","result":{}}`, code: CodeInvalidRequest, id: `1`},
		{name: "neither method nor result", in: `{"jsonrpc":"2.0","id":1}`, code: CodeInvalidRequest, id: `1`},
		{name: "result and error", in: `{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}`, code: CodeInvalidRequest, id: `1`},
		{name: "result without id", in: `{"jsonrpc":"2.0","result":{}}`, code: CodeInvalidRequest},
		{name: "result null id", in: `{"jsonrpc":"2.0","id":null,"result":{}}`, code: CodeInvalidRequest},
		{name: "error not object", in: `{"jsonrpc":"2.0","id":1,"error":"bad"}`, code: CodeInvalidRequest, id: `1`},
		{name: "error code float", in: `{"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"x"}}`, code: CodeInvalidRequest, id: `1`},
		{name: "error missing message", in: `{"jsonrpc":"2.0","id":1,"error":{"code":1}}`, code: CodeInvalidRequest, id: `1`},
		{name: "error missing code", in: `{"jsonrpc":"2.0","id":1,"error":{"message":"x"}}`, code: CodeInvalidRequest, id: `1`},

		// Invalid params.
		{name: "params string", in: `{"jsonrpc":"2.0","id":1,"method":"m","params":"x"}`, code: CodeInvalidParams, id: `1`},
		// A malformed notification (a string method, no id member) keeps its
		// kind and method: the receiver must not answer it.
		{name: "params number", in: `{"jsonrpc":"2.0","method":"m","params":3}`, code: CodeInvalidParams, kind: KindNotification, method: "m"},
		{name: "notification params string", in: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":"x"}`, code: CodeInvalidParams, kind: KindNotification, method: "notifications/cancelled"},
		{name: "notification params bool", in: `{"jsonrpc":"2.0","method":"n","params":true}`, code: CodeInvalidParams, kind: KindNotification, method: "n"},
		{name: "notification with result", in: `{"jsonrpc":"2.0","method":"n","result":{}}`, code: CodeInvalidRequest, kind: KindNotification, method: "n"},
		{name: "notification duplicate member", in: `{"jsonrpc":"2.0","method":"n","params":{},"params":{}}`, code: CodeInvalidRequest, kind: KindNotification, method: "n"},
		{name: "notification missing version", in: `{"method":"n"}`, code: CodeInvalidRequest, kind: KindNotification, method: "n"},
		{name: "notification wrong version", in: `{"jsonrpc":"1.0","method":"n"}`, code: CodeInvalidRequest, kind: KindNotification, method: "n"},
		{name: "notification numeric version", in: `{"jsonrpc":2,"method":"n","params":{}}`, code: CodeInvalidRequest, kind: KindNotification, method: "n"},
		{name: "notification duplicate method", in: `{"jsonrpc":"2.0","method":"n","method":"o"}`, code: CodeInvalidRequest},
		{name: "notification method not string", in: `{"jsonrpc":"2.0","method":5,"params":"x"}`, code: CodeInvalidRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msg, err := Decode([]byte(tt.in))
			if tt.code != 0 {
				if err == nil {
					t.Fatalf("Decode succeeded with kind %v, want error code %d", msg.Kind, tt.code)
				}
				if err.Code != tt.code {
					t.Fatalf("code = %d (%v), want %d", err.Code, err, tt.code)
				}
				if !json.Valid(err.Data) || len(err.Data) == 0 {
					t.Errorf("error data %q is not a JSON value", err.Data)
				}
				if msg.Kind != tt.kind { // KindInvalid unless a notification
					t.Errorf("kind = %v, want %v", msg.Kind, tt.kind)
				}
				if msg.Method != tt.method {
					t.Errorf("method = %q, want %q", msg.Method, tt.method)
				}
				if got := msg.ID.String(); got != tt.id {
					t.Errorf("id = %q, want %q", got, tt.id)
				}
				return
			}
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if msg.Kind != tt.kind {
				t.Errorf("kind = %v, want %v", msg.Kind, tt.kind)
			}
			if got := msg.ID.String(); got != tt.id {
				t.Errorf("id = %q, want %q", got, tt.id)
			}
			if msg.Method != tt.method {
				t.Errorf("method = %q, want %q", msg.Method, tt.method)
			}
			if string(msg.Params) != tt.params {
				t.Errorf("params = %q, want %q", msg.Params, tt.params)
			}
			if string(msg.Result) != tt.result {
				t.Errorf("result = %q, want %q", msg.Result, tt.result)
			}
			if (msg.Kind == KindErrorResponse) != (msg.Error != nil) {
				t.Errorf("Error = %v for kind %v", msg.Error, msg.Kind)
			}
		})
	}
}

func TestDecodeErrorObject(t *testing.T) {
	msg, err := Decode([]byte(`{"jsonrpc":"2.0","id":"q","error":{"code":-32602,"message":"bad \"x\"","data":{"field":"x"},"extra":1}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := &Error{Code: -32602, Message: `bad "x"`, Data: json.RawMessage(`{"field":"x"}`)}
	if msg.Error.Code != want.Code || msg.Error.Message != want.Message || !bytes.Equal(msg.Error.Data, want.Data) {
		t.Errorf("error = %+v, want %+v", msg.Error, want)
	}
}

func TestDecodeErrorMessages(t *testing.T) {
	_, err := Decode([]byte(`[1]`))
	if err == nil || err.Message != "Invalid Request" || !strings.Contains(string(err.Data), "batch") {
		t.Errorf("batch error = %v", err)
	}
	_, err = Decode([]byte(`{`))
	if err == nil || err.Message != "Parse error" {
		t.Errorf("parse error = %v", err)
	}
}

func TestDecodeHugeInput(t *testing.T) {
	// A large but valid request decodes and Params spans the whole payload.
	big := strings.Repeat("x", 8<<20)
	in := `{"jsonrpc":"2.0","id":1,"method":"m","params":{"blob":"` + big + `"}}`
	msg, err := Decode([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(msg.Params) != len(big)+len(`{"blob":""}`) {
		t.Errorf("params length = %d", len(msg.Params))
	}

	// Deeply nested params are no crash and no parse error: the message
	// is read (its id with it) and the depth is its reader's concern; the
	// same nesting left unclosed is a parse error.
	deep := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
	msg, err = Decode([]byte(`{"jsonrpc":"2.0","id":9,"method":"m","params":` + deep + `}`))
	if err != nil || msg.ID != IntID(9) || len(msg.Params) != len(deep) {
		t.Errorf("deep nesting: err = %v, id %s, %d bytes of params", err, msg.ID, len(msg.Params))
	}
	_, err = Decode([]byte(`{"jsonrpc":"2.0","id":9,"method":"m","params":` + deep[:len(deep)-1] + `}`))
	if err == nil || err.Code != CodeParseError {
		t.Errorf("deep nesting left open: err = %v, want parse error", err)
	}

	// Many unknown members do not matter.
	var b strings.Builder
	b.WriteString(`{"jsonrpc":"2.0","id":1,"method":"m"`)
	for i := 0; i < 10000; i++ {
		fmt.Fprintf(&b, `,"k%d":[{"a":"}"}]`, i)
	}
	b.WriteString("}")
	if msg, err := Decode([]byte(b.String())); err != nil || msg.Kind != KindRequest {
		t.Errorf("many members: %v %v", msg.Kind, err)
	}
}

func TestDecodeAliasesInput(t *testing.T) {
	in := []byte(`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1}}`)
	msg, err := Decode(in)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(in, []byte(`{"a"`))
	if &msg.Params[0] != &in[i] {
		t.Error("Params does not alias the input")
	}
}

// TestDecodeMalformedNotificationKindIgnoresRepeatedMembers: a malformed
// notification (a string "method", no "id") is one kind whether or not
// some unrelated member is also repeated: the tape path and decodeBytes
// (taken for a repeated member) decide it in the same place, before the
// "jsonrpc" checks, so a wrong or missing "jsonrpc" does not make it
// KindInvalid (answered) on one path and KindNotification on the other.
func TestDecodeMalformedNotificationKindIgnoresRepeatedMembers(t *testing.T) {
	pairs := [][2]string{
		{`{"jsonrpc":"1.0","method":"notifications/progress"}`,
			`{"jsonrpc":"1.0","method":"notifications/progress","x":1,"x":2}`},
		{`{"method":"notifications/progress"}`,
			`{"method":"notifications/progress","x":1,"x":2}`},
		{`{"jsonrpc":2,"method":"notifications/progress","params":{}}`,
			`{"jsonrpc":2,"method":"notifications/progress","params":{},"params":{}}`},
	}
	for _, p := range pairs {
		a, errA := Decode([]byte(p[0]))
		b, errB := Decode([]byte(p[1]))
		if errA == nil || errB == nil {
			t.Fatalf("want both refused: %v, %v", errA, errB)
		}
		if a.Kind != b.Kind {
			t.Errorf("%s -> kind %v (%s)\n%s -> kind %v (%s)\nwant one kind for both (doc.go: a string method and no id is KindNotification, malformed or not)",
				p[0], a.Kind, errA.Message, p[1], b.Kind, errB.Message)
		}
	}
}
