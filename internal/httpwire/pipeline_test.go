package httpwire

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// mcpHandler wires the checks in the order doc.go gives; it stands in for
// the server runtime and answers every accepted request with an SSE stream
// holding one empty result.
func mcpHandler(policy OriginPolicy) http.Handler {
	tools := map[string][]ParamHeader{
		"echo": nil,
		"hdr":  {{Name: "Region", Path: []string{"region"}, Type: "string"}},
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for _, check := range []func() *Rejection{
			func() *Rejection { return policy.Check(r) },
			func() *Rejection { return CheckMethod(r.Method) },
			func() *Rejection { return CheckContentType(r.Header) },
			func() *Rejection { return CheckAccept(r.Header) },
		} {
			if rej := check(); rej != nil {
				_ = rej.Write(w, nil)
				return
			}
		}
		body, rej := ReadBody(w, r, 1<<20)
		if rej != nil {
			_ = rej.Write(w, nil)
			return
		}
		facts, err := factsFromBody(body)
		if err != nil {
			_ = (&Rejection{Status: 400, Code: CodeParseError, Message: "Parse error"}).Write(w, nil)
			return
		}
		var env struct{ ID json.RawMessage }
		_ = json.Unmarshal(body, &env)
		if facts.Method == "tools/call" {
			facts.ParamHeaders = tools[facts.Name]
		}
		if rej := checkHeaders(r.Header, facts); rej != nil {
			_ = rej.Write(w, env.ID)
			return
		}
		if facts.Kind == KindNotification {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		sse := NewSSEWriter(w)
		_ = sse.WriteEvent("", []byte(`{"jsonrpc":"2.0","id":`+string(env.ID)+`,"result":{"resultType":"complete"}}`))
	})
}

func TestPipelineOverHTTP(t *testing.T) {
	srv := httptest.NewServer(mcpHandler(LoopbackPolicy()))
	defer srv.Close()
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	call := func(name, args string) string {
		return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + name + `","arguments":` + args + `,` + meta + `}}`
	}
	list := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + meta + `}}`
	base := []string{"Content-Type", "application/json", "Accept", "application/json, text/event-stream", "MCP-Protocol-Version", "2026-07-28"}
	tests := []struct {
		name    string
		method  string
		headers []string // raw header lines appended to base
		body    string
		status  int
		code    int64
	}{
		{"tools/list", "POST", []string{"Mcp-Method", "tools/list"}, list, 200, 0},
		// Checklist Q38: lower-case header name and OWS-padded value are accepted.
		{"lower-case name, padded value", "POST", []string{"mcp-method", "  tools/list  "}, list, 200, 0},
		{"Mcp-Method mismatch", "POST", []string{"Mcp-Method", "prompts/list"}, list, 400, CodeHeaderMismatch},
		// Q39.
		{"Mcp-Name other", "POST", []string{"Mcp-Method", "tools/call", "Mcp-Name", "other"}, call("echo", `{}`), 400, CodeHeaderMismatch},
		{"Mcp-Name base64", "POST", []string{"Mcp-Method", "tools/call", "Mcp-Name", "=?base64?ZWNobw==?="}, call("echo", `{}`), 200, 0},
		{"Mcp-Param eu", "POST", []string{"Mcp-Method", "tools/call", "Mcp-Name", "hdr", "Mcp-Param-Region", "eu"}, call("hdr", `{"region":"us-west1"}`), 400, CodeHeaderMismatch},
		{"Mcp-Param missing", "POST", []string{"Mcp-Method", "tools/call", "Mcp-Name", "hdr"}, call("hdr", `{"region":"us-west1"}`), 400, CodeHeaderMismatch},
		{"region omitted", "POST", []string{"Mcp-Method", "tools/call", "Mcp-Name", "hdr"}, call("hdr", `{}`), 200, 0},
		// Q40.
		{"evil origin", "POST", []string{"Mcp-Method", "tools/list", "Origin", "https://evil.example"}, list, 403, CodeInvalidRequest},
		{"rebinding host", "POST", []string{"Mcp-Method", "tools/list", "Host", "evil.example.com", "Origin", "http://evil.example.com"}, list, 403, CodeInvalidRequest},
		{"GET", "GET", nil, "", 405, CodeInvalidRequest},
		{"DELETE", "DELETE", nil, "", 405, CodeInvalidRequest},
		{"notification", "POST", nil, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`, 202, 0},
		{"session id ignored", "POST", []string{"Mcp-Method", "tools/list", "Mcp-Session-Id", "abc"}, list, 200, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := http.NewRequest(tt.method, srv.URL, strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			hs := append(append([]string{}, base...), tt.headers...)
			for i := 0; i+1 < len(hs); i += 2 {
				if hs[i] == "Host" {
					r.Host = hs[i+1]
					continue
				}
				r.Header[hs[i]] = []string{hs[i+1]} // raw, non-canonical names reach the wire as written
			}
			resp, err := srv.Client().Do(r)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d; body %s", resp.StatusCode, tt.status, b)
			}
			if resp.Header.Get("Mcp-Session-Id") != "" {
				t.Error("response has Mcp-Session-Id")
			}
			switch {
			case tt.code != 0:
				var e struct {
					ID    json.RawMessage
					Error struct{ Code int64 }
				}
				if err := json.Unmarshal(b, &e); err != nil || e.Error.Code != tt.code {
					t.Fatalf("body %s, want code %d", b, tt.code)
				}
				// Header errors come after the body was read: they echo the id
				// (conformance sep-2575-http-server-error-jsonrpc-id).
				if tt.code == CodeHeaderMismatch && string(e.ID) != "1" {
					t.Errorf("id %s, want 1", e.ID)
				}
			case tt.status == 200:
				if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" || !strings.Contains(string(b), `data: {"jsonrpc":"2.0","id":1`) {
					t.Errorf("content type %q body %q", ct, b)
				}
			case tt.status == 202 && len(b) != 0:
				t.Errorf("202 with body %q", b)
			}
		})
	}
}
