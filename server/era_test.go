package server

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// The era seam: every transport serves both eras, advertises the same
// versions (server/discover, -32022 data.supported) and serves a client that
// retries with any listed version.

// eraTransport sends one raw request line and returns the response message.
type eraTransport struct {
	name string
	send func(t *testing.T, line string) map[string]any
}

func eraTransports(t *testing.T, s *Server) []eraTransport {
	h := s.HTTPHandler(HTTPOptions{})
	peer := startStdio(t, s, 0)
	return []eraTransport{
		{"Handle", func(t *testing.T, line string) map[string]any {
			resp := s.HandleBytes(context.Background(), []byte(line), nil)
			return decodeLine(t, resp.Body)
		}},
		{"Caller", func(t *testing.T, line string) map[string]any {
			return callerSend(t, s, line)
		}},
		{"stdio", func(t *testing.T, line string) map[string]any {
			peer.send(line)
			return peer.next()
		}},
		{"HTTP", func(t *testing.T, line string) map[string]any {
			var hdrs []string
			if msg, derr := jsonrpc.Decode([]byte(line)); derr == nil && msg.Method != "initialize" {
				pr := parseRequest(msg)
				hdrs = []string{"MCP-Protocol-Version", pr.meta.protocolVersion, "Mcp-Method", msg.Method}
				if pr.params.hasName {
					hdrs = append(hdrs, "Mcp-Name", pr.params.name)
				}
			}
			w := post(h, line, hdrs...)
			body := w.Body.Bytes()
			if strings.HasPrefix(w.Header().Get("Content-Type"), "text/event-stream") {
				evs := sseEvents(t, body)
				body = evs[len(evs)-1]
			}
			return decodeLine(t, body)
		}},
	}
}

// callerSend sends line's request through an in-memory Caller and returns
// the response as the wire would carry it. The Caller fills in a modern
// _meta for the newest version unless the params name one; an initialize
// is sent by a Caller for the version it asks for, as a Go host speaking
// that revision in memory would.
func callerSend(t *testing.T, s *Server, line string) map[string]any {
	t.Helper()
	msg, derr := jsonrpc.Decode([]byte(line))
	if derr != nil {
		t.Fatalf("%s: %v", line, derr)
	}
	var opts CallerOptions
	if msg.Method == "initialize" {
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		if err := json.Unmarshal(msg.Params, &p); err != nil {
			t.Fatal(err)
		}
		opts.ProtocolVersion = p.ProtocolVersion
	}
	raw, err := s.Caller(opts).Call(context.Background(), msg.Method, json.RawMessage(msg.Params))
	var out []byte
	switch e := err.(type) {
	case nil:
		out = jsonrpc.AppendResult(nil, msg.ID, raw)
	case *jsonrpc.Error:
		out = jsonrpc.AppendError(nil, msg.ID, e)
	default:
		t.Fatalf("%s: %v", line, err)
	}
	return decodeLine(t, out)
}

func decodeLine(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("response %q: %v", b, err)
	}
	return m
}

func metaFor(version string) string {
	return `{"io.modelcontextprotocol/protocolVersion":"` + version + `","io.modelcontextprotocol/clientCapabilities":{}}`
}

func TestEraSameVersionsEverywhere(t *testing.T) {
	f := newFixture(t)
	for _, tr := range eraTransports(t, f.s) {
		t.Run(tr.name, func(t *testing.T) {
			disc := tr.send(t, `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":`+metaFor("2026-07-28")+`}}`)
			res, _ := disc["result"].(map[string]any)
			listed := toStrings(res["supportedVersions"])
			if !slices.Equal(listed, f.s.SupportedVersions()) || len(listed) != 5 {
				t.Fatalf("discover lists %v", listed)
			}
			bad := tr.send(t, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"},"_meta":`+metaFor("1999-01-01")+`}}`)
			e, _ := bad["error"].(map[string]any)
			if code, _ := e["code"].(float64); code != -32022 {
				t.Fatalf("unsupported version: %v", bad)
			}
			data, _ := e["data"].(map[string]any)
			if supported := toStrings(data["supported"]); !slices.Equal(supported, listed) {
				t.Fatalf("-32022 lists %v, discover %v", supported, listed)
			}
			for i, v := range listed {
				r := tr.send(t, `{"jsonrpc":"2.0","id":`+string(rune('3'+i))+`,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"},"_meta":`+metaFor(v)+`}}`)
				res, _ := r["result"].(map[string]any)
				content, _ := res["content"].([]any)
				if len(content) != 1 || content[0].(map[string]any)["text"] != "hi" {
					t.Fatalf("retry with %s: %v", v, r)
				}
			}
		})
	}
}

func TestEraInitializeOnEveryTransport(t *testing.T) {
	f := newFixture(t)
	for _, tr := range eraTransports(t, f.s) {
		t.Run(tr.name, func(t *testing.T) {
			r := tr.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"old","version":"1"}}}`)
			res, _ := r["result"].(map[string]any)
			if res["protocolVersion"] != "2025-03-26" {
				t.Fatalf("initialize: %v", r)
			}
			// A modern request on the same transport is still modern.
			m := tr.send(t, `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":`+metaFor("2026-07-28")+`}}`)
			if res, _ := m["result"].(map[string]any); res["resultType"] != "complete" {
				t.Fatalf("modern tools/list after initialize: %v", m)
			}
		})
	}
}

// Handle keeps no session between calls: an initialize is answered by a
// session that lives for that call (negotiated, not -32601), and so is an
// initialize a Caller sends for an initialize-era version; a modern
// client's initialize (a 2026-07-28 _meta) is -32601 naming the versions.
func TestEraOneShotInitialize(t *testing.T) {
	f := newFixture(t)
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"old","version":"1"}}}`
	for i := 0; i < 2; i++ { // twice: nothing is kept from the first call
		r := decodeLine(t, f.s.HandleBytes(context.Background(), []byte(init), nil).Body)
		if res, _ := r["result"].(map[string]any); res["protocolVersion"] != "2025-06-18" {
			t.Fatalf("Handle initialize #%d: %v", i+1, r)
		}
	}
	for _, v := range legacyVersions {
		raw, err := f.s.Caller(CallerOptions{ProtocolVersion: v}).Call(context.Background(), "initialize",
			json.RawMessage(`{"protocolVersion":"`+v+`","capabilities":{},"clientInfo":{"name":"old","version":"1"}}`))
		if err != nil || !strings.Contains(string(raw), `"protocolVersion":"`+v+`"`) {
			t.Fatalf("Caller(%s) initialize: %s, %v", v, raw, err)
		}
	}
	_, err := f.s.Caller(CallerOptions{}).Call(context.Background(), "initialize", json.RawMessage(`{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"new","version":"1"}}`))
	re, ok := err.(*jsonrpc.Error)
	if !ok || re.Code != jsonrpc.CodeMethodNotFound {
		t.Fatalf("modern initialize: %v", err)
	}
	var data struct{ Supported []string }
	if b, _ := json.Marshal(re.Data); json.Unmarshal(b, &data) != nil || !slices.Equal(data.Supported, f.s.SupportedVersions()) {
		t.Fatalf("modern initialize lists %v, want %v", re.Data, f.s.SupportedVersions())
	}
}

func TestCallerServesLegacyVersions(t *testing.T) {
	f := newFixture(t)
	for _, v := range f.s.SupportedVersions() {
		c := f.s.Caller(CallerOptions{ProtocolVersion: v})
		raw, err := c.Call(context.Background(), mcp.MethodToolsCall, &mcp.CallToolRequestParams{Name: "echo", Arguments: json.RawMessage(`{"text":"hi"}`)})
		if err != nil {
			t.Fatalf("%s: %v", v, err)
		}
		if !strings.Contains(string(raw), `"text":"hi"`) {
			t.Fatalf("%s: %s", v, raw)
		}
	}
}

func toStrings(v any) []string {
	var out []string
	for _, e := range v.([]any) {
		out = append(out, e.(string))
	}
	return out
}
