package httpwire

import (
	"errors"
	"fmt"
	"io"
	"net/http"
)

// DefaultMaxBodyBytes is a sensible request body limit: 4 MiB.
const DefaultMaxBodyBytes int64 = 4 << 20

// limitBody replaces r.Body with an http.MaxBytesReader of limit bytes, so
// reading past the limit fails with *http.MaxBytesError and the server
// closes the connection after the response. Use tooLarge to turn that
// error into a rejection, or call ReadBody, which does both.
func limitBody(w http.ResponseWriter, r *http.Request, limit int64) {
	if r.Body != nil {
		r.Body = http.MaxBytesReader(w, r.Body, limit)
	}
}

// tooLarge returns the 413 rejection for a read error caused by the body
// limit, or nil for any other error.
func tooLarge(err error) *Rejection {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return bodyTooLarge(mbe.Limit)
	}
	return nil
}

// ReadBody reads the whole request body, at most limit bytes (limit <= 0
// means DefaultMaxBodyBytes). A larger body (by Content-Length or while
// reading) gets 413 Content Too Large with -32600; a failed read gets 400
// with -32700. Both errors carry no id: the body was not parsed.
// [inference: the spec sets no size limit; 413 is RFC 9110 §15.5.14.]
func ReadBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, *Rejection) {
	if limit <= 0 {
		limit = DefaultMaxBodyBytes
	}
	if r.ContentLength > limit {
		return nil, bodyTooLarge(limit)
	}
	if r.Body == nil {
		return nil, nil
	}
	limitBody(w, r, limit)
	b, err := io.ReadAll(r.Body)
	if err != nil {
		if rej := tooLarge(err); rej != nil {
			return nil, rej
		}
		return nil, &Rejection{Status: http.StatusBadRequest, Code: CodeParseError,
			Message: "Parse error: could not read the request body"}
	}
	return b, nil
}

func bodyTooLarge(limit int64) *Rejection {
	return &Rejection{Status: http.StatusRequestEntityTooLarge, Code: CodeInvalidRequest,
		Message: fmt.Sprintf("Request body exceeds the limit of %d bytes", limit)}
}
