package httpwire

import (
	"encoding/json"
	"net/http"
	"reflect"
	"testing"
)

// hdr builds an http.Header from name/value pairs without canonicalizing
// the names, like a client that sends them in any case.
func hdr(kv ...string) http.Header {
	h := http.Header{}
	for i := 0; i+1 < len(kv); i += 2 {
		h[kv[i]] = append(h[kv[i]], kv[i+1])
	}
	return h
}

// std returns the default headers of the checklist's conformance probes.
func std(method string, extra ...string) http.Header {
	return hdr(append([]string{"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", method}, extra...)...)
}

func req(method string) BodyFacts {
	return BodyFacts{Kind: KindRequest, Method: method, ProtocolVersion: "2026-07-28"}
}

func named(method, name string) BodyFacts {
	f := req(method)
	f.Name, f.HasName = name, true
	return f
}

func TestCheckHeaders(t *testing.T) {
	tests := []struct {
		name   string
		h      http.Header
		f      BodyFacts
		code   int64  // 0 = accepted
		header string // HeaderMismatchData.Header for -32020
	}{
		{"valid tools/list", std("tools/list"), req("tools/list"), 0, ""},
		// "Protocol Version Header": every POST MUST include MCP-Protocol-Version (checklist Q37).
		{"missing version header", hdr("Mcp-Method", "tools/list"), req("tools/list"), CodeHeaderMismatch, HeaderProtocolVersion},
		// Header MUST match _meta protocolVersion (Q37; conformance sep-2575-http-server-header-mismatch-400).
		{"version header != body", std("tools/list", "MCP-Protocol-Version", "x"), req("tools/list"), CodeHeaderMismatch, HeaderProtocolVersion},
		{"old version header, new body", hdr("MCP-Protocol-Version", "2025-11-25", "Mcp-Method", "tools/list"), req("tools/list"), CodeHeaderMismatch, HeaderProtocolVersion},
		{"body v999, header 2026-07-28", std("server/discover"), BodyFacts{Method: "server/discover", ProtocolVersion: "v999.0.0"}, CodeHeaderMismatch, HeaderProtocolVersion},
		// Unsupported version with header == body → -32022 (Q02; sep-2575-http-server-unsupported-version-400).
		{"unsupported version", hdr("MCP-Protocol-Version", "1900-01-01", "Mcp-Method", "tools/list"), BodyFacts{Method: "tools/list", ProtocolVersion: "1900-01-01"}, CodeUnsupportedProtocolVersion, ""},
		// A body without _meta protocolVersion is left to the -32602 check (checklist H12).
		{"body version absent", std("server/discover"), BodyFacts{Method: "server/discover"}, 0, ""},
		// "Standard Request Headers": Mcp-Method is required for all requests (Q38).
		{"missing Mcp-Method", hdr("MCP-Protocol-Version", "2026-07-28"), req("tools/list"), CodeHeaderMismatch, HeaderMethod},
		{"Mcp-Method mismatch", std("prompts/list"), req("tools/list"), CodeHeaderMismatch, HeaderMethod},
		// "Case Sensitivity": values are case-sensitive (conformance ServerRejectsCaseMismatchValue).
		{"Mcp-Method wrong case value", std("TOOLS/LIST"), req("tools/list"), CodeHeaderMismatch, HeaderMethod},
		// ... names are case-insensitive (ServerAcceptsLowercase/UppercaseHeaderName).
		{"lower-case header names", hdr("mcp-protocol-version", "2026-07-28", "mcp-method", "tools/list"), req("tools/list"), 0, ""},
		{"upper-case header names", hdr("MCP-PROTOCOL-VERSION", "2026-07-28", "MCP-METHOD", "tools/list"), req("tools/list"), 0, ""},
		// RFC 9110 §5.5 OWS is not part of the value (ServerAcceptsWhitespaceHeaderValue).
		{"padded Mcp-Method", std(" tools/list\t"), req("tools/list"), 0, ""},
		{"repeated Mcp-Method", std("tools/list", "Mcp-Method", "tools/list"), req("tools/list"), CodeHeaderMismatch, HeaderMethod},
		// Mcp-Method has no Base64 form: only Mcp-Name and Mcp-Param-* permit it.
		{"base64 Mcp-Method", std("=?base64?dG9vbHMvbGlzdA==?="), req("tools/list"), CodeHeaderMismatch, HeaderMethod},
		// Mcp-Name required for tools/call, resources/read, prompts/get (Q39; ServerRejectsMissingNameHeader).
		{"tools/call ok", std("tools/call", "Mcp-Name", "echo"), named("tools/call", "echo"), 0, ""},
		{"tools/call missing name", std("tools/call"), named("tools/call", "echo"), CodeHeaderMismatch, HeaderName},
		{"tools/call wrong name", std("tools/call", "Mcp-Name", "other"), named("tools/call", "echo"), CodeHeaderMismatch, HeaderName},
		{"tools/call padded name", std("tools/call", "Mcp-Name", "  echo  "), named("tools/call", "echo"), 0, ""},
		{"tools/call base64 name", std("tools/call", "Mcp-Name", "=?base64?ZWNobw==?="), named("tools/call", "echo"), 0, ""},
		{"tools/call bad base64 name", std("tools/call", "Mcp-Name", "=?base64?ZWNobw?="), named("tools/call", "echo"), CodeHeaderMismatch, HeaderName},
		{"non-ascii name plain", std("tools/call", "Mcp-Name", "héllo"), named("tools/call", "héllo"), CodeHeaderMismatch, HeaderName},
		{"non-ascii name base64", std("tools/call", "Mcp-Name", EncodeHeaderValue("héllo")), named("tools/call", "héllo"), 0, ""},
		{"prompts/get wrong name", std("prompts/get", "Mcp-Name", "b"), named("prompts/get", "a"), CodeHeaderMismatch, HeaderName},
		{"resources/read uri", std("resources/read", "Mcp-Name", "file:///projects/myapp/config.json"), named("resources/read", "file:///projects/myapp/config.json"), 0, ""},
		{"resources/read uri mismatch", std("resources/read", "Mcp-Name", "test://ok"), named("resources/read", "test://other"), CodeHeaderMismatch, HeaderName},
		// A body without params.name is left to the -32602 check.
		{"tools/call body without name", std("tools/call"), req("tools/call"), 0, ""},
		// Mcp-Name on other methods has no source field: ignored.
		{"Mcp-Name on tools/list", std("tools/list", "Mcp-Name", "x"), req("tools/list"), 0, ""},
		// "Sending Messages" rule 4: clients MUST NOT send responses.
		{"response body", hdr(), BodyFacts{Kind: KindResponse}, CodeInvalidRequest, ""},
		// Notifications: no header requirements, but present headers must match.
		{"notification without headers", hdr(), BodyFacts{Kind: KindNotification, Method: "notifications/cancelled"}, 0, ""},
		{"notification mismatched method", hdr("Mcp-Method", "x"), BodyFacts{Kind: KindNotification, Method: "notifications/cancelled"}, CodeHeaderMismatch, HeaderMethod},
		// Legacy initialize without MCP headers (Q17) → 400.
		{"legacy initialize", hdr(), BodyFacts{Method: "initialize"}, CodeHeaderMismatch, HeaderProtocolVersion},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rej := checkHeaders(tt.h, tt.f)
			if tt.code == 0 {
				if rej != nil {
					t.Fatalf("rejected: %v", rej)
				}
				return
			}
			if rej == nil {
				t.Fatalf("accepted, want code %d", tt.code)
			}
			if rej.Code != tt.code || rej.Status != http.StatusBadRequest || rej.Message == "" {
				t.Fatalf("got %+v, want 400 / %d", rej, tt.code)
			}
			if tt.header != "" && rej.Data != (HeaderMismatchData{Header: tt.header}) {
				t.Errorf("data = %#v, want header %q", rej.Data, tt.header)
			}
		})
	}
}

func TestUnsupportedVersionData(t *testing.T) {
	// schema.json UnsupportedProtocolVersionError: data.supported and data.requested are required.
	rules := HeaderRules{SupportedVersions: []string{"2026-07-28", "2027-01-01"}}
	rej := rules.Check(hdr("MCP-Protocol-Version", "2025-11-25", "Mcp-Method", "tools/list"), BodyFacts{Method: "tools/list", ProtocolVersion: "2025-11-25"})
	if rej == nil || rej.Code != CodeUnsupportedProtocolVersion || rej.Status != 400 {
		t.Fatalf("got %v", rej)
	}
	b, err := rej.Body(json.RawMessage(`7`))
	if err != nil {
		t.Fatal(err)
	}
	var resp struct {
		ID    int
		Error struct {
			Code int64
			Data UnsupportedVersionData
		}
	}
	if err := json.Unmarshal(b, &resp); err != nil {
		t.Fatal(err)
	}
	want := UnsupportedVersionData{Supported: []string{"2026-07-28", "2027-01-01"}, Requested: "2025-11-25"}
	if resp.ID != 7 || !reflect.DeepEqual(resp.Error.Data, want) {
		t.Errorf("body = %s", b)
	}
	// Empty SupportedVersions disables the version check.
	if rej := (HeaderRules{}).Check(hdr("MCP-Protocol-Version", "x", "Mcp-Method", "m"), BodyFacts{Method: "m", ProtocolVersion: "x"}); rej != nil {
		t.Errorf("no supported list: %v", rej)
	}
}

// OptionalValue allows an absent header and reads a present one by the
// rule of a required one: once, with field-value bytes only.
func TestOptionalValue(t *testing.T) {
	h := http.Header{}
	if v, rej := OptionalValue(h, HeaderProtocolVersion); v != "" || rej != nil {
		t.Errorf("absent: %q %v", v, rej)
	}
	h.Set(HeaderProtocolVersion, " 2025-11-25\t")
	if v, rej := OptionalValue(h, HeaderProtocolVersion); v != "2025-11-25" || rej != nil {
		t.Errorf("once: %q %v", v, rej)
	}
	h.Add(HeaderProtocolVersion, "1999-01-01")
	if _, rej := OptionalValue(h, HeaderProtocolVersion); rej == nil || rej.Status != http.StatusBadRequest || rej.Code != CodeHeaderMismatch {
		t.Errorf("repeated: %v, want 400 -32020", rej)
	}
}
