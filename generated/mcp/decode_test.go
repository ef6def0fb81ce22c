package mcp_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// TestDecodeErrorsNameThePath checks that decoding reports what is wrong and
// where, for the runtime to answer with -32602.
func TestDecodeErrorsNameThePath(t *testing.T) {
	cases := []struct {
		name, typ, in, path, msg string
	}{
		{"wrong jsonrpc const", "CallToolRequest", `{"jsonrpc":"1.0","id":1,"method":"tools/call","params":{"name":"x","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`, "jsonrpc", `must be "2.0"`},
		{"missing params", "CallToolRequest", `{"jsonrpc":"2.0","id":1,"method":"tools/call"}`, "params", "missing required member"},
		{"missing nested name", "CallToolRequest", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`, "params.name", "missing required member"},
		{"wrong type deep", "CallToolResult", `{"resultType":"complete","content":[{"type":"text","text":"a"},{"type":"text","text":5}]}`, "content[1].text", "expected a string"},
		{"unknown discriminator", "ContentBlock", `{"type":"video","data":"x"}`, "type", `unknown value "video"`},
		{"missing discriminator", "ContentBlock", `{"text":"x"}`, "type", "missing required member"},
		{"enum value", "RequestMetaObject", `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"loud"}`, "io.modelcontextprotocol/logLevel", `"loud" is not one of`},
		{"request id type", "CallToolRequest", `{"jsonrpc":"2.0","id":true,"method":"tools/call","params":{}}`, "id", "expected string or integer"},
		{"null required", "TextContent", `{"type":"text","text":null}`, "text", "must not be null"},
		{"not an object", "TextContent", `[1,2]`, "", "expected an object"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := mcp.DecodeNamed(c.typ, []byte(c.in))
			var de *mcp.DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("got %v (%T), want a *mcp.DecodeError", err, err)
			}
			if de.Path != c.path || !strings.Contains(de.Msg, c.msg) {
				t.Fatalf("got path %q msg %q, want path %q and a message containing %q", de.Path, de.Msg, c.path, c.msg)
			}
		})
	}
}

// TestUnmarshalJSONChecksSyntax: called directly (not through
// json.Unmarshal, which checks syntax first), the decoders still refuse
// malformed JSON.
func TestUnmarshalJSONChecksSyntax(t *testing.T) {
	for _, in := range []string{`{"type":"text","text":"a",}`, `{"type":"text" "text":"a"}`, `{"text":"\x"}`, `{"text":"a"`, `{"text":01}`} {
		var c mcp.TextContent
		err := c.UnmarshalJSON([]byte(in))
		var de *mcp.DecodeError
		if !errors.As(err, &de) || !strings.Contains(de.Msg, "invalid JSON") {
			t.Errorf("UnmarshalJSON(%s) = %v, want an invalid JSON DecodeError", in, err)
		}
	}
}

// TestEncodingFillsConstantsAndKeepsExtras checks what users need not set
// and what must not be lost.
func TestEncodingFillsConstantsAndKeepsExtras(t *testing.T) {
	out, err := json.Marshal(&mcp.CallToolResult{ResultType: "complete"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(out), `{"content":[],"resultType":"complete"}`; got != want {
		t.Fatalf("CallToolResult: got %s, want %s (required arrays encode as [] not null)", got, want)
	}
	out, err = json.Marshal(&mcp.TextContent{Text: "hi"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(out), `{"type":"text","text":"hi"}`; got != want {
		t.Fatalf("TextContent: got %s, want %s", got, want)
	}
	var meta mcp.RequestMetaObject
	in := `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{}},"com.example/trace":{"id":7}}`
	if err := json.Unmarshal([]byte(in), &meta); err != nil {
		t.Fatal(err)
	}
	if meta.ProtocolVersion != "2026-07-28" || meta.ClientCapabilities.Roots == nil {
		t.Fatalf("typed reserved keys not decoded: %+v", meta)
	}
	if raw, ok := meta.Get("com.example/trace"); !ok || string(raw) != `{"id":7}` {
		t.Fatalf("other key not kept as it came: %s %v", raw, ok)
	}
	if err := meta.Set("io.modelcontextprotocol/custom", 1); err == nil {
		t.Fatal("Set accepted a key with a reserved prefix")
	}
	if err := meta.Set("com.example/-bad", 1); err == nil {
		t.Fatal("Set accepted a key whose name starts with '-'")
	}
	if err := meta.Set("com.example/ok", 1); err != nil {
		t.Fatal(err)
	}
}

func TestValidateMetaKey(t *testing.T) {
	for key, ok := range map[string]bool{
		"io.modelcontextprotocol/clientInfo": true, "com.example/x": true, "plain": true, "": true,
		"a.b-c/d_e.f": true, "com.example/": true, "1com/x": false, "com-/x": false, "com..x/y": false,
		"/x": false, "a/b/c": false, "com.example/x-": false, "com.example/x y": false,
	} {
		if err := mcp.ValidateMetaKey(key); (err == nil) != ok {
			t.Errorf("ValidateMetaKey(%q) = %v, want ok=%v", key, err, ok)
		}
	}
	for key, reserved := range map[string]bool{
		"io.modelcontextprotocol/x": true, "dev.mcp/x": true, "org.modelcontextprotocol.api/x": true,
		"com.mcp.tools/x": true, "com.example.mcp/x": false, "mcp/x": false, "x": false,
	} {
		if got := mcp.IsReservedMetaKey(key); got != reserved {
			t.Errorf("IsReservedMetaKey(%q) = %v, want %v", key, got, reserved)
		}
	}
}

// TestEmptyCursorIsKept: "" is a valid cursor (pagination.mdx) and must not
// read as "no more results", nor vanish when the result is encoded again.
func TestEmptyCursorIsKept(t *testing.T) {
	var r mcp.ListToolsResult
	if err := json.Unmarshal([]byte(`{"resultType":"complete","tools":[],"ttlMs":0,"cacheScope":"public","nextCursor":""}`), &r); err != nil {
		t.Fatal(err)
	}
	if r.NextCursor == nil || *r.NextCursor != "" {
		t.Fatalf("nextCursor \"\" decoded as %v, want a pointer to \"\"", r.NextCursor)
	}
	out, err := json.Marshal(&r)
	if err != nil || !strings.Contains(string(out), `"nextCursor":""`) {
		t.Fatalf("re-encoded %s (%v): the empty cursor was dropped", out, err)
	}
	r.NextCursor = nil
	if out, _ := json.Marshal(&r); strings.Contains(string(out), "nextCursor") {
		t.Fatalf("absent cursor encoded: %s", out)
	}
}

// TestDecodeErrorNamesTheArrayIndex: a bad element of an array (or map) is
// named by its index (or key), as DecodeError's doc promises
// ("params.content[2].type"): in a tools/list result whose second tool
// lacks its name, "tools[1].name". Such arrays were once decoded with
// encoding/json (plain[[]Tool]), which reported "tools.name".
func TestDecodeErrorNamesTheArrayIndex(t *testing.T) {
	cases := map[string]struct{ name, msg, path string }{
		"array of objects": {"ListToolsResult",
			`{"cacheScope":"public","ttlMs":0,"tools":[{"name":"a","inputSchema":{"type":"object"}},{"inputSchema":{"type":"object"}}]}`, "tools[1].name"},
		"array of objects, wrong type": {"ListToolsResult",
			`{"cacheScope":"public","ttlMs":0,"tools":[{"name":"a","inputSchema":{"type":"object"}},{"name":5,"inputSchema":{"type":"object"}}]}`, "tools[1].name"},
		"array of strings": {"CreateMessageRequestParams",
			`{"messages":[],"maxTokens":10,"stopSequences":["a","b",3]}`, "stopSequences[2]"},
		"map of objects": {"ClientCapabilities", `{"experimental":{"a":{},"x":5}}`, "experimental.x"},
	}
	for label, c := range cases {
		t.Run(label, func(t *testing.T) {
			_, err := mcp.DecodeNamed(c.name, []byte(c.msg))
			var de *mcp.DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("err = %v, want a DecodeError", err)
			}
			if de.Path != c.path {
				t.Errorf("path %q (%v), want %q", de.Path, err, c.path)
			}
		})
	}
}

// generator/doc.go: "format byte: []byte (base64 on the wire)"; the schema
// types data and blob as strings ("type": "string", "format": "byte"). A
// JSON array of numbers, which encoding/json would read into a []byte, is
// refused: one message, one reading.
func TestByteFieldRefusesArray(t *testing.T) {
	cases := []struct{ def, in string }{
		{"ImageContent", `{"type":"image","data":[104,105],"mimeType":"image/png"}`},
		{"AudioContent", `{"type":"audio","data":[],"mimeType":"audio/wav"}`},
		{"BlobResourceContents", `{"uri":"file:///b","blob":[0,255]}`},
		{"ReadResourceResult", `{"contents":[{"uri":"file:///b","blob":[1,2,3]}],"resultType":"complete"}`},
	}
	for _, c := range cases {
		v, err := mcp.DecodeNamed(c.def, []byte(c.in))
		if err == nil {
			out, _ := json.Marshal(v)
			t.Errorf("%s accepted %s (a byte member that is an array, not a base64 string); encodes as %s", c.def, c.in, out)
		}
	}
	v, err := mcp.DecodeNamed("ImageContent", []byte(`{"type":"image","data":"aGk=","mimeType":"image/png"}`))
	if err != nil || string(v.(*mcp.ImageContent).Data) != "hi" {
		t.Errorf("a base64 string: %+v, %v", v, err)
	}
}

// The schema gives LoggingMessageNotificationParams.data no type ("Any
// JSON serializable value is allowed here"; schema.ts: data: unknown):
// null is one of its values, so a notifications/message with "data":null
// is accepted (and must still be present).
func TestLogDataNullAccepted(t *testing.T) {
	for _, c := range []struct{ def, in string }{
		{"LoggingMessageNotificationParams", `{"level":"info","data":null}`},
		{"LoggingMessageNotification", `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"error","data":null}}`},
	} {
		if _, err := mcp.DecodeNamed(c.def, []byte(c.in)); err != nil {
			t.Errorf("%s refused %s, which the schema accepts: %v", c.def, c.in, err)
		}
	}
	if _, err := mcp.DecodeNamed("LoggingMessageNotificationParams", []byte(`{"level":"info"}`)); err == nil {
		t.Error("a log message without data was accepted")
	}
}

// split refuses a member named twice ("one message, one reading"), and so
// do the members decoded with encoding/json (structuredContent, capability
// maps, elicitation content, any JSON value), raw members (arguments) and
// kept undeclared members, at any depth: encoding/json would read the last
// occurrence, another reader the first.
func TestNestedDuplicateMemberRefused(t *testing.T) {
	cases := []struct{ def, in string }{
		{"CallToolResult", `{"content":[],"structuredContent":{"ok":false,"ok":true}}`},
		{"CallToolResult", `{"content":[],"structuredContent":{"a":[{"b":{"ok":1,"ok":2}}]}}`},
		{"ClientCapabilities", `{"experimental":{"a":{},"a":{"x":1}}}`},
		{"ClientCapabilities", `{"extensions":{"io.example/x":{"k":1,"k":2}}}`},
		{"ElicitResult", `{"action":"accept","content":{"email":"a@example.com","email":"b@example.com"}}`},
		{"CallToolRequestParams", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"t","arguments":{"q":"a","q":"b"}}`},
		{"CallToolResult", `{"content":[],"x-kept":{"k":1,"\u006b":2}}`},
		{"CallToolResult", `{"content":[],"_meta":{"io.example/k":{"a":1,"a":2}}}`},
	}
	for _, c := range cases {
		if v, err := mcp.DecodeNamed(c.def, []byte(c.in)); err == nil {
			out, _ := json.Marshal(v)
			t.Errorf("%s accepted a repeated member: %s\n  read as %s", c.def, c.in, out)
		} else if !strings.Contains(err.Error(), "duplicate member") {
			t.Errorf("%s %s: %v, want a duplicate member error", c.def, c.in, err)
		}
	}
	// The same names in sibling objects are not repeated members.
	in := `{"content":[],"structuredContent":{"a":{"k":1},"b":{"k":2},"c":[{"k":1},{"k":2}]}}`
	if _, err := mcp.DecodeNamed("CallToolResult", []byte(in)); err != nil {
		t.Errorf("%s: %v", in, err)
	}
}
