package server

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/internal/jsonscan"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

const attackMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

// attackCheckResponse holds one response to what the spec requires of every
// message (basic/transports/index.mdx: "JSON-RPC messages MUST be UTF-8
// encoded"; stdio.mdx: no embedded newlines, nothing on stdout "that is
// not a valid MCP message") and to what the product's own readers accept:
// jsonrpc.Decode, the jsonscan parse (a name repeated at any depth is
// refused, as the Go client refuses "results with a repeated member"), and
// the generated decoder of the result's definition. An error response is
// fine: the runtime answers encoding failures with -32603.
func attackCheckResponse(t *testing.T, body []byte, resultDef string) {
	t.Helper()
	switch {
	case !utf8.Valid(body):
		t.Errorf("response is not UTF-8: %q", body)
		return
	case !json.Valid(body):
		t.Errorf("response is not JSON: %q", body)
		return
	case bytes.ContainsAny(body, "\r\n"):
		t.Errorf("response holds a newline: %q", body)
		return
	}
	msg, err := jsonrpc.Decode(body)
	if err != nil {
		t.Errorf("jsonrpc.Decode refuses the response: %v\n%s", err, body)
		return
	}
	if _, serr := jsonscan.ParseTape(body, 10000); serr != nil {
		t.Errorf("the runtime's parser refuses the response: %v\n%s", serr, body)
		return
	}
	if msg.Kind == jsonrpc.KindResponse && resultDef != "" {
		if _, err := mcp.DecodeNamed(resultDef, msg.Result); err != nil {
			t.Errorf("the result is not a valid %s (generated decoder: %v)\n%s", resultDef, err, body)
		}
	}
}

func attackServer(t *testing.T, opts Options) *Server {
	t.Helper()
	opts.Name, opts.Version = "t", "1"
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func attackCallTool(s *Server, name string) []byte {
	msg := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + attackMeta + `,"name":"` + name + `","arguments":{}}}`
	return s.HandleBytes(context.Background(), []byte(msg), nil).Body
}

// A structuredContent holding invalid UTF-8 inside a json.RawMessage
// string is appended byte for byte (appendCompact and internal/jsonenc
// check only json.Valid, which does not check UTF-8; nor does the
// outputSchema check): the response is not UTF-8 ("JSON-RPC messages MUST
// be UTF-8 encoded"), and the runtime's own jsonrpc.Decode refuses it
// (-32700 "message is not valid UTF-8"), so the Go client cannot read the
// answer. In the typed-Out case the text block even says "Z\ufffdrich"
// while structuredContent keeps the raw byte.
func TestAttackToolResultRawStructuredInvalidUTF8(t *testing.T) {
	s := attackServer(t, Options{Tools: []Tool{
		NewTool(ToolInfo{Name: "raw"}, func(context.Context, struct{}) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{}, StructuredContent: json.RawMessage("{\"city\":\"Z\xfcrich\"}")}, nil
		}),
		NewTool(ToolInfo{Name: "typed", OutputSchema: json.RawMessage(`{"type":"object"}`)}, func(context.Context, struct{}) (attackRawOut, error) {
			return attackRawOut{City: json.RawMessage("\"Z\xfcrich\"")}, nil
		}),
	}})
	for _, name := range []string{"raw", "typed"} {
		t.Run(name, func(t *testing.T) { attackCheckResponse(t, attackCallTool(s, name), "CallToolResult") })
	}
}

// attackRawOut is a tool result type with a raw JSON field.
type attackRawOut struct {
	City json.RawMessage `json:"city"`
}

// jsonrpc.Error: "handlers can return it directly; the runtime sends it
// back unchanged". A Data that is not JSON is written verbatim
// (appendRaw: Compact fails, the raw bytes are appended), newline
// included: on stdio the server writes a line that is not a message and
// then a second fragment, breaking the framing (stdio.mdx: messages "MUST
// NOT contain embedded newlines"; "The server MUST NOT write anything to
// its stdout that is not a valid MCP message"). NewError validates its
// data; the runtime does not check what a handler built by hand.
func TestAttackHandlerErrorDataNotJSONOnStdio(t *testing.T) {
	s := attackServer(t, Options{Tools: []Tool{
		NewTool(ToolInfo{Name: "errdata"}, func(context.Context, struct{}) (string, error) {
			return "", &jsonrpc.Error{Code: -32000, Message: "failed", Data: json.RawMessage("{\"detail\":\n")}
		}),
	}})
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + attackMeta + `,"name":"errdata","arguments":{}}}` + "\n")
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.ServeStdio(ctx, in, &out); err != nil && err != io.EOF {
		t.Logf("ServeStdio: %v", err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 1 {
		t.Errorf("one request, %d output lines (want 1 message): %q", len(lines), out.String())
	}
	for _, line := range lines {
		if !json.Valid([]byte(line)) {
			t.Errorf("stdout line is not a JSON-RPC message: %q", line)
		}
	}
}
