package httpwire

import (
	"mime"
	"net/http"
	"strconv"
	"strings"
)

// Accept says which response media types a request's Accept header allows.
type Accept struct {
	// JSON is true when application/json is acceptable.
	JSON bool
	// SSE is true when text/event-stream is acceptable.
	SSE bool
}

// ParseAccept evaluates the Accept headers of h (RFC 9110 §12.5.1): the
// most specific matching media range decides (type/subtype over type/* over
// */*), and q=0 excludes. With no Accept header every type is acceptable.
func ParseAccept(h http.Header) Accept {
	vals := h.Values("Accept")
	if len(vals) == 0 {
		return Accept{JSON: true, SSE: true}
	}
	var room [4]mediaRange // the usual Accept lists fit: no allocation
	ranges := room[:0]
	for _, v := range vals {
		for part := range strings.SplitSeq(v, ",") {
			if r, ok := parseMediaRange(part); ok {
				ranges = append(ranges, r)
			}
		}
	}
	return Accept{
		JSON: acceptable(ranges, "application", "json"),
		SSE:  acceptable(ranges, "text", "event-stream"),
	}
}

// CheckAccept enforces "Sending Messages" rule 2 (the client MUST list both
// application/json and text/event-stream): it returns 406 Not Acceptable
// with -32600 unless both are acceptable. The spec does not say what the
// server answers (SERVER-CHECKLIST H23); 406 follows HTTP content
// negotiation and the TypeScript SDK (the Go SDK answers 400). A lenient
// runtime can use ParseAccept instead and reply only in an accepted type.
func CheckAccept(h http.Header) *Rejection {
	if a := ParseAccept(h); !a.JSON || !a.SSE {
		return &Rejection{Status: http.StatusNotAcceptable, Code: CodeInvalidRequest,
			Message: "Not Acceptable: the Accept header must list both application/json and text/event-stream"}
	}
	return nil
}

// CheckContentType requires a POST body of Content-Type application/json
// (JSON-RPC messages MUST be UTF-8: a charset parameter, if any, must be
// utf-8). Anything else, or no Content-Type, gets 415 Unsupported Media
// Type with -32600 [inference: the spec shows application/json on every
// POST but names no status; both official SDKs answer 415].
func CheckContentType(h http.Header) *Rejection {
	mt, params, err := mime.ParseMediaType(h.Get("Content-Type"))
	if err == nil && mt == "application/json" {
		if cs, ok := params["charset"]; !ok || strings.EqualFold(cs, "utf-8") || strings.EqualFold(cs, "utf8") {
			return nil
		}
	}
	return &Rejection{Status: http.StatusUnsupportedMediaType, Code: CodeInvalidRequest,
		Message: "Unsupported Media Type: Content-Type must be application/json (UTF-8)"}
}

type mediaRange struct {
	typ, sub string
	q        float64
}

func parseMediaRange(s string) (mediaRange, bool) {
	media, params, hasParams := strings.Cut(s, ";")
	typ, sub, ok := strings.Cut(strings.TrimSpace(media), "/")
	if !ok || typ == "" || sub == "" {
		return mediaRange{}, false
	}
	r := mediaRange{typ: strings.ToLower(strings.TrimSpace(typ)), sub: strings.ToLower(strings.TrimSpace(sub)), q: 1}
	if !hasParams {
		return r, true
	}
	for p := range strings.SplitSeq(params, ";") {
		k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
		if strings.EqualFold(strings.TrimSpace(k), "q") {
			q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil || q < 0 || q > 1 {
				return mediaRange{}, false
			}
			r.q = q
		}
	}
	return r, true
}

// acceptable reports whether typ/sub has q > 0 under its most specific
// matching range.
func acceptable(ranges []mediaRange, typ, sub string) bool {
	best, q := -1, 0.0
	for _, r := range ranges {
		spec := -1
		switch {
		case r.typ == typ && r.sub == sub:
			spec = 2
		case r.typ == typ && r.sub == "*":
			spec = 1
		case r.typ == "*" && r.sub == "*":
			spec = 0
		}
		if spec > best || (spec == best && spec >= 0 && r.q > q) {
			best, q = spec, r.q
		}
	}
	return best >= 0 && q > 0
}
