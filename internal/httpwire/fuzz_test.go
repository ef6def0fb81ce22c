package httpwire

import (
	"encoding/json"
	"net/http"
	"testing"
	"unicode/utf8"
)

// FuzzCheckHeaders feeds random header values and bodies to CheckHeaders:
// it must never panic, and every rejection must be a well-formed 4xx with a
// message and a serializable JSON-RPC error body.
func FuzzCheckHeaders(f *testing.F) {
	f.Add("2026-07-28", "tools/call", "echo", "us-west1", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"region":"us-west1","n":42,"b":true},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`)
	f.Add("2026-07-28", "tools/call", "=?base64?ZWNobw==?=", "=?base64?SGVsbG8?=", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"region":"Hello","n":"x"}}}`)
	f.Add("", "", "\x00\xff", "=?base64??=", `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"test://ok"}}`)
	f.Add("v999", "TOOLS/LIST", " ", "1e99999", `{"jsonrpc":"2.0","id":1,"result":{}}`)
	f.Add("2026-07-28", "x", "y", "9007199254740993.0e-0", `[1,2]`)
	decls := []ParamHeader{
		{Name: "Region", Path: []string{"region"}, Type: "string"},
		{Name: "N", Path: []string{"n"}, Type: "integer"},
		{Name: "B", Path: []string{"b"}, Type: "boolean"},
		{Name: "Deep", Path: []string{"a", "b", "c"}, Type: "string"},
	}
	f.Fuzz(func(t *testing.T, version, method, name, param, body string) {
		facts, err := factsFromBody([]byte(body))
		if err != nil {
			facts = BodyFacts{Method: method, Name: name, HasName: true, ProtocolVersion: version, Arguments: json.RawMessage(body)}
		}
		facts.ParamHeaders = decls
		h := http.Header{
			"Mcp-Protocol-Version": {version},
			"Mcp-Method":           {method},
			"Mcp-Name":             {name},
			"Mcp-Param-Region":     {param},
			"mcp-param-n":          {param},
			"MCP-PARAM-B":          {param, param},
		}
		for _, rules := range []HeaderRules{defaultRules, {}} {
			rej := rules.Check(h, facts)
			if rej == nil {
				continue
			}
			if rej.Status < 400 || rej.Status > 499 || rej.Message == "" {
				t.Fatalf("bad rejection %+v", rej)
			}
			if b, err := rej.Body(json.RawMessage(`1`)); err != nil || !json.Valid(b) {
				t.Fatalf("body %s, %v", b, err)
			}
		}
		if v, err := DecodeHeaderValue(param); err == nil && EncodeHeaderValue(v) != param && isPlainHeaderValue(param) {
			t.Fatalf("plain value %q re-encoded as %q", param, EncodeHeaderValue(v))
		}
	})
}

// FuzzEncodeHeaderValue checks that every string survives the header
// encoding: the encoded form is a valid field value and decodes back.
func FuzzEncodeHeaderValue(f *testing.F) {
	for _, s := range []string{"", "us-west1", "Hello, 世界", " padded ", "line1\nline2", "=?base64?literal?="} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		enc := EncodeHeaderValue(s)
		for i := 0; i < len(enc); i++ {
			if c := enc[i]; c < 0x20 || c > 0x7e {
				t.Fatalf("encoded %q has byte 0x%02x", enc, c)
			}
		}
		dec, err := DecodeHeaderValue(enc)
		if err != nil {
			if utf8.ValidString(s) {
				t.Fatalf("decode of %q failed: %v", enc, err)
			}
			return
		}
		if dec != s {
			t.Fatalf("round trip %q -> %q -> %q", s, enc, dec)
		}
	})
}
