package httpwire

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/textproto"
	"slices"
	"strings"
	"unicode/utf8"
)

// MessageKind says what kind of JSON-RPC message a POST body holds.
type MessageKind int

const (
	// KindRequest is a message with a method and an id (the zero value).
	KindRequest MessageKind = iota
	// KindNotification is a message with a method and no id.
	KindNotification
	// KindResponse is a message with a result or error and no method.
	KindResponse
)

// BodyFacts are the JSON-RPC body values the request headers must mirror.
// The server builds them from its one parse of the message, the same
// reading its handlers get.
type BodyFacts struct {
	// Kind is the message kind.
	Kind MessageKind
	// Method is the JSON-RPC method.
	Method string
	// Name is params.name (tools/call, prompts/get), params.uri
	// (resources/read) or params.taskId (tasks/*); see NameField. HasName is false when the body has
	// no such string.
	Name    string
	HasName bool
	// ProtocolVersion is params._meta["io.modelcontextprotocol/protocolVersion"];
	// "" when absent or not a string (the runtime rejects that with -32602,
	// so the header is then not compared with it).
	ProtocolVersion string
	// ParamHeaders are the x-mcp-header declarations of the tool named in a
	// tools/call body (see ParamHeadersFromSchema); nil for an unknown tool
	// or another method.
	ParamHeaders []ParamHeader
	// Arguments is the raw params.arguments of a tools/call body.
	Arguments json.RawMessage
}

// HeaderRules configures the header checks (Check).
type HeaderRules struct {
	// SupportedVersions lists the protocol versions the server implements.
	// When it is not empty, a request whose MCP-Protocol-Version (equal to
	// the body's) is not listed is rejected with 400 and -32022
	// UnsupportedProtocolVersionError; when empty, versions are not checked.
	SupportedVersions []string
}

// Check validates the request metadata headers h of a POST against the body
// facts f and returns nil to accept or the Rejection to answer with. Header
// names match case-insensitively, values case-sensitively after trimming
// spaces and tabs ("Case Sensitivity"; RFC 9110 §5.5). In order:
//
//  1. A JSON-RPC response body → 400, -32600 (clients MUST NOT send responses).
//  2. A notification → only headers that are present are compared with the
//     body (the revision defines no header requirements for notification
//     POSTs); the runtime then answers 202.
//  3. MCP-Protocol-Version missing, repeated or malformed → 400, -32020; not
//     equal to the body's _meta protocol version → 400, -32020 ("Protocol
//     Version Header" MUST; conformance sep-2575-http-server-header-mismatch-400).
//  4. The version is not in SupportedVersions → 400, -32022 with data
//     {supported, requested} (conformance sep-2575-http-server-unsupported-version-400).
//     This comes before the other headers because their rules belong to the
//     version the client speaks.
//  5. Mcp-Method missing or not equal to the body method → 400, -32020
//     (conformance sep-2243-server-reject-invalid-headers).
//  6. Mcp-Name for tools/call, prompts/get, resources/read: missing, not
//     equal to params.name / params.uri after sentinel decoding, or with
//     invalid Base64 → 400, -32020. Skipped when the body lacks the value
//     (the runtime answers -32602).
//  7. Mcp-Param-{Name} for tools/call per ParamHeaders → 400, -32020
//     (conformance sep-2243-server-decode-base64, -validate-param-match,
//     -reject-invalid-param-chars, -reject-param-mismatch).
func (hr HeaderRules) Check(h http.Header, f BodyFacts) *Rejection {
	switch f.Kind {
	case KindResponse:
		return &Rejection{Status: http.StatusBadRequest, Code: CodeInvalidRequest,
			Message: "Invalid Request: clients must not send JSON-RPC responses"}
	case KindNotification:
		if vals, ok := headerValues(h, HeaderMethod); ok {
			return checkMethodHeader(vals, f.Method)
		}
		return nil
	}

	version, rej := requiredValue(h, HeaderProtocolVersion)
	if rej != nil {
		return rej
	}
	if f.ProtocolVersion != "" && version != f.ProtocolVersion {
		return mismatch(HeaderProtocolVersion, "Header mismatch: %s header value %s does not match body _meta protocol version %s",
			HeaderProtocolVersion, clip(version), clip(f.ProtocolVersion))
	}
	if len(hr.SupportedVersions) > 0 && !slices.Contains(hr.SupportedVersions, version) {
		return &Rejection{Status: http.StatusBadRequest, Code: CodeUnsupportedProtocolVersion,
			Message: fmt.Sprintf("Unsupported protocol version %s; supported: %s", clip(version), strings.Join(hr.SupportedVersions, ", ")),
			Data:    UnsupportedVersionData{Supported: slices.Clone(hr.SupportedVersions), Requested: version}}
	}

	vals, ok := headerValues(h, HeaderMethod)
	if !ok {
		return mismatch(HeaderMethod, "Header mismatch: missing required %s header", HeaderMethod)
	}
	if rej := checkMethodHeader(vals, f.Method); rej != nil {
		return rej
	}

	if _, needsName := NameField(f.Method); needsName && f.HasName {
		raw, rej := requiredValue(h, HeaderName)
		if rej != nil {
			return rej
		}
		name, err := DecodeHeaderValue(raw)
		if err != nil {
			return mismatch(HeaderName, "Header mismatch: %s header value %s is malformed: %v", HeaderName, clip(raw), err)
		}
		if name != f.Name {
			return mismatch(HeaderName, "Header mismatch: %s header value %s does not match body value %s", HeaderName, clip(name), clip(f.Name))
		}
	}

	if f.Method == "tools/call" {
		return checkParamHeaders(h, f.ParamHeaders, f.Arguments)
	}
	return nil
}

// checkMethodHeader compares Mcp-Method values with the body method. The
// value is not Base64-decoded: only Mcp-Name and Mcp-Param-* permit it.
func checkMethodHeader(vals []string, method string) *Rejection {
	v, rej := singleValue(HeaderMethod, vals)
	if rej != nil {
		return rej
	}
	if v != method {
		return mismatch(HeaderMethod, "Header mismatch: %s header value %s does not match body method %s", HeaderMethod, clip(v), clip(method))
	}
	return nil
}

// headerValues returns the values of header name, matching the name
// case-insensitively even in an http.Header built without canonical keys.
func headerValues(h http.Header, name string) ([]string, bool) {
	if vs, ok := h[textproto.CanonicalMIMEHeaderKey(name)]; ok {
		return vs, true
	}
	for k, vs := range h {
		if strings.EqualFold(k, name) {
			return vs, true
		}
	}
	return nil, false
}

// requiredValue returns the single trimmed, character-checked value of a
// required header, or a -32020 rejection.
func requiredValue(h http.Header, name string) (string, *Rejection) {
	vals, ok := headerValues(h, name)
	if !ok {
		return "", mismatch(name, "Header mismatch: missing required %s header", name)
	}
	return singleValue(name, vals)
}

// OptionalValue returns the single trimmed, character-checked value of a
// header that may be absent ("" then), or the 400 / -32020 rejection of
// one that is repeated or holds bytes not allowed in a field value: the
// same rule as for a required header, so that every path reads a header
// the same way (a repeated header is never served by its first value).
func OptionalValue(h http.Header, name string) (string, *Rejection) {
	vals, ok := headerValues(h, name)
	if !ok {
		return "", nil
	}
	return singleValue(name, vals)
}

// singleValue trims optional whitespace from the one value of a header and
// rejects repeated headers and bytes not allowed in a field value
// ("Server Validation": a header value contains invalid characters).
func singleValue(name string, vals []string) (string, *Rejection) {
	if len(vals) != 1 {
		return "", mismatch(name, "Header mismatch: %s header appears %d times", name, len(vals))
	}
	v := strings.Trim(vals[0], " \t")
	for i := 0; i < len(v); i++ {
		if c := v[i]; (c < 0x20 || c > 0x7e) && c != '\t' {
			return "", mismatch(name, "Header mismatch: %s header value contains invalid characters (use the =?base64?…?= form for non-ASCII values)", name)
		}
	}
	return v, nil
}

// mismatch builds a 400 / -32020 HeaderMismatch rejection.
func mismatch(header, format string, args ...any) *Rejection {
	return &Rejection{Status: http.StatusBadRequest, Code: CodeHeaderMismatch,
		Message: fmt.Sprintf(format, args...), Data: HeaderMismatchData{Header: header}}
}

// clip quotes s for an error message, shortened to at most 64 runes.
func clip(s string) string {
	const limit = 64
	if utf8.RuneCountInString(s) > limit {
		r := []rune(s)
		s = string(r[:limit]) + "…"
	}
	return fmt.Sprintf("%q", s)
}
