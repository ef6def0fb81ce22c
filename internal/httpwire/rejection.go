package httpwire

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
)

// Rejection is an HTTP-level refusal of a request: the status to answer with
// and the JSON-RPC error to put in the body.
type Rejection struct {
	// Status is the HTTP status code, e.g. 400.
	Status int
	// Code is the JSON-RPC error code, e.g. -32020.
	Code int64
	// Message is a one-sentence description for error.message.
	Message string
	// Data is the optional error.data value; nil leaves it out.
	Data any
	// Header holds extra response headers, e.g. Allow on a 405.
	Header http.Header
}

// HeaderMismatchData is the error.data of a -32020 rejection: which header
// failed validation.
type HeaderMismatchData struct {
	Header string `json:"header"`
}

// UnsupportedVersionData is the error.data of a -32022
// UnsupportedProtocolVersionError (schema.json; both keys required).
type UnsupportedVersionData struct {
	Supported []string `json:"supported"`
	Requested string   `json:"requested"`
}

// Error implements error.
func (r *Rejection) Error() string {
	return "HTTP " + strconv.Itoa(r.Status) + ": JSON-RPC " + strconv.FormatInt(r.Code, 10) + ": " + r.Message
}

type wireError struct {
	Code    int64  `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

type wireResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitzero"`
	Error   wireError       `json:"error"`
}

// Body returns the JSON-RPC error response for the rejection. id is the raw
// request id (a JSON string or integer, copied verbatim); pass nil when the
// id could not be read, and the "id" member is left out (the schema types it
// as optional, not nullable).
func (r *Rejection) Body(id json.RawMessage) ([]byte, error) {
	if len(id) > 0 && !json.Valid(id) {
		return nil, fmt.Errorf("httpwire: request id %q is not valid JSON", id)
	}
	if len(id) == 0 {
		id = nil
	}
	return json.Marshal(wireResponse{JSONRPC: "2.0", ID: id, Error: wireError{Code: r.Code, Message: r.Message, Data: r.Data}})
}

// Write sends the rejection: the extra headers, Content-Type:
// application/json, the status and the JSON-RPC error body (see Body).
func (r *Rejection) Write(w http.ResponseWriter, id json.RawMessage) error {
	body, err := r.Body(id)
	if err != nil {
		return err
	}
	for k, vs := range r.Header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Del("Content-Length")
	w.WriteHeader(r.Status)
	_, err = w.Write(body)
	return err
}

// StatusForCode maps a JSON-RPC error code produced after the body was
// parsed to the HTTP status of a JSON (non-SSE) error response:
//
//   - -32020, -32021, -32022: 400 (spec MUST: schema descriptions, basic/index.mdx).
//   - -32602: 400 (spec MUST for missing required _meta fields; applied to
//     every -32602 so the runtime need not tell the cases apart [inference]).
//   - -32601: 404 (spec MUST, "Protocol Version Header" section).
//   - -32700, -32600: 400 [inference; the spec names no status].
//   - anything else (-32603, application codes): 200 with the error in the
//     body [inference; SERVER-CHECKLIST H11].
func StatusForCode(code int64) int {
	switch code {
	case CodeMethodNotFound:
		return http.StatusNotFound
	case CodeParseError, CodeInvalidRequest, CodeInvalidParams,
		CodeHeaderMismatch, CodeMissingClientCapability, CodeUnsupportedProtocolVersion:
		return http.StatusBadRequest
	}
	return http.StatusOK
}
