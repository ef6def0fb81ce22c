package httpwire

import (
	"errors"
	"net/http"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// The runtime builds BodyFacts from its one parse of the message
// (server/parse.go); these tests build them the same way: jsonrpc.Decode,
// then the runtime's scanner with exact member names.

// defaultRules accept exactly protocol version 2026-07-28.
var defaultRules = HeaderRules{SupportedVersions: []string{ProtocolVersion}}

// checkHeaders is defaultRules.Check.
func checkHeaders(h http.Header, f BodyFacts) *Rejection { return defaultRules.Check(h, f) }

// errNotAMessage reports a body that does not decode as one JSON-RPC message.
var errNotAMessage = errors.New("body is not a single JSON-RPC message")

// factsFromBody reads the facts the header rules compare from a body, as
// the runtime does: fields of the wrong type are absent.
func factsFromBody(body []byte) (BodyFacts, error) {
	msg, derr := jsonrpc.Decode(body)
	if derr != nil {
		return BodyFacts{}, errors.Join(errNotAMessage, derr)
	}
	var f BodyFacts
	switch msg.Kind {
	case jsonrpc.KindResponse, jsonrpc.KindErrorResponse:
		f.Kind = KindResponse
		return f, nil
	case jsonrpc.KindNotification:
		f.Kind = KindNotification
	}
	f.Method = msg.Method
	field, _ := NameField(f.Method)
	var meta []byte
	jsonscan.Members(msg.Params, func(key, value []byte) {
		switch k := string(key); {
		case k == "_meta":
			meta = value
		case k == field && field != "":
			f.Name, f.HasName = jsonscan.String(value)
		case k == "arguments" && f.Method == "tools/call":
			f.Arguments = value
		}
	})
	jsonscan.Members(meta, func(key, value []byte) {
		if string(key) == "io.modelcontextprotocol/protocolVersion" {
			f.ProtocolVersion, _ = jsonscan.String(value)
		}
	})
	return f, nil
}
