package jsonrpc

import (
	"github.com/mcpgen/mcpgen/internal/jsonscan"

	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"testing"
)

var decodeSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather","arguments":{"location":"NYC"}}}`,
	`{"jsonrpc":"2.0","id":"a\"b","method":"ping"}`,
	`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	`{"jsonrpc":"2.0","method":"notifications/cancelled","params":"x"}`,
	`{"jsonrpc":"2.0","method":"n","params":{},"params":{}}`,
	`{"jsonrpc":"2.0","id":5,"result":{"content":[]}}`,
	`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error","data":"x"}}`,
	`{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request"}}`,
	`[{"jsonrpc":"2.0","id":1,"method":"m"}]`,
	`{"jsonrpc":"2.0","id":1.5,"method":"m"}`,
	`{"jsonrpc":"2.0","id":true,"method":"m"}`,
	`{"jsonrpc":"1.0","id":1,"method":"m"}`,
	`{"jsonrpc":"2.0","id":1,"\u006dethod":"m","method":"n"}`,
	`{"jsonrpc":"2.0","id":-0,"method":"m","params":null}`,
	`{"jsonrpc":"2.0","id":"\ud800x\uDC00\ud83d\ude00\u0041","method":"m"}`,
	"{\"jsonrpc\":\"2.0\",\"method\":\"\xff\"}",
	`{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}`,
	`null`, `[]`, `{}`, `{`, ``,
}

// FuzzDecode checks that Decode never panics and that every successfully
// decoded message survives re-encoding with the Append functions.
func FuzzDecode(f *testing.F) {
	for _, s := range decodeSeeds {
		f.Add([]byte(s))
	}
	for _, file := range specExamples(f) {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		msg, derr := Decode(data)
		if derr != nil {
			// A malformed notification keeps its kind (and has no id).
			if msg.Kind != KindInvalid && (msg.Kind != KindNotification || !msg.ID.IsZero()) {
				t.Fatalf("error %v with kind %v", derr, msg.Kind)
			}
			if !json.Valid(AppendError(nil, msg.ID, derr)) {
				t.Fatalf("error response is not valid JSON")
			}
			return
		}
		var enc []byte
		switch msg.Kind {
		case KindRequest:
			enc = AppendRequest(nil, msg.ID, msg.Method, msg.Params)
		case KindNotification:
			enc = AppendNotification(nil, msg.Method, msg.Params)
		case KindResponse:
			enc = AppendResult(nil, msg.ID, msg.Result)
		case KindErrorResponse:
			enc = AppendError(nil, msg.ID, msg.Error)
		default:
			t.Fatalf("success with kind %v", msg.Kind)
		}
		if !jsonscan.ValidDeep(enc) || bytes.ContainsAny(enc, "\r\n") { // any depth Decode takes
			t.Fatalf("re-encoded message is invalid or multi-line: %q", enc)
		}
		again, derr := Decode(enc)
		if derr != nil {
			t.Fatalf("re-decode of %q: %v", enc, derr)
		}
		if again.Kind != msg.Kind || again.ID != msg.ID || again.Method != msg.Method {
			t.Fatalf("round trip changed message: %v %v %q -> %v %v %q",
				msg.Kind, msg.ID, msg.Method, again.Kind, again.ID, again.Method)
		}
		if !sameJSON(msg.Params, again.Params) || !sameJSON(msg.Result, again.Result) {
			t.Fatalf("round trip changed params/result")
		}
		if msg.Error != nil {
			if again.Error.Code != msg.Error.Code || again.Error.Message != msg.Error.Message || !sameJSON(msg.Error.Data, again.Error.Data) {
				t.Fatalf("round trip changed error: %+v -> %+v", msg.Error, again.Error)
			}
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

// FuzzLineReader checks that LineReader terminates without panicking, that
// no returned line exceeds the limit or contains a newline, and that the
// lines it returns are exactly the non-blank lines of the input that fit.
func FuzzLineReader(f *testing.F) {
	f.Add([]byte("a\nb\r\n\n c\r\n"), 4)
	f.Add([]byte("toolong\nok"), 3)
	f.Add([]byte("\r\r\n\n"), 1)
	f.Add([]byte(""), 0)
	f.Fuzz(func(t *testing.T, data []byte, max int) {
		if max < 1 || max > 1<<20 {
			max = 1 + (max&0xff+0xff)%0xff
		}
		lr := NewLineReader(bytes.NewReader(data), max)
		var got [][]byte
		tooLarge := 0
		for i := 0; ; i++ {
			if i > len(data)+2 {
				t.Fatal("LineReader does not terminate")
			}
			line, err := lr.Next()
			if err == io.EOF {
				break
			}
			if errors.Is(err, ErrMessageTooLarge) {
				tooLarge++
				continue
			}
			if err != nil {
				t.Fatalf("unexpected error %v", err)
			}
			if len(line) > max || bytes.IndexByte(line, '\n') >= 0 {
				t.Fatalf("bad line %q (max %d)", line, max)
			}
			got = append(got, bytes.Clone(line))
		}
		// Reference: split on '\n', strip one '\r', drop blank lines.
		var want [][]byte
		wantTooLarge := 0
		for _, l := range bytes.Split(data, []byte{'\n'}) {
			l = bytes.TrimSuffix(l, []byte{'\r'})
			if len(l) > max {
				wantTooLarge++
				continue
			}
			if len(jsonscan.TrimSpace(l)) == 0 {
				continue
			}
			want = append(want, l)
		}
		if tooLarge != wantTooLarge || len(got) != len(want) {
			t.Fatalf("got %d lines, %d too large; want %d, %d", len(got), tooLarge, len(want), wantTooLarge)
		}
		for i := range got {
			if !bytes.Equal(got[i], want[i]) {
				t.Fatalf("line %d = %q, want %q", i, got[i], want[i])
			}
		}
	})
}
