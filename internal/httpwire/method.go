package httpwire

import "net/http"

// CheckMethod accepts POST, the only method of the MCP endpoint ("the server
// MUST provide a single HTTP endpoint path ... that supports POST"). Any other
// method gets 405 Method Not Allowed with "Allow: POST" (RFC 9110 §15.5.6)
// and -32600: the spec's "Backward Compatibility" section says a
// 2026-07-28-only server SHOULD answer GET (the old standalone SSE stream)
// and DELETE (the old session end) with 405 (conformance probe Q40). A
// runtime that serves CORS preflights must handle OPTIONS before this check.
func CheckMethod(method string) *Rejection {
	if method == http.MethodPost {
		return nil
	}
	return &Rejection{Status: http.StatusMethodNotAllowed, Code: CodeInvalidRequest,
		Message: "Method Not Allowed: the MCP endpoint accepts only POST",
		Header:  http.Header{"Allow": {http.MethodPost}}}
}
