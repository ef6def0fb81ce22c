package server

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Legacy sessions serve their revision: every message the server sends a
// legacy client is validated against that revision's schema.json
// (<MCPGEN_SPEC_DIR>/schema/<rev>/schema.json).

var lcSchemas struct {
	mu sync.Mutex
	m  map[string]*jsonschema.Schema
}

// lcSchema compiles definition def of revision rev's schema.json.
func lcSchema(t *testing.T, rev, def string) *jsonschema.Schema {
	t.Helper()
	dir := os.Getenv("MCPGEN_SPEC_DIR")
	if dir == "" {
		dir = "/work/shared/mcp-spec"
	}
	path := filepath.Join(dir, "schema", rev, "schema.json")
	lcSchemas.mu.Lock()
	defer lcSchemas.mu.Unlock()
	if lcSchemas.m == nil {
		lcSchemas.m = map[string]*jsonschema.Schema{}
	}
	key := rev + "#" + def
	if s := lcSchemas.m[key]; s != nil {
		return s
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("no schema for %s: %v", rev, err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	defs := "definitions"
	if m, ok := doc.(map[string]any); ok {
		if _, ok := m["$defs"]; ok {
			defs = "$defs"
		}
	}
	c := jsonschema.NewCompiler()
	url := "urn:mcp:" + rev
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(url + "#/" + defs + "/" + def)
	if err != nil {
		t.Fatalf("compile %s %s: %v", rev, def, err)
	}
	lcSchemas.m[key] = s
	return s
}

// lcValid reports why msg does not validate against rev's definition def
// ("" when it does).
func lcValid(t *testing.T, rev, def string, msg any) string {
	t.Helper()
	b, err := json.Marshal(msg)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if err := lcSchema(t, rev, def).Validate(doc); err != nil {
		return err.Error()
	}
	return ""
}

// lcPeer opens a legacy stdio session at rev with client capabilities caps.
func lcPeer(t *testing.T, s *Server, rev, caps string) *lgPeer {
	t.Helper()
	p := startLegacyStdio(t, s)
	init := p.initialize(rev, caps)
	if init["protocolVersion"] != rev {
		t.Fatalf("negotiated %v, want %s", init["protocolVersion"], rev)
	}
	return p
}

// lcHTTP opens a legacy Streamable HTTP session at rev.
func lcHTTP(t *testing.T, s *Server, rev, caps string) (post func(body string) (map[string]any, string)) {
	t.Helper()
	srv := httptest.NewServer(s.HTTPHandler(HTTPOptions{}))
	t.Cleanup(srv.Close)
	sid := ""
	post = func(body string) (map[string]any, string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if sid != "" {
			req.Header.Set("Mcp-Session-Id", sid)
			req.Header.Set("MCP-Protocol-Version", rev)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if sid == "" {
			sid = resp.Header.Get("Mcp-Session-Id")
		}
		if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
			ev := newLgSSE(resp.Body)
			for {
				m, raw := ev.next(t)
				if m["id"] != nil && m["method"] == nil {
					return m, raw
				}
			}
		}
		b, _ := io.ReadAll(resp.Body)
		if len(b) == 0 {
			return nil, ""
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("HTTP %d body %q", resp.StatusCode, b)
		}
		return m, string(b)
	}
	m, raw := post(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"` + rev + `","capabilities":` + caps + `,"clientInfo":{"name":"c","version":"1"}}}`)
	if res, _ := m["result"].(map[string]any); res["protocolVersion"] != rev {
		t.Fatalf("initialize: %s", raw)
	}
	post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return post
}

// TestLegacyNonObjectOutputSchemaFitsRevision: 2026-07-28 lets an outputSchema be
// any schema (CHANGES: "outputSchema: the type:"object" constraint is
// gone"), but 2025-06-18 and 2025-11-25 define Tool.outputSchema with
// "type": {"const": "object"} (required). A legacy session at those
// revisions forwards the tool definition unchanged, so its tools/list does
// not validate against the revision's ListToolsResult, and a client of that
// revision (which checks results against the revision's schema) rejects the
// whole list. The same tool's tools/call then has its non-object
// structuredContent dropped, so the tool declares an outputSchema and
// returns no structured result ("If an output schema is provided: Servers
// MUST provide structured results that conform to this schema", tools.mdx).
// versioning.mdx, Backward Compatibility: a dual-era server "serves the
// client according to the negotiated legacy revision".
func TestLegacyNonObjectOutputSchemaFitsRevision(t *testing.T) {
	arrayOut := NewTool(ToolInfo{Name: "array_out", Description: "Array output",
		OutputSchema: json.RawMessage(`{"type":"array","items":{"type":"string"}}`)},
		func(ctx context.Context, in noArgs) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{&mcp.TextContent{Text: `["a"]`}}, StructuredContent: []any{"a"}}, nil
		})
	for _, rev := range []string{"2025-06-18", "2025-11-25"} {
		for _, transport := range []string{"stdio", "http"} {
			t.Run(rev+"/"+transport, func(t *testing.T) {
				f := newFixture(t, func(o *Options) { o.Tools = []Tool{arrayOut} })
				var list, call map[string]any
				if transport == "stdio" {
					p := lcPeer(t, f.s, rev, `{}`)
					list, _ = p.response0(t, "1", "tools/list", "")
					call, _ = p.response0(t, "2", "tools/call", `{"name":"array_out"}`)
				} else {
					post := lcHTTP(t, f.s, rev, `{}`)
					list, _ = post(lgBody("1", "tools/list", ""))
					call, _ = post(lgBody("2", "tools/call", `{"name":"array_out"}`))
				}
				if why := lcValid(t, rev, "ListToolsResult", resultOf(t, list)); why != "" {
					t.Errorf("tools/list at %s does not validate against its ListToolsResult: %s\n%v", rev, why, list)
				}
				tool := resultOf(t, list)["tools"].([]any)[0].(map[string]any)
				res := resultOf(t, call)
				if _, declared := tool["outputSchema"]; declared && res["structuredContent"] == nil {
					t.Errorf("at %s the tool declares outputSchema %v but tools/call returns no structuredContent: %v", rev, tool["outputSchema"], res)
				}
			})
		}
	}
}

// TestLegacyToolsListSendsBooleanSubschemasAsObjects: the schemas the
// runtime derives for a field of type any are the boolean schema true
// ({"x": true} under properties), valid in 2026-07-28 (inputSchema/
// outputSchema properties "no longer typed") but not in any legacy
// revision, whose Tool.inputSchema (and, from 2025-06-18, outputSchema)
// types every properties member as an object. A legacy session sends {},
// the object form of the same schema, so tools/list validates against
// ListToolsResult in every legacy revision (versioning.mdx: "serves the
// client according to the negotiated legacy revision").
func TestLegacyToolsListSendsBooleanSubschemasAsObjects(t *testing.T) {
	type anyIn struct {
		X any `json:"x"`
	}
	type anyOut struct {
		Y any `json:"y"`
	}
	tool := NewTool(ToolInfo{Name: "anything", Description: "Takes any value"}, func(ctx context.Context, in anyIn) (anyOut, error) {
		return anyOut{Y: in.X}, nil
	})
	for _, rev := range []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"} {
		t.Run(rev, func(t *testing.T) {
			f := newFixture(t, func(o *Options) { o.Tools = []Tool{tool} })
			p := lcPeer(t, f.s, rev, `{}`)
			m, line := p.response0(t, "1", "tools/list", "")
			if why := lcValid(t, rev, "ListToolsResult", resultOf(t, m)); why != "" {
				t.Errorf("tools/list at %s does not validate against its ListToolsResult: %s\n%s", rev, why, line)
			}
		})
	}
}

// lcServerRequest calls tool in a legacy stdio session and returns the
// first server-to-client request it sends (answered with result).
func lcServerRequest(t *testing.T, p *lgPeer, tool, result string) (map[string]any, string) {
	t.Helper()
	p.call("1", "tools/call", `{"name":"`+tool+`"}`)
	for {
		line := p.nextRaw()
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("not JSON: %s", line)
		}
		switch {
		case m["method"] != nil && m["id"] != nil:
			p.send(`{"jsonrpc":"2.0","id":` + idOf(m) + `,"result":` + result + `}`)
			p.response("1")
			return m, line
		case m["method"] == nil:
			t.Fatalf("%s answered without a server request: %s", tool, line)
		}
	}
}

// TestLegacySamplingContentFitsRevision: server.Ask's
// sampling/createMessage becomes a real request in a legacy session
// (README, Compatibility) whose messages' content follows the revision:
// no audio content for a 2024-11-05 client (SamplingMessage.content there
// is TextContent | ImageContent), and no array of content blocks
// (2025-11-25's SamplingMessage) for 2024-11-05, 2025-03-26 and 2025-06-18
// clients, whose SamplingMessage.content is a single block. The request
// validates against the revision's CreateMessageRequest. README: "content
// a revision lacks is converted"; versioning.mdx: "serves the client
// according to the negotiated legacy revision".
func TestLegacySamplingContentFitsRevision(t *testing.T) {
	audio := NewTool(ToolInfo{Name: "ask_audio", Description: "Sampling with audio"}, func(ctx context.Context, in noArgs) (string, error) {
		_, err := Ask(ctx, "s", &mcp.CreateMessageRequest{Params: mcp.CreateMessageRequestParams{MaxTokens: 5,
			Messages: []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: &mcp.AudioContent{Data: []byte("wav"), MIMEType: "audio/wav"}}}}})
		return "ok", err
	})
	blocks := NewTool(ToolInfo{Name: "ask_blocks", Description: "Sampling with a block array"}, func(ctx context.Context, in noArgs) (string, error) {
		_, err := Ask(ctx, "s", &mcp.CreateMessageRequest{Params: mcp.CreateMessageRequestParams{MaxTokens: 5,
			Messages: []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.SamplingMessageContentBlocks{&mcp.TextContent{Text: "hi"}}}}}})
		return "ok", err
	})
	for _, tc := range []struct{ rev, tool string }{
		{"2024-11-05", "ask_audio"},
		{"2024-11-05", "ask_blocks"},
		{"2025-03-26", "ask_blocks"},
		{"2025-06-18", "ask_blocks"},
	} {
		t.Run(tc.rev+"/"+tc.tool, func(t *testing.T) {
			f := newFixture(t, func(o *Options) { o.Tools = []Tool{audio, blocks} })
			p := lcPeer(t, f.s, tc.rev, `{"sampling":{}}`)
			req, line := lcServerRequest(t, p, tc.tool, `{"role":"assistant","content":{"type":"text","text":"x"},"model":"m"}`)
			if why := lcValid(t, tc.rev, "CreateMessageRequest", req); why != "" {
				t.Errorf("sampling request at %s does not validate against its CreateMessageRequest: %s\n%s", tc.rev, why, line)
			}
		})
	}
}

// TestLegacyElicitMultiSelectIsRefusedAt20250618: a form elicitation with
// a multi-select enum (UntitledMultiSelectEnumSchema, new in 2025-11-25)
// cannot go to a 2025-06-18 client, whose PrimitiveSchemaDefinition has no
// array type (README: "server.Ask becomes a real elicitation/create …
// request", "content a revision lacks is converted"; versioning.mdx:
// "serves the client according to the negotiated legacy revision"). The
// server refuses it as it refuses elicitation before 2025-06-18 (a request
// it sends must validate against 2025-06-18's ElicitRequest).
func TestLegacyElicitMultiSelectIsRefusedAt20250618(t *testing.T) {
	multi := NewTool(ToolInfo{Name: "ask_multi", Description: "Multi-select elicitation"}, func(ctx context.Context, in noArgs) (string, error) {
		_, err := Ask(ctx, "m", &mcp.ElicitRequest{Params: &mcp.ElicitRequestFormParams{Message: "pick",
			RequestedSchema: mcp.ElicitRequestFormParamsRequestedSchema{Properties: map[string]mcp.PrimitiveSchemaDefinition{
				"c": &mcp.UntitledMultiSelectEnumSchema{Items: mcp.UntitledMultiSelectEnumSchemaItems{Enum: []string{"a", "b"}}}}}}})
		return "ok", err
	})
	f := newFixture(t, func(o *Options) { o.Tools = []Tool{multi} })
	p := lcPeer(t, f.s, "2025-06-18", `{"elicitation":{}}`)
	p.call("1", "tools/call", `{"name":"ask_multi"}`)
	line := p.nextRaw()
	var m map[string]any
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatal(err)
	}
	if m["method"] == nil {
		return // refused: nothing the client cannot read was sent
	}
	p.send(`{"jsonrpc":"2.0","id":` + idOf(m) + `,"result":{"action":"decline"}}`)
	p.response("1")
	if why := lcValid(t, "2025-06-18", "ElicitRequest", m); why != "" {
		t.Errorf("elicitation request at 2025-06-18 does not validate against its ElicitRequest: %s\n%s", why, line)
	}
}

// TestLegacyResourceNotFoundIsMinus32002: resources/read of an unknown URI
// answers -32602 in 2026-07-28, and -32002, the code of the legacy
// revisions, in every legacy session: basic/index.mdx lists "-32002 —
// resource not found (2025-11-25 and earlier; replaced by -32602)", and
// resources.mdx has clients accept it "from servers implementing earlier
// versions"; versioning.mdx: a dual-era server "serves the client according
// to the negotiated legacy revision".
func TestLegacyResourceNotFoundIsMinus32002(t *testing.T) {
	for _, rev := range []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"} {
		t.Run(rev, func(t *testing.T) {
			f := newFixture(t)
			p := lcPeer(t, f.s, rev, `{}`)
			m, line := p.response0(t, "1", "resources/read", `{"uri":"test://missing"}`)
			e, _ := m["error"].(map[string]any)
			if e == nil || e["code"] != float64(-32002) {
				t.Errorf("resources/read of a missing resource at %s: %s, want error -32002", rev, line)
			}
			if data, _ := e["data"].(map[string]any); data["uri"] != "test://missing" {
				t.Errorf("resources/read of a missing resource at %s: %s, want data.uri", rev, line)
			}
		})
	}
	r := rpc(t, newFixture(t).s, "resources/read", `{"uri":"test://missing"}`)
	if r.Error == nil || r.Error.Code != -32602 || string(r.Error.Data) != `{"uri":"test://missing"}` {
		t.Errorf("2026-07-28 resources/read of a missing resource: %+v, want -32602 with data.uri", r.Error)
	}
}

// TestLegacySamplingToolsNeedTheCapability: client/sampling.mdx:
// "Servers MUST NOT send tool-enabled sampling requests to Clients that
// have not declared support for tool use via the sampling.tools
// capability." In a legacy session server.Ask sends the
// sampling/createMessage request itself (README, Compatibility), and it
// sends one carrying tools to a client that declared only "sampling": {}
// (a 2025-11-25 client that chose not to declare tools, and a 2025-06-18
// client, whose revision has no tool use at all). It should fail as other
// missing capabilities do (-32021, RequireCapabilities) and send nothing.
func TestLegacySamplingToolsNeedTheCapability(t *testing.T) {
	withTools := NewTool(ToolInfo{Name: "ask_tools", Description: "Tool-enabled sampling"}, func(ctx context.Context, in noArgs) (string, error) {
		_, err := Ask(ctx, "s", &mcp.CreateMessageRequest{Params: mcp.CreateMessageRequestParams{MaxTokens: 5,
			Messages: []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: &mcp.TextContent{Text: "weather?"}}},
			Tools:    []mcp.Tool{{Name: "get_weather", InputSchema: json.RawMessage(`{"type":"object"}`)}}}})
		return "ok", err
	})
	for _, rev := range []string{"2025-06-18", "2025-11-25"} {
		t.Run(rev, func(t *testing.T) {
			f := newFixture(t, func(o *Options) { o.Tools = []Tool{withTools} })
			p := lcPeer(t, f.s, rev, `{"sampling":{}}`)
			p.call("1", "tools/call", `{"name":"ask_tools"}`)
			line := p.nextRaw()
			var m map[string]any
			if err := json.Unmarshal([]byte(line), &m); err != nil {
				t.Fatal(err)
			}
			if m["method"] != nil && m["id"] != nil {
				p.send(`{"jsonrpc":"2.0","id":` + idOf(m) + `,"result":{"role":"assistant","content":{"type":"text","text":"x"},"model":"m"}}`)
				p.response("1")
				t.Fatalf("at %s a tool-enabled sampling request went to a client without sampling.tools: %s", rev, line)
			}
		})
	}
}
