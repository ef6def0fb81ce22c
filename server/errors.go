package server

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// InputRequiredError carries the input requests a handler still needs.
// Ask returns it; a handler passes it up as its error and the runtime
// answers with an InputRequiredResult (tools/call, prompts/get and
// resources/read only). Requests that several Ask calls of one round left
// unanswered are merged into one result.
type InputRequiredError struct {
	Requests map[string]mcp.InputRequest
}

func (e *InputRequiredError) Error() string {
	keys := make([]string, 0, len(e.Requests))
	for k := range e.Requests {
		keys = append(keys, k)
	}
	return "input required: " + strings.Join(keys, ", ")
}

// metaError is the -32602 a request with missing or malformed _meta gets.
func metaError(msg string) *jsonrpc.Error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msg}
}

// invalidParams is a -32602 error with a message naming the problem.
func invalidParams(msg string) *jsonrpc.Error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "Invalid params: " + msg}
}

// ResourceNotFound returns the error for a resources/read of an unknown URI:
// -32602 with data {"uri": uri} (server/resources.mdx, "Error Handling").
// A legacy session sends it with the code of its revisions, -32002
// (legacyError).
func ResourceNotFound(uri string) error {
	return jsonrpc.NewError(jsonrpc.CodeInvalidParams, resourceNotFoundMessage, map[string]string{"uri": uri})
}

// resourceNotFoundMessage is the message of ResourceNotFound's error.
const resourceNotFoundMessage = "Resource not found"

// codeLegacyResourceNotFound is the resource-not-found code of 2025-11-25
// and earlier (basic/index.mdx: replaced by -32602 in 2026-07-28).
const codeLegacyResourceNotFound = -32002

// methodNotFound is the -32601 for an unknown method.
func methodNotFound(method string) *jsonrpc.Error {
	return &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: fmt.Sprintf("Method not found: %q", method)}
}

// unsupportedVersion is the -32022 UnsupportedProtocolVersionError. Its
// data.supported is SupportedVersions, the list server/discover and the
// HTTP MCP-Protocol-Version check use: a client that retries with any of
// them is served (chooseEra).
func (s *Server) unsupportedVersion(requested string) *jsonrpc.Error {
	return jsonrpc.NewError(mcp.CodeUnsupportedProtocolVersion, "Unsupported protocol version",
		mcp.UnsupportedProtocolVersionErrorErrorData{Supported: s.SupportedVersions(), Requested: requested})
}

// isRemovedMethod reports whether method was removed from the protocol in
// 2026-07-28; sent with a modern _meta (or, on HTTP, with a modern
// MCP-Protocol-Version) it gets -32601 naming the versions the server
// speaks. A switch, not a map: it is asked on every request.
func isRemovedMethod(method string) bool {
	switch method {
	case "initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe":
		return true
	}
	return false
}

func (s *Server) removedMethod(method string) *jsonrpc.Error {
	msg := fmt.Sprintf("Method not found: %q is not part of MCP %s; this server supports protocol versions %s and needs no initialize handshake (send io.modelcontextprotocol/protocolVersion in every request's _meta)",
		method, s.versions[0], strings.Join(s.SupportedVersions(), ", "))
	return jsonrpc.NewError(jsonrpc.CodeMethodNotFound, msg, map[string]any{"supported": s.SupportedVersions()})
}

// toRPCError maps a handler error to the JSON-RPC error sent for it. A
// *jsonrpc.Error is sent as it is unless its Data is not valid JSON in
// UTF-8 (built by hand, not by jsonrpc.NewError): then the handler produced
// an invalid answer, which is -32603 naming the error it returned. A nil
// pointer of an error type returned as a non-nil error (`var e
// *jsonrpc.Error; return out, e`) is -32603 saying so, and an Error method
// that panics does not take the server down (errorText).
func toRPCError(err error) *jsonrpc.Error {
	var re *jsonrpc.Error
	if errors.As(err, &re) {
		switch {
		case re == nil:
			return nilErrorValue()
		case !re.ValidData():
			return invalidErrorData(re)
		}
		return re
	}
	var de *mcp.DecodeError
	if errors.As(err, &de) && de != nil {
		return invalidParams(errorText(de))
	}
	var ni *mcp.NotImplementedError
	if errors.As(err, &ni) && ni != nil {
		return methodNotFound(ni.Method)
	}
	var ire *InputRequiredError
	if errors.As(err, &ire) {
		return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "Internal error: input requests are only allowed on tools/call, prompts/get and resources/read"}
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "Internal error: " + errorText(err)}
}

// walkError visits every error err wraps as errors.As and errors.Is do,
// calling each Unwrap, As and Is method on the way, and matches none. Called
// on what user code returned, inside that code's recovery, it makes an error
// that panics there (a nil pointer of a wrapping error type returned as a
// non-nil error, whose Unwrap dereferences it) panic where the panic is
// answered -32603, not later in the server's own errors.As, outside any
// recovery.
func walkError(err error) {
	var never *unmatchedError
	_ = errors.As(err, &never)
	_ = errors.Is(err, errUnmatched)
}

// unmatchedError is a type no error a handler returns is.
type unmatchedError struct{}

func (*unmatchedError) Error() string { return "unmatched" }

// errUnmatched is a value no error a handler returns is.
var errUnmatched = &unmatchedError{}

// nilErrorValue is the -32603 sent when a handler returned a nil
// *jsonrpc.Error as a non-nil error, the Go mistake of returning a typed
// nil pointer through the error interface.
func nilErrorValue() *jsonrpc.Error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError,
		Message: "Internal error: the handler returned a nil *jsonrpc.Error as a non-nil error"}
}

// errorText is err.Error(), or a description of err when its Error method
// panics (a nil pointer of an error type whose method dereferences it).
func errorText(err error) (text string) {
	defer func() {
		if recover() != nil {
			text = fmt.Sprintf("the handler returned an error (%T) whose Error method panicked", err)
		}
	}()
	return err.Error()
}

// isProtocolError reports whether a tool function's error must be answered
// as a JSON-RPC error instead of an isError result: JSON-RPC errors (such as
// RequireCapabilities' -32021), input requests and cancellation.
func isProtocolError(err error) bool {
	var re *jsonrpc.Error
	var ire *InputRequiredError
	return errors.As(err, &re) || errors.As(err, &ire) || errors.Is(err, context.Canceled)
}

// invalidErrorData is the -32603 sent for a handler's *jsonrpc.Error whose
// Data is not valid JSON in UTF-8; the error's own code and message are
// named, its data is not sent.
func invalidErrorData(re *jsonrpc.Error) *jsonrpc.Error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError,
		Message: fmt.Sprintf("Internal error: the handler's error %d %q has data that is not valid JSON", re.Code, re.Message)}
}
