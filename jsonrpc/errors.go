package jsonrpc

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// Standard JSON-RPC 2.0 error codes.
const (
	// CodeParseError means the message was not valid JSON (or not valid UTF-8).
	CodeParseError int64 = -32700
	// CodeInvalidRequest means the JSON was valid but not a valid JSON-RPC 2.0 message.
	CodeInvalidRequest int64 = -32600
	// CodeMethodNotFound means the method does not exist or is not available.
	CodeMethodNotFound int64 = -32601
	// CodeInvalidParams means the method parameters are invalid.
	CodeInvalidParams int64 = -32602
	// CodeInternalError means an internal JSON-RPC error occurred.
	CodeInternalError int64 = -32603
)

// Error is a JSON-RPC 2.0 error object. It implements the error interface so
// handlers can return it directly; the runtime sends it back unchanged
// when its Data is valid JSON (see ValidData).
type Error struct {
	// Code is the integer error code.
	Code int64 `json:"code"`
	// Message is a short, single-sentence description of the error.
	Message string `json:"message"`
	// Data is optional additional information, as raw JSON. It is omitted
	// from the wire when empty, and when it is not valid JSON in UTF-8
	// (AppendError never writes a message that is not JSON).
	Data json.RawMessage `json:"data,omitzero"`
}

// ValidData reports whether e's Data can be sent: empty, or one JSON value
// in valid UTF-8.
func (e *Error) ValidData() bool {
	return len(e.Data) == 0 || validRaw(e.Data)
}

// validRaw reports whether raw is one JSON value in valid UTF-8, what every
// raw value of a message must be.
func validRaw(raw []byte) bool {
	return jsonscan.Valid(raw) && utf8.Valid(raw)
}

// NewError returns an *Error with the given code and message. If data is not
// nil it is marshaled with encoding/json into Data; if marshaling fails, Data
// holds a JSON string describing the failure instead (NewError never panics).
// A json.RawMessage data value is used as is after validation; data whose
// JSON is not UTF-8 (a json.RawMessage or MarshalJSON output holding
// invalid bytes) is a failure too.
func NewError(code int64, msg string, data any) *Error {
	e := &Error{Code: code, Message: msg}
	if data == nil {
		return e
	}
	b, err := json.Marshal(data)
	switch {
	case err != nil:
		b = AppendString(nil, "jsonrpc: cannot marshal error data: "+err.Error())
	case !utf8.Valid(b):
		b = AppendString(nil, "jsonrpc: cannot marshal error data: not valid UTF-8")
	}
	e.Data = b
	return e
}

// Error returns a human-readable form of the error, such as
// "jsonrpc: -32601 Method not found".
func (e *Error) Error() string {
	if e == nil {
		return "jsonrpc: <nil error>"
	}
	s := "jsonrpc: " + strconv.FormatInt(e.Code, 10) + " " + e.Message
	if len(e.Data) > 0 {
		s += ": " + string(e.Data)
	}
	return s
}

// invalid returns a decode error with a standard message for code and a
// JSON string detail in Data.
func invalid(code int64, detail string) *Error {
	msg := "Invalid Request"
	switch code {
	case CodeParseError:
		msg = "Parse error"
	case CodeInvalidParams:
		msg = "Invalid params: " + detail
	}
	return &Error{Code: code, Message: msg, Data: AppendString(nil, detail)}
}
