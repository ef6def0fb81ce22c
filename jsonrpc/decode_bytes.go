package jsonrpc

import (
	"strconv"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// decodeBytes is Decode by scans of the message's bytes (jsonscan.Valid,
// utf8.Valid, then the members of the envelope and of error): the verdict
// of a message the one parse refuses (a name repeated at any depth, deeper
// nesting than MaxDepth, malformed JSON), where a repeated member far from
// the envelope is no concern of the envelope's, and the oracle FuzzDecodeTape
// checks the tape path against.
func decodeBytes(data []byte) (Message, *Error) {
	var msg Message
	if !jsonscan.ValidDeep(data) {
		return msg, invalid(CodeParseError, "message is not valid JSON")
	}
	if !utf8.Valid(data) {
		return msg, invalid(CodeParseError, "message is not valid UTF-8")
	}
	var vals [len(envelopeMembers)][]byte
	seen, repeated, dup, hasDup, ok := readMembers(data, envelopeMembers[:], vals[:])
	if !ok {
		if jsonscan.Kind(data) == '[' {
			return msg, invalid(CodeInvalidRequest, "batch requests are not supported")
		}
		return msg, invalid(CodeInvalidRequest, "message must be a JSON object")
	}
	version, id, method, params, result, err := vals[0], vals[1], vals[2], vals[3], vals[4], vals[5]

	// Read the id first so that later errors can still carry it.
	idNull := false
	idOK := true
	if seen&memID != 0 {
		switch {
		case repeated&memID != 0:
			idOK = false
		case string(id) == "null":
			idNull = true
		default:
			msg.ID, idOK = parseID(id)
		}
	}
	fail := func(code int64, detail string) (Message, *Error) {
		return Message{ID: msg.ID}, invalid(code, detail)
	}
	if m, ok := jsonscan.String(method); ok && seen&memID == 0 && repeated&memMethod == 0 {
		// A notification, even a malformed one (decided here, before any
		// rule, as Decode does): the failure keeps its kind and method.
		fail = func(code int64, detail string) (Message, *Error) {
			return Message{Kind: KindNotification, Method: m}, invalid(code, detail)
		}
	}

	if hasDup {
		return fail(CodeInvalidRequest, "duplicate member "+strconv.Quote(dup))
	}
	if seen&memJSONRPC == 0 {
		return fail(CodeInvalidRequest, `missing "jsonrpc" member`)
	}
	if string(version) != `"2.0"` {
		if v, ok := jsonscan.String(version); !ok || v != "2.0" {
			return fail(CodeInvalidRequest, `"jsonrpc" must be exactly "2.0"`)
		}
	}
	if !idOK {
		return fail(CodeInvalidRequest, `"id" must be a string or an integer`)
	}

	switch {
	case seen&memMethod != 0:
		m, ok := jsonscan.String(method)
		if !ok {
			return fail(CodeInvalidRequest, `"method" must be a string`)
		}
		if seen&(memResult|memError) != 0 {
			return fail(CodeInvalidRequest, `a request must not contain "result" or "error"`)
		}
		if idNull {
			return fail(CodeInvalidRequest, `"id" must not be null`)
		}
		if seen&memParams != 0 && string(params) != "null" {
			if params[0] != '{' && params[0] != '[' {
				return fail(CodeInvalidParams, `"params" must be an object or an array`)
			}

			msg.Params = params
		}
		msg.Method = m
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
		msg.Result = result
		return msg, nil

	case seen&memError != 0:
		e, detail := decodeErrorObject(err)
		if e == nil {
			return fail(CodeInvalidRequest, detail)
		}
		msg.Kind = KindErrorResponse
		msg.Error = e
		return msg, nil
	}
	return fail(CodeInvalidRequest, `message has neither "method" nor "result"/"error"`)
}

// decodeErrorObject parses a JSON-RPC error object. On failure it returns
// nil and a description.
func decodeErrorObject(raw []byte) (*Error, string) {
	var vals [len(errorMembers)][]byte
	_, _, _, hasDup, ok := readMembers(raw, errorMembers[:], vals[:])
	if !ok {
		return nil, `"error" must be an object`
	}
	if hasDup {
		return nil, `duplicate member in "error"`
	}
	code, message, data := vals[0], vals[1], vals[2]
	if code == nil || !jsonscan.IsInteger(code) {
		return nil, `"error.code" must be an integer`
	}
	c, perr := strconv.ParseInt(string(code), 10, 64)
	if perr != nil {
		return nil, `"error.code" is out of range`
	}
	m, ok := jsonscan.String(message)
	if !ok {
		return nil, `"error.message" must be a string`
	}
	e := &Error{Code: c, Message: m}
	if len(data) > 0 {
		e.Data = data
	}
	return e, ""
}

// readMembers reads the object obj, storing the value of the member named
// names[i] in vals[i]; other members are ignored. seen has bit i set when
// names[i] was present and repeated when it was present more than once;
// hasDup reports that some member name (known or not, the empty name
// included) appears more than once and dup is the first such name, and ok
// is false when obj is not an object.
func readMembers(obj []byte, names []string, vals [][]byte) (seen, repeated int, dup string, hasDup, ok bool) {
	dup, hasDup, ok = jsonscan.Members(obj, func(key, value []byte) {
		for i, name := range names {
			if string(key) == name {
				repeated |= seen & (1 << i)
				seen |= 1 << i
				vals[i] = value
				return
			}
		}
	})
	return seen, repeated, dup, hasDup, ok
}
