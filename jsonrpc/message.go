package jsonrpc

import (
	"encoding/json"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// Kind classifies a decoded JSON-RPC message.
type Kind uint8

// Message kinds. KindInvalid is the zero value and is reported when Decode
// fails (but for a malformed notification, still KindNotification).
const (
	// KindInvalid marks a message that could not be classified.
	KindInvalid Kind = iota
	// KindRequest is a request: it has a method and an id and expects a response.
	KindRequest
	// KindNotification is a notification: it has a method and no id.
	KindNotification
	// KindResponse is a successful response: it has an id and a result.
	KindResponse
	// KindErrorResponse is an error response: it has an error and usually an id.
	KindErrorResponse
)

// String returns the kind's name, e.g. "request".
func (k Kind) String() string {
	switch k {
	case KindRequest:
		return "request"
	case KindNotification:
		return "notification"
	case KindResponse:
		return "response"
	case KindErrorResponse:
		return "error response"
	default:
		return "invalid"
	}
}

// Message is a decoded JSON-RPC 2.0 envelope. Params, Result and Error.Data
// alias the buffer passed to Decode: copy the input first if it is reused
// (as LineReader's is) and the message outlives the next read.
type Message struct {
	// Kind is the message's classification.
	Kind Kind
	// ID is the request or response id; zero for notifications and for
	// error responses without (or with a null) id.
	ID ID
	// Method is the unescaped method name of a request or notification.
	Method string
	// Params is the raw params value (object or array), or nil when absent
	// or null.
	Params json.RawMessage
	// Result is the raw result value of a response (any JSON value).
	Result json.RawMessage
	// Error is the error object of an error response.
	Error *Error

	// tape is Decode's one parse of the message (its nodes; zero for a
	// message built by hand or without params), params the node of Params
	// on it.
	tape   jsonscan.Tape
	params int
}

// ParamsTape is the one parse Decode made of the message and the node of
// Params on it (whose Raw is Params), so that mcpgen's server reads params
// from the parse the envelope was read from instead of scanning them
// again; ok is false when the Message was not decoded, has no params, or
// its Params are no longer the bytes that parse was made of (replaced
// after Decode). The tape's type is internal to mcpgen; its nodes never
// change and are never reused.
func (m *Message) ParamsTape() (t jsonscan.Tape, params int, ok bool) {
	if m.tape.Nodes() == 0 {
		return jsonscan.Tape{}, 0, false
	}
	if raw := m.tape.Raw(m.params); len(raw) != len(m.Params) || &raw[0] != &m.Params[0] {
		return jsonscan.Tape{}, 0, false
	}
	return m.tape, m.params, true
}
