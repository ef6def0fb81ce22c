package httpwire

import (
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/mcpgen/mcpgen/internal/chunkbuf"
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

// firstBodyBuffer is the largest declared length read straight into a
// buffer of that length before any of the body has arrived.
const firstBodyBuffer = 64 << 10

// readSized reads a body of declared length n (already within the limit)
// into one buffer of exactly n bytes. A small body is read straight into
// it. A larger one is first gathered in pooled 64 KiB chunks
// (internal/chunkbuf) until half of it has arrived; then the buffer of n
// bytes is allocated, the chunks are copied in and go back to the pool, and
// the rest is read in place. A 10 MB body thus touches about 15 MB (growing
// a buffer by doubling toward n touched about 26 MB, io.ReadAll about 30 MB
// and a buffer up to twice the body), and a client that declares a large
// body without sending it gets at most about three times what it sent
// allocated: the chunks it filled, then n once it sent n/2. A body that
// ends early is a read error, as with io.ReadAll on the net/http body.
func readSized(body io.Reader, n int64) ([]byte, error) {
	var b []byte
	k := 0
	if n <= firstBodyBuffer {
		b = make([]byte, n)
	} else {
		var parts chunkbuf.Buffer
		defer parts.Reset()
		for int64(parts.Len()) < n/2 {
			_, err := parts.ReadSome(body, int(n)-parts.Len())
			if err == io.EOF && int64(parts.Len()) == n {
				break
			}
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			if err != nil {
				return nil, err
			}
		}
		b = make([]byte, n)
		k = parts.CopyTo(b)
		parts.Reset()
	}
	if _, err := io.ReadFull(body, b[k:]); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return b, nil
}

func bodyTooLarge(limit int64) *Rejection {
	return &Rejection{Status: http.StatusRequestEntityTooLarge, Code: CodeInvalidRequest,
		Message: fmt.Sprintf("Request body exceeds the limit of %d bytes", limit)}
}
