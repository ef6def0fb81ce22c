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
	var b []byte
	var err error
	if r.ContentLength > 0 {
		b, err = readSized(r.Body, r.ContentLength)
	} else {
		b, err = io.ReadAll(r.Body)
	}
	if err != nil {
		if rej := tooLarge(err); rej != nil {
			return nil, rej
		}
		return nil, &Rejection{Status: http.StatusBadRequest, Code: CodeParseError,
			Message: "Parse error: could not read the request body"}
	}
	return b, nil
}

// firstBodyBuffer is the most of a body's declared length read into the
// first buffer before any of it has arrived.
const firstBodyBuffer = 64 << 10

// readSized reads a body of declared length n (already within the limit):
// into one buffer of exactly n bytes when n is small, otherwise growing
// by doubling toward n as the bytes arrive, so a 10 MB body costs about
// one copy (io.ReadAll's growth copies about twice the body and may leave
// a buffer far larger than it), and a client that declares a large body
// without sending it gets at most twice what it sent allocated. A body
// that ends early is a read error, as with io.ReadAll on the net/http body.
func readSized(body io.Reader, n int64) ([]byte, error) {
	b := make([]byte, 0, min(n, firstBodyBuffer))
	for {
		if len(b) == cap(b) {
			if int64(len(b)) >= n {
				return b, nil
			}
			grown := make([]byte, len(b), min(n, 2*int64(cap(b))))
			copy(grown, b)
			b = grown
		}
		m, err := body.Read(b[len(b):cap(b)])
		b = b[:len(b)+m]
		if err == io.EOF {
			if int64(len(b)) < n {
				return b, io.ErrUnexpectedEOF
			}
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

func bodyTooLarge(limit int64) *Rejection {
	return &Rejection{Status: http.StatusRequestEntityTooLarge, Code: CodeInvalidRequest,
		Message: fmt.Sprintf("Request body exceeds the limit of %d bytes", limit)}
}
