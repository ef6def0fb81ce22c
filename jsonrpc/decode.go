package jsonrpc

import (
	"strconv"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// envelopeMembers are the known envelope members; readMembers sets bit i
// of seen for envelopeMembers[i].
var envelopeMembers = [...]string{"jsonrpc", "id", "method", "params", "result", "error"}

// errorMembers are the members of an error object.
var errorMembers = [...]string{"code", "message", "data"}

// The bits of the envelope members in seen.
const (
	memJSONRPC = 1 << iota
	memID
	memMethod
	memParams
	memResult
	memError
)

// tapeDepth is the nesting the one parse of a message takes: a tool's
// arguments (params.arguments, two levels down) as deep as their checker
// takes them (jsonscan.MaxArgumentsDepth), so that the arguments on the
// message's tape are exactly those that checker's own parse would accept.
const tapeDepth = jsonscan.MaxArgumentsDepth + 2

// The values Decode only checks: a response's result, and a large
// message's arguments (from jsonscan.LargeArgsMessage, 1 MiB). The
// checker of large arguments parses them into a tape it releases once
// they are decoded, so a tape of large arguments (8 bytes a value) does
// not stay with the message while the tool runs.
var (
	opaqueResult = []jsonscan.Opaque{{Root: "result"}}
	opaqueLarge  = []jsonscan.Opaque{{Root: "result"}, {Root: "params", Inner: "arguments", Spans: true}}
)

// DecodeOwned is Decode for a message in a buffer of its own, which
// nothing writes to or reuses after: a transport's copy of one message
// (an HTTP request body, a long stdio line it took from its reader). Then a
// string that is most of the message (a large tool argument) may be
// decoded as a view of data rather than a copy of it, so the message's
// payload is held once. Values decoded from it may keep data alive.
// data's capacity is taken as the buffer's size (pass it uncut): a view
// keeps the whole buffer, so only a string of at least half of that is
// one.
func DecodeOwned(data []byte) (Message, *Error) {
	msg, err := Decode(data)
	msg.tape.SetOwner(cap(data))
	return msg, err
}

// Decode parses and classifies one JSON-RPC 2.0 message. See the package
// documentation for the exact rules.
//
// On failure it returns a Message with Kind KindInvalid and an *Error whose
// Code is CodeParseError, CodeInvalidRequest or CodeInvalidParams and whose
// Data is a JSON string with details; but a message with a string "method"
// (once) and no "id" member is a notification even when it is malformed (a
// repeated member, a missing or wrong "jsonrpc", params neither an object
// nor an array, "result" or "error" beside "method"): it
// keeps Kind KindNotification and its Method, and a receiver must not
// answer it. If the message's id could be read (a
// valid string or integer), it is still set in Message.ID so the caller can
// answer with it; otherwise Message.ID is zero and the error response should
// omit the id (AppendError does so for a zero ID).
//
// The returned Params, Result and Error.Data alias data.
//
// The message is parsed once (a jsonscan tape, with exact member names and
// no name repeated at any depth; a result is only checked, as nothing
// reads it but as bytes); everything Decode reports is read from that
// parse, and a request's Message carries it for the server's reading of
// params. A message that parse refuses gets the verdict of the scans of
// its bytes (decodeBytes): a repeated name inside a value the envelope does
// not look into is no envelope error.
func Decode(data []byte) (Message, *Error) {
	opaque := opaqueResult
	if len(data) >= jsonscan.LargeArgsMessage() {
		opaque = opaqueLarge
	}
	// The parse is written into the Message it will stay with (a request
	// with params); every other return drops it.
	var msg Message
	if perr := jsonscan.ParseEnvelopeInto(&msg.tape, data, tapeDepth, opaque...); perr != nil {
		return decodeBytes(data)
	}
	t := &msg.tape
	if !t.ValidUTF8() {
		return Message{}, invalid(CodeParseError, "message is not valid UTF-8")
	}
	switch t.Kind(0) {
	case jsonscan.KindObject:
	case jsonscan.KindArray:
		return Message{}, invalid(CodeInvalidRequest, "batch requests are not supported")
	default:
		return Message{}, invalid(CodeInvalidRequest, "message must be a JSON object")
	}
	var vals [len(envelopeMembers)]int
	seen := tapeEnvelope(t, &vals)
	version, id, method, params, result, errObj := vals[0], vals[1], vals[2], vals[3], vals[4], vals[5]

	// Read the id first so that later errors can still carry it.
	idNull := false
	idOK := true
	if seen&memID != 0 {
		if t.Kind(id) == jsonscan.KindNull {
			idNull = true
		} else {
			msg.ID, idOK = parseID(t.Raw(id))
		}
	}
	fail := func(code int64, detail string) (Message, *Error) {
		return Message{ID: msg.ID}, invalid(code, detail)
	}
	if seen&memID == 0 && seen&memMethod != 0 && t.Kind(method) == jsonscan.KindString {
		// A notification, even a malformed one (decided here, before any
		// rule, as decodeBytes does): the failure keeps its kind and
		// method, so that the receiver answers nothing.
		fail = func(code int64, detail string) (Message, *Error) {
			return Message{Kind: KindNotification, Method: methodName(t, method)}, invalid(code, detail)
		}
	}

	if seen&memJSONRPC == 0 {
		return fail(CodeInvalidRequest, `missing "jsonrpc" member`)
	}
	if t.Kind(version) != jsonscan.KindString || !t.TextEqual(version, "2.0") {
		return fail(CodeInvalidRequest, `"jsonrpc" must be exactly "2.0"`)
	}
	if !idOK {
		return fail(CodeInvalidRequest, `"id" must be a string or an integer`)
	}

	switch {
	case seen&memMethod != 0:
		if t.Kind(method) != jsonscan.KindString {
			return fail(CodeInvalidRequest, `"method" must be a string`)
		}
		if seen&(memResult|memError) != 0 {
			return fail(CodeInvalidRequest, `a request must not contain "result" or "error"`)
		}
		if idNull {
			return fail(CodeInvalidRequest, `"id" must not be null`)
		}
		if seen&memParams != 0 && t.Kind(params) != jsonscan.KindNull {
			if k := t.Kind(params); k != jsonscan.KindObject && k != jsonscan.KindArray {
				return fail(CodeInvalidParams, `"params" must be an object or an array`)
			}
			msg.Params, msg.params = t.Raw(params), params
		}
		msg.Method = methodName(t, method)
		if msg.Params == nil {
			msg.tape = jsonscan.Tape{} // no params to read from it
		}
		if seen&memID != 0 {
			msg.Kind = KindRequest
		} else {
			msg.Kind = KindNotification
		}
		return msg, nil

	case seen&memResult != 0 && seen&memError != 0:
		return fail(CodeInvalidRequest, `a response must not contain both "result" and "error"`)

	case seen&memResult != 0:
		if msg.ID.IsZero() {
			return fail(CodeInvalidRequest, `a result response must have a string or integer "id"`)
		}
		msg.Kind = KindResponse
		msg.Result = t.Raw(result)
		msg.tape = jsonscan.Tape{}
		return msg, nil

	case seen&memError != 0:
		e, detail := tapeErrorObject(t, errObj)
		if e == nil {
			return fail(CodeInvalidRequest, detail)
		}
		msg.Kind = KindErrorResponse
		msg.Error = e
		msg.tape = jsonscan.Tape{}
		return msg, nil
	}
	return fail(CodeInvalidRequest, `message has neither "method" nor "result"/"error"`)
}

// tapeErrorObject is decodeErrorObject on node obj of t.
func tapeErrorObject(t *jsonscan.Tape, obj int) (*Error, string) {
	if t.Kind(obj) != jsonscan.KindObject {
		return nil, `"error" must be an object`
	}
	var vals [len(errorMembers)]int
	seen := tapeMembers(t, obj, errorMembers[:], vals[:])
	if seen&1 == 0 || t.Kind(vals[0]) != jsonscan.KindNumber || !jsonscan.IsInteger(t.Raw(vals[0])) {
		return nil, `"error.code" must be an integer`
	}
	c, perr := strconv.ParseInt(string(t.Raw(vals[0])), 10, 64)
	if perr != nil {
		return nil, `"error.code" is out of range`
	}
	if seen&2 == 0 || t.Kind(vals[1]) != jsonscan.KindString {
		return nil, `"error.message" must be a string`
	}
	e := &Error{Code: c, Message: t.Text(vals[1])}
	if seen&4 != 0 {
		e.Data = t.Raw(vals[2])
	}
	return e, ""
}

// envelopeIndex is the index of name in envelopeMembers, -1 when it is
// none of them: one switch (TestEnvelopeIndex keeps the two in step).
func envelopeIndex(name string) int {
	switch name {
	case "jsonrpc":
		return 0
	case "id":
		return 1
	case "method":
		return 2
	case "params":
		return 3
	case "result":
		return 4
	case "error":
		return 5
	}
	return -1
}

// tapeEnvelope is tapeMembers on the root object of t with
// envelopeMembers, each name read once (envelopeIndex) instead of compared
// with every envelope member in turn.
func tapeEnvelope(t *jsonscan.Tape, vals *[len(envelopeMembers)]int) (seen int) {
	for m := t.FirstMember(0); m >= 0; m = t.NextMember(0, m) {
		name, plain := t.PlainKey(m) // Key, inlined
		if !plain {
			name = t.Text(m)
		}
		if i := envelopeIndex(name); i >= 0 {
			seen |= 1 << i
			vals[i] = m + 1
		}
	}
	return seen
}

// tapeMembers is readMembers on object node obj of t, whose names are
// unique (the tape refuses a repeated one): vals[i] is the value node of
// the member named names[i], compared by exact unescaped text.
func tapeMembers(t *jsonscan.Tape, obj int, names []string, vals []int) (seen int) {
	for m := t.FirstMember(obj); m >= 0; m = t.NextMember(obj, m) {
		for i, name := range names {
			if t.TextEqual(m, name) {
				seen |= 1 << i
				vals[i] = m + 1
				break
			}
		}
	}
	return seen
}
