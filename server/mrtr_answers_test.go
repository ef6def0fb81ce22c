package server

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// The answers in inputResponses: read once (a repeated key is -32602),
// each decoded as the result of the request its key asked for, on the
// registry path and the Options.Handlers path alike.

// TestInputResponsesRepeatedKeyRefused: README "How a request flows": "a
// repeated member is -32600 in the envelope and -32602 in params or
// _meta"; tasks/update already refuses the same inputResponses with
// -32602 `params.inputResponses: duplicate member "first"`, and a repeated
// member inside one answer is -32602 too. So is a repeated key of
// inputResponses in tools/call: were the last one to win, a reader that
// keeps the first (a proxy, an audit log) would see "accept" where the tool
// saw "decline".
func TestInputResponsesRepeatedKeyRefused(t *testing.T) {
	s := mrtrInputServer(t)
	r, _ := rpcMeta(t, s, "tools/call", `{"name":"elicit","inputResponses":{"e":{"action":"accept","content":{"name":"a"}},"e":{"action":"decline"}}}`, fullCapsMeta, nil)
	if r.Error == nil {
		text, _ := callText(t, r)
		t.Fatalf("repeated inputResponses key accepted, the tool saw %q; want -32602", text)
	}
	if r.Error.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("error %d %q; want -32602", r.Error.Code, r.Error.Message)
	}
}

// TestElicitAnswerContentValuesTyped: mrtr.mdx "Servers SHOULD
// validate that the data provided by the client is a valid InputResponses
// object ... Protocol errors (malformed JSON, invalid schema ...) SHOULD
// return a JSON-RPC error"; schema.json ElicitResult.content: values are
// string, integer, boolean or an array of strings. A content whose values
// are objects or arrays of numbers is -32602, as every other malformed
// member of an answer (a role, a root's uri, a content block type) is.
func TestElicitAnswerContentValuesTyped(t *testing.T) {
	s := mrtrInputServer(t)
	for _, answer := range []string{
		`{"action":"accept","content":{"name":{"nested":{"object":1}}}}`,
		`{"action":"accept","content":{"name":[1,2,3]}}`,
	} {
		r, _ := rpcMeta(t, s, "tools/call", `{"name":"elicit","inputResponses":{"e":`+answer+`}}`, fullCapsMeta, nil)
		if r.Error == nil {
			t.Errorf("ElicitResult %s (not valid for the schema) handed to the tool: %s; want -32602", answer, r.Result)
		} else if r.Error.Code != jsonrpc.CodeInvalidParams {
			t.Errorf("ElicitResult %s: %d %q; want -32602", answer, r.Error.Code, r.Error.Message)
		}
	}
}

// TestElicitAnswerContentMustBeAnObject: content must be an object
// (schema.json ElicitResult.content "type": "object"); a content of [] is
// refused with a message saying so (it used to say "content: expected an
// integer, got array").
func TestElicitAnswerContentMustBeAnObject(t *testing.T) {
	s := mrtrInputServer(t)
	r, _ := rpcMeta(t, s, "tools/call", `{"name":"elicit","inputResponses":{"e":{"action":"accept","content":[]}}}`, fullCapsMeta, nil)
	if r.Error == nil || strings.Contains(r.Error.Message, "integer") || !strings.Contains(r.Error.Message, "object") {
		t.Errorf("content [] answered %v; want -32602 saying content must be an object", r.Error)
	}
}

// TestElicitAnswerExtraMemberIgnored: schema.json ElicitResult has no
// "additionalProperties": false, so {"action":"decline","roots":[]} is a
// valid ElicitResult (mrtr.mdx: servers SHOULD ignore information they do
// not recognize). Ask, which knows it asked an elicitation, decodes it as
// an ElicitResult and does not guess its kind from its shape (which took it
// for a ListRootsResult); tasks/update, which knows the pending kind, too.
func TestElicitAnswerExtraMemberIgnored(t *testing.T) {
	s := mrtrInputServer(t)
	r, _ := rpcMeta(t, s, "tools/call", `{"name":"elicit","inputResponses":{"e":{"action":"decline","roots":[]}}}`, fullCapsMeta, nil)
	if r.Error != nil {
		t.Fatalf("valid ElicitResult with an extra member refused: %d %q", r.Error.Code, r.Error.Message)
	}
	if text, _ := callText(t, r); text != "decline" {
		t.Errorf("tool saw %q, want decline", text)
	}
}

// TestHandlersIgnoreUnknownInputResponses: mrtr.mdx "If additional,
// unexpected parameters are provided in the InputResponses object, the
// server SHOULD ignore any information it does not recognize or need";
// the registry path does (TestMRTRBasic: `"another_unexpected":{"foo":"bar"},
// "n":7` beside the answer are ignored), and so does a tools/call of
// Options.Handlers (it refused the whole request with -32602
// "params.inputResponses.n: matches no member of InputResponse"). The
// answer carries the content the tool's requestedSchema requires.
func TestHandlersIgnoreUnknownInputResponses(t *testing.T) {
	s, err := New(Options{Name: "x", Version: "1", Handlers: []any{askingToolsHandler{}}})
	if err != nil {
		t.Fatal(err)
	}
	r, _ := rpcMeta(t, s, "tools/call", `{"name":"t","inputResponses":{"e":{"action":"accept","content":{"name":"a"}},"another_unexpected":{"foo":"bar"},"n":7}}`, fullCapsMeta, nil)
	if r.Error != nil {
		t.Fatalf("unrecognised inputResponses entries beside the answer: %d %q; want them ignored (as the registry path does)", r.Error.Code, r.Error.Message)
	}
	if text, _ := callText(t, r); text != "accept" {
		t.Errorf("handler saw %q", text)
	}
}

// TestHandlersInputResponsesRepeatedKeyRefused: as
// TestInputResponsesRepeatedKeyRefused, for a tools/call of Options.Handlers.
func TestHandlersInputResponsesRepeatedKeyRefused(t *testing.T) {
	s, err := New(Options{Name: "x", Version: "1", Handlers: []any{askingToolsHandler{}}})
	if err != nil {
		t.Fatal(err)
	}
	r, _ := rpcMeta(t, s, "tools/call", `{"name":"t","inputResponses":{"e":{"action":"accept"},"e":{"action":"decline"}}}`, fullCapsMeta, nil)
	if r.Error == nil {
		text, _ := callText(t, r)
		t.Fatalf("repeated inputResponses key accepted, the handler saw %q; want -32602", text)
	}
	wantError(t, r, jsonrpc.CodeInvalidParams)
}

// askingToolsHandler is a user tools/call handler (Options.Handlers) that
// asks for a name and answers with the action the client gave.
type askingToolsHandler struct{ mcp.UnimplementedToolsHandler }

func (askingToolsHandler) CallTool(ctx context.Context, _ *mcp.CallToolRequestParams) (mcp.CallToolOutcome, error) {
	r, err := Ask(ctx, "e", elicitName("Name?"))
	if err != nil {
		return nil, err
	}
	return &mcp.CallToolResult{Content: []mcp.ContentBlock{&mcp.TextContent{Text: string(r.(*mcp.ElicitResult).Action)}}}, nil
}

// TestElicitAnswerMatchesRequestedSchema: client/elicitation.mdx "Servers
// SHOULD validate received data matches the requested schema". An accepted
// form answer whose content does not match the requestedSchema the tool
// asked with (name must be a string and is required) is -32602 naming the
// member; a decline carries no content and is not checked against it.
func TestElicitAnswerMatchesRequestedSchema(t *testing.T) {
	s := mrtrInputServer(t)
	for _, answer := range []string{
		`{"action":"accept","content":{"name":5}}`,
		`{"action":"accept","content":{}}`,
		`{"action":"accept"}`,
	} {
		r, _ := rpcMeta(t, s, "tools/call", `{"name":"elicit","inputResponses":{"e":`+answer+`}}`, fullCapsMeta, nil)
		if r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidParams || !strings.Contains(r.Error.Message, "content/name") {
			t.Errorf("answer %s: %v %s; want -32602 naming content/name", answer, r.Error, r.Result)
		}
	}
	r, _ := rpcMeta(t, s, "tools/call", `{"name":"elicit","inputResponses":{"e":{"action":"decline"}}}`, fullCapsMeta, nil)
	if text, _ := callText(t, r); r.Error != nil || text != "decline" {
		t.Errorf("decline: %v %q", r.Error, text)
	}
}

// TestHandlersSeeTheAnswersThatDecode: an Options.Handlers handler that
// reads params.InputResponses itself finds the answers that decode as an
// input response, without the entries that do not.
func TestHandlersSeeTheAnswersThatDecode(t *testing.T) {
	var seen mcp.InputResponses
	s, err := New(Options{Name: "x", Version: "1", Handlers: []any{paramsToolsHandler{&seen}}})
	if err != nil {
		t.Fatal(err)
	}
	r, _ := rpcMeta(t, s, "tools/call", `{"name":"t","inputResponses":{"e":{"action":"decline"},"n":7}}`, fullCapsMeta, nil)
	if r.Error != nil {
		t.Fatalf("%d %q", r.Error.Code, r.Error.Message)
	}
	if e, ok := seen["e"].(*mcp.ElicitResult); len(seen) != 1 || !ok || e.Action != "decline" {
		t.Errorf("handler saw %#v; want only e, the decline", seen)
	}
}

// paramsToolsHandler records the InputResponses of its tools/call params.
type paramsToolsHandler struct{ seen *mcp.InputResponses }

func (h paramsToolsHandler) ListTools(context.Context, *mcp.PaginatedRequestParams) (*mcp.ListToolsResult, error) {
	return &mcp.ListToolsResult{}, nil
}

func (h paramsToolsHandler) CallTool(_ context.Context, p *mcp.CallToolRequestParams) (mcp.CallToolOutcome, error) {
	*h.seen = p.InputResponses
	return &mcp.CallToolResult{Content: []mcp.ContentBlock{&mcp.TextContent{Text: "ok"}}}, nil
}
