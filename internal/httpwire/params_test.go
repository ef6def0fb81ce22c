package httpwire

import (
	"encoding/json"
	"testing"
)

func callFacts(args string, decls ...ParamHeader) BodyFacts {
	f := named("tools/call", "hdr")
	f.Arguments = json.RawMessage(args)
	f.ParamHeaders = decls
	return f
}

func TestParamHeaders(t *testing.T) {
	region := ParamHeader{Name: "Region", Path: []string{"region"}, Type: "string"}
	prio := ParamHeader{Name: "Priority", Path: []string{"priority"}, Type: "integer"}
	verbose := ParamHeader{Name: "Verbose", Path: []string{"verbose"}, Type: "boolean"}
	nested := ParamHeader{Name: "Zone", Path: []string{"target", "zone"}, Type: "string"}
	call := func(extra ...string) []string { return append([]string{"Mcp-Name", "hdr"}, extra...) }
	tests := []struct {
		name string
		h    []string
		f    BodyFacts
		ok   bool
	}{
		// "Server Behavior for Custom Headers" table: value provided → header MUST match (checklist Q39).
		{"match", call("Mcp-Param-Region", "us-west1"), callFacts(`{"region":"us-west1"}`, region), true},
		{"mismatch", call("Mcp-Param-Region", "eu"), callFacts(`{"region":"us-west1"}`, region), false},
		// Client omits header but value is in body → server MUST reject (ServerRejectsMissingCustomHeader).
		{"missing header", call(), callFacts(`{"region":"us-west1"}`, region), false},
		// Parameter not in arguments / null → server MUST NOT expect the header.
		{"absent in body", call(), callFacts(`{}`, region), true},
		{"null in body", call(), callFacts(`{"region":null}`, region), true},
		{"no arguments", call(), callFacts(``, region), true},
		// A header without a body value disagrees with the body ("Server Validation").
		{"header without body value", call("Mcp-Param-Region", "eu"), callFacts(`{}`, region), false},
		// Header names are case-insensitive.
		{"lower-case header name", call("mcp-param-region", "us-west1"), callFacts(`{"region":"us-west1"}`, region), true},
		// Base64 values MUST be decoded before comparing (ServerAcceptsValidBase64).
		{"base64 match", call("Mcp-Param-Region", "=?base64?SGVsbG8=?="), callFacts(`{"region":"Hello"}`, region), true},
		{"base64 bad padding", call("Mcp-Param-Region", "=?base64?SGVsbG8?="), callFacts(`{"region":"Hello"}`, region), false},
		{"base64 bad chars", call("Mcp-Param-Region", "=?base64?SGVs!!!bG8=?="), callFacts(`{"region":"Hello"}`, region), false},
		// Values without the full wrapper are literal (ServerLiteralMissingBase64Prefix/Suffix).
		{"literal base64 text", call("Mcp-Param-Region", "SGVsbG8="), callFacts(`{"region":"SGVsbG8="}`, region), true},
		{"literal prefix only", call("Mcp-Param-Region", "=?base64?SGVsbG8="), callFacts(`{"region":"=?base64?SGVsbG8="}`, region), true},
		{"non-ascii body, encoded header", call("Mcp-Param-Region", EncodeHeaderValue("Hello, 世界")), callFacts(`{"region":"Hello, 世界"}`, region), true},
		// Recognized header with invalid characters MUST be rejected.
		{"raw non-ascii header", call("Mcp-Param-Region", "Hello, 世界"), callFacts(`{"region":"Hello, 世界"}`, region), false},
		{"empty string value", call("Mcp-Param-Region", ""), callFacts(`{"region":""}`, region), true},
		{"repeated header", call("Mcp-Param-Region", "a", "Mcp-Param-Region", "a"), callFacts(`{"region":"a"}`, region), false},
		// Integers in decimal; SHOULD compare numerically ("42.0" equals 42).
		{"integer", call("Mcp-Param-Priority", "42"), callFacts(`{"priority":42}`, prio), true},
		{"negative integer", call("Mcp-Param-Priority", "-7"), callFacts(`{"priority":-7}`, prio), true},
		{"integer as 42.0", call("Mcp-Param-Priority", "42.0"), callFacts(`{"priority":42}`, prio), true},
		{"body 42.0", call("Mcp-Param-Priority", "42"), callFacts(`{"priority":42.0}`, prio), true},
		{"integer exponent", call("Mcp-Param-Priority", "4.2e1"), callFacts(`{"priority":42}`, prio), true},
		{"integer mismatch", call("Mcp-Param-Priority", "43"), callFacts(`{"priority":42}`, prio), false},
		{"integer vs text", call("Mcp-Param-Priority", "forty-two"), callFacts(`{"priority":42}`, prio), false},
		{"integer 2^53+1 exact", call("Mcp-Param-Priority", "9007199254740993"), callFacts(`{"priority":9007199254740992}`, prio), false},
		{"huge exponent", call("Mcp-Param-Priority", "1e999999999"), callFacts(`{"priority":1}`, prio), false},
		// Booleans as lowercase "true"/"false".
		{"boolean", call("Mcp-Param-Verbose", "false"), callFacts(`{"verbose":false}`, verbose), true},
		{"boolean case", call("Mcp-Param-Verbose", "False"), callFacts(`{"verbose":false}`, verbose), false},
		// Nested properties reached through "properties" keys.
		{"nested", call("Mcp-Param-Zone", "b"), callFacts(`{"target":{"zone":"b"}}`, nested), true},
		{"nested missing header", call(), callFacts(`{"target":{"zone":"b"}}`, nested), false},
		// Objects cannot be mirrored.
		{"object value", call("Mcp-Param-Region", "{}"), callFacts(`{"region":{}}`, region), false},
		// Unrecognized Mcp-Param-* headers are ignored.
		{"undeclared param header", call("Mcp-Param-Other", "x"), callFacts(`{}`, region), true},
		{"several params", call("Mcp-Param-Region", "r", "Mcp-Param-Verbose", "true", "Mcp-Param-Priority", "1"),
			callFacts(`{"region":"r","verbose":true,"priority":1}`, region, verbose, prio), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rej := checkHeaders(std("tools/call", tt.h...), tt.f)
			if tt.ok != (rej == nil) {
				t.Fatalf("ok = %v, rejection %v", tt.ok, rej)
			}
			if rej != nil && (rej.Code != CodeHeaderMismatch || rej.Status != 400) {
				t.Fatalf("rejection %+v, want 400 / -32020", rej)
			}
		})
	}
}
