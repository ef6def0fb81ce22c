package server

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/internal/httpwire"
)

// The MCP-Protocol-Version header of initialize-era HTTP traffic
// (Streamable HTTP 2025-06-18 and 2025-11-25, "Protocol Version Header").
// One rule for every request of a legacy session and for the initialize
// that opens one: POST, batch POST, GET stream and DELETE. Absent, it is
// allowed (the server assumes 2025-03-26, whose clients send none);
// present, it must appear once, hold only field-value bytes and name an
// initialize-era version, or the request is refused with 400 ("If the
// server receives a request with an invalid or unsupported
// MCP-Protocol-Version, it MUST respond with 400 Bad Request") and does
// nothing: a refused DELETE leaves its session open.

// legacyVersionHeader returns the request's MCP-Protocol-Version ("" when
// absent), or the 400 / -32020 rejection of one repeated or holding bytes
// not allowed in a header value (as on the modern path).
func legacyVersionHeader(h http.Header) (string, *httpwire.Rejection) {
	return httpwire.OptionalValue(h, httpwire.HeaderProtocolVersion)
}

// unsupportedLegacyVersion is the 400 / -32600 rejection of a present
// MCP-Protocol-Version that names no initialize-era version.
func unsupportedLegacyVersion(v string) *httpwire.Rejection {
	return &httpwire.Rejection{Status: http.StatusBadRequest, Code: httpwire.CodeInvalidRequest,
		Message: "Bad Request: unsupported " + httpwire.HeaderProtocolVersion + " " + strconv.Quote(clipVersion(v)) +
			"; a session speaks one of " + strings.Join(legacyVersions, ", ")}
}

// checkLegacyVersion returns nil when the request may be served in a
// legacy session by its MCP-Protocol-Version, else the 400 to answer.
func checkLegacyVersion(h http.Header) *httpwire.Rejection {
	v, rej := legacyVersionHeader(h)
	switch {
	case rej != nil:
		return rej
	case v != "" && !slices.Contains(legacyVersions, v):
		return unsupportedLegacyVersion(v)
	}
	return nil
}

// clipVersion shortens a header value quoted in an error message.
func clipVersion(v string) string {
	if len(v) > 64 {
		return v[:64] + "…"
	}
	return v
}
