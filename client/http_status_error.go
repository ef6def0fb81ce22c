package client

import (
	"bytes"
	"fmt"
	"io"
	"net/http"

	"github.com/mcpgen/mcpgen/jsonrpc"
)

// StatusError is an HTTP error status whose body is not a JSON-RPC error.
type StatusError struct {
	StatusCode int
	// Body is the start of the response body, spaces trimmed: at most
	// maxStatusBodyKept bytes of it.
	Body string
	// Truncated reports that the body was longer than Body: it was cut
	// there (the rest is not read beyond maxStatusBodyRead).
	Truncated bool
}

func (e *StatusError) Error() string {
	switch {
	case e.Body == "":
		return fmt.Sprintf("client: HTTP %d %s", e.StatusCode, http.StatusText(e.StatusCode))
	case e.Truncated:
		return fmt.Sprintf("client: HTTP %d %s: %s… (the body is longer; cut after %d bytes)",
			e.StatusCode, http.StatusText(e.StatusCode), e.Body, len(e.Body))
	}
	return fmt.Sprintf("client: HTTP %d %s: %s", e.StatusCode, http.StatusText(e.StatusCode), e.Body)
}

const (
	// maxStatusBodyRead bounds what is read of an error status's body: a
	// JSON-RPC error is looked for in a body within it.
	maxStatusBodyRead = 64 << 10
	// maxStatusBodyKept bounds StatusError.Body.
	maxStatusBodyKept = 512
)

// statusError turns an error status into the JSON-RPC error in its body,
// or a *StatusError with the body's start (newStatusError).
func (t *HTTPTransport) statusError(resp *http.Response, req *Request) error {
	body, whole := readStatusBody(resp)
	if whole {
		if msg, derr := jsonrpc.Decode(bytes.TrimSpace(body)); derr == nil && msg.Kind == jsonrpc.KindErrorResponse {
			return msg.Error
		}
	}
	return newStatusError(resp.StatusCode, body, whole)
}

// readStatusBody reads an error status's body up to maxStatusBodyRead;
// whole reports that it ended within that bound.
func readStatusBody(resp *http.Response) (body []byte, whole bool) {
	body, _ = io.ReadAll(io.LimitReader(resp.Body, maxStatusBodyRead+1))
	if len(body) > maxStatusBodyRead {
		return body[:maxStatusBodyRead], false
	}
	return body, true
}

// newStatusError is the StatusError of status code with the body read
// (readStatusBody): its start, saying whether it was cut (a body over
// maxStatusBodyRead, an HTML error page say, is cut too).
func newStatusError(code int, body []byte, whole bool) *StatusError {
	body = bytes.TrimSpace(body)
	kept := bytes.TrimSpace(clipBytes(body, maxStatusBodyKept))
	return &StatusError{StatusCode: code, Body: string(kept), Truncated: !whole || len(kept) < len(body)}
}
