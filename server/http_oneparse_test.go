package server

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/mcpgen/mcpgen/internal/httpwire"
)

// One parse per HTTP message: the header checks read the same parse the
// core acts on. These tests run the real core behind the real handler
// (legacy sessions included) and watch what the tools actually receive.

// ranCall is what a tool observed when it ran.
type ranCall struct {
	tool, method, version string
	legacy                bool
	args                  string
}

// callLog records the tool calls of a oneParseServer.
type callLog struct {
	mu    sync.Mutex
	calls []ranCall
}

func (l *callLog) take() []ranCall {
	l.mu.Lock()
	defer l.mu.Unlock()
	c := l.calls
	l.calls = nil
	return c
}

// oneParseServer serves two tools, "alpha" and "beta", whose region
// argument is mirrored into Mcp-Param-Region; both record what they got.
func oneParseServer(t testing.TB) (*Server, *callLog) {
	t.Helper()
	log := &callLog{}
	schema := json.RawMessage(`{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"},"n":{"type":"integer"}}}`)
	tool := func(name string) Tool {
		return NewTool(ToolInfo{Name: name, Description: "records its call", InputSchema: schema},
			func(ctx context.Context, in json.RawMessage) (string, error) {
				r := requestFrom(ctx)
				c := ranCall{tool: name, args: string(in), legacy: legacyFrom(ctx) != nil}
				if r != nil {
					c.method, c.version = r.method, r.meta.protocolVersion
				}
				log.mu.Lock()
				log.calls = append(log.calls, c)
				log.mu.Unlock()
				return "ran " + name, nil
			})
	}
	s, err := New(Options{Name: "oneparse", Version: "1", Tools: []Tool{tool("alpha"), tool("beta")},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	return s, log
}

// post sends one POST through h with the standard headers plus hdrs
// (name, value pairs; an empty value deletes the header).
func post(h http.Handler, body string, hdrs ...string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	for i := 0; i+1 < len(hdrs); i += 2 {
		if hdrs[i+1] == "" {
			r.Header.Del(hdrs[i])
			continue
		}
		r.Header.Set(hdrs[i], hdrs[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

const goodMeta = `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

func TestHTTPOneParseProbes(t *testing.T) {
	s, log := oneParseServer(t)
	h := s.HTTPHandler(HTTPOptions{})
	alpha := []string{"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "alpha"}
	env := func(params string) string {
		return `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{` + params + `}}`
	}
	tests := []struct {
		name   string
		body   string
		hdrs   []string
		status int
		code   int64
		ran    string // the tool that must have run, "" for none
	}{
		{"control", env(`"name":"alpha","arguments":{},"_meta":` + goodMeta), alpha, 200, 0, "alpha"},
		{"NAME beside name", env(`"name":"beta","NAME":"alpha","arguments":{},"_meta":` + goodMeta), alpha, 400, -32020, ""},
		{"Name beside name", env(`"NAME":"alpha","name":"beta","Name":"alpha","arguments":{},"_meta":` + goodMeta), alpha, 400, -32020, ""},
		{"only NAME", env(`"NAME":"alpha","arguments":{},"_meta":` + goodMeta), alpha, 400, -32602, ""},
		{"METHOD beside method", `{"jsonrpc":"2.0","id":7,"method":"tools/call","METHOD":"tools/list","params":{"name":"alpha","_meta":` + goodMeta + `}}`,
			[]string{"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/list"}, 400, -32020, ""},
		{"PARAMS beside params", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"beta","arguments":{},"_meta":` + goodMeta + `},"PARAMS":{"name":"alpha"}}`,
			alpha, 400, -32020, ""},
		{"_META carries the version", env(`"name":"alpha","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25","io.modelcontextprotocol/clientCapabilities":{}},"_META":` + goodMeta),
			alpha, 400, -32020, ""},
		{"usable _META, unusable _meta", env(`"name":"alpha","arguments":{},"_meta":{},"_META":` + goodMeta), alpha, 400, -32602, ""},
		{"usable _Meta only", env(`"name":"alpha","arguments":{},"_Meta":` + goodMeta), nil, 400, -32602, ""},
		{"folded meta key", env(`"name":"alpha","arguments":{},"_meta":{"IO.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`), nil, 400, -32602, ""},
		{"duplicate name", env(`"name":"alpha","name":"beta","arguments":{},"_meta":` + goodMeta), alpha, 400, -32602, ""},
		{"duplicate name via escape", env(`"name":"alpha","n\u0061me":"beta","arguments":{},"_meta":` + goodMeta), alpha, 400, -32602, ""},
		{"duplicate _meta", env(`"name":"alpha","arguments":{},"_meta":` + goodMeta + `,"_meta":` + goodMeta), alpha, 400, -32602, ""},
		{"duplicate _meta member", env(`"name":"alpha","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/protocolVersion":"2025-11-25","io.modelcontextprotocol/clientCapabilities":{}}`),
			alpha, 400, -32602, ""},
		{"duplicate method", `{"jsonrpc":"2.0","id":7,"method":"tools/list","method":"tools/call","params":{"name":"alpha","_meta":` + goodMeta + `}}`, alpha, 400, -32600, ""},
		{"duplicate params", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"beta","_meta":` + goodMeta + `},"params":{"name":"alpha","_meta":` + goodMeta + `}}`, alpha, 400, -32600, ""},
		{"Arguments beside arguments", env(`"name":"alpha","arguments":{"region":"us"},"Arguments":{"region":"eu"},"_meta":` + goodMeta),
			append(alpha[:6:6], "Mcp-Param-Region", "eu"), 400, -32020, ""},
		{"Arguments beside arguments, header matches arguments", env(`"name":"alpha","arguments":{"region":"us"},"Arguments":{"region":"eu"},"_meta":` + goodMeta),
			append(alpha[:6:6], "Mcp-Param-Region", "us"), 200, 0, "alpha"},
		{"duplicate argument", env(`"name":"alpha","arguments":{"region":"eu","region":"us"},"_meta":` + goodMeta),
			append(alpha[:6:6], "Mcp-Param-Region", "eu"), 400, -32020, ""},
		{"Region is not region", env(`"name":"alpha","arguments":{"Region":"eu"},"_meta":` + goodMeta),
			append(alpha[:6:6], "Mcp-Param-Region", "eu"), 400, -32020, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			log.take()
			w := post(h, tt.body, tt.hdrs...)
			if w.Code != tt.status {
				t.Fatalf("status %d, want %d: %s", w.Code, tt.status, w.Body)
			}
			if code := responseCode(t, w); code != tt.code {
				t.Fatalf("code %d, want %d: %s", code, tt.code, w.Body)
			}
			calls := log.take()
			switch {
			case tt.ran == "" && len(calls) > 0:
				t.Fatalf("a tool ran: %+v", calls)
			case tt.ran != "" && (len(calls) != 1 || calls[0].tool != tt.ran):
				t.Fatalf("calls %+v, want one of %s", calls, tt.ran)
			}
		})
	}
	// The server keeps serving.
	if w := post(h, env(`"name":"alpha","arguments":{},"_meta":`+goodMeta), alpha...); w.Code != 200 {
		t.Fatalf("after the probes: %d %s", w.Code, w.Body)
	}
}

// responseCode returns the JSON-RPC error code of a JSON or SSE response
// (0 for a result).
func responseCode(t testing.TB, w *httptest.ResponseRecorder) int64 {
	t.Helper()
	body := w.Body.Bytes()
	if strings.HasPrefix(w.Header().Get("Content-Type"), "text/event-stream") {
		evs := sseEvents(t, body)
		if len(evs) == 0 {
			t.Fatalf("empty SSE stream")
		}
		body = evs[len(evs)-1]
	}
	var v struct {
		Error *struct{ Code int64 } `json:"error"`
	}
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("response %q: %v", body, err)
	}
	if v.Error == nil {
		return 0
	}
	return v.Error.Code
}

// refFacts is an independent, exact reading of a request body with
// encoding/json's tokenizer: member names byte-exact after unescaping, and
// any repeated name in the envelope, params, _meta or arguments noted.
type refFacts struct {
	method, name, version, region string
	hasRegion, dup, usable        bool
}

// refMembers reads the members of the object raw in order with
// json.Decoder (exact names, duplicates kept).
func refMembers(raw []byte) (map[string]json.RawMessage, bool, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false, false
	}
	m := map[string]json.RawMessage{}
	dup := false
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, false, false
		}
		k, _ := tok.(string)
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			return nil, false, false
		}
		if _, seen := m[k]; seen {
			dup = true
		}
		m[k] = v
	}
	return m, dup, true
}

func refString(raw json.RawMessage) (string, bool) {
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

func readRefFacts(body []byte) (refFacts, bool) {
	var f refFacts
	env, dup, ok := refMembers(body)
	if !ok {
		return f, false
	}
	params, pdup, _ := refMembers(env["params"])
	meta, mdup, _ := refMembers(params["_meta"])
	args, adup, _ := refMembers(params["arguments"])
	f.dup = dup || pdup || mdup || adup
	f.method, _ = refString(env["method"])
	f.name, _ = refString(params["name"])
	var hasVersion bool
	f.version, hasVersion = refString(meta[keyProtocolVersion])
	caps := meta[keyClientCapabilities]
	f.usable = hasVersion && f.version != "" && len(caps) > 0 && caps[0] == '{'
	f.region, f.hasRegion = refString(args["region"])
	return f, true
}

// FuzzHTTPOneParse is the differential target of the HTTP header checks
// against the core, on the same body: the real handler in front of the real
// core, with and without a legacy session. Whenever a tool runs, an
// independent exact reading of the body (encoding/json's tokenizer) must
// agree with the headers the request passed and with what the tool was
// given: on the modern path the body has no duplicate members and its
// method, tool name, protocol version and region argument are the ones the
// headers carry and the tool received; on the legacy path the request came
// with the session id and without a usable modern _meta.
func FuzzHTTPOneParse(f *testing.F) {
	meta := goodMeta
	call := func(extra string) string {
		return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"alpha","arguments":{"region":"eu"},"_meta":` + meta + extra + `}}`
	}
	for _, s := range []struct {
		body                       string
		method, name, version, reg string
		session                    bool
	}{
		{call(""), "tools/call", "alpha", "2026-07-28", "eu", false},
		{call(`,"NAME":"beta"`), "tools/call", "beta", "2026-07-28", "eu", false},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"beta","NAME":"alpha","arguments":{"region":"us"},"Arguments":{"region":"eu"},"_meta":` + meta + `,"_META":{}}}`, "tools/call", "alpha", "2026-07-28", "eu", false},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"alpha","arguments":{"region":"eu"}}}`, "", "", "", "", true},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"alpha","arguments":{"region":"eu"},"_meta":{},"_Meta":` + meta + `}}`, "tools/call", "alpha", "2026-07-28", "eu", true},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"alpha","name":"beta","arguments":{"region":"eu","region":"us"},"_meta":` + meta + `}}`, "tools/call", "alpha", "2026-07-28", "eu", false},
		{`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":` + meta + `}}`, "tools/list", "", "2026-07-28", "", false},
	} {
		f.Add([]byte(s.body), s.method, s.name, s.version, s.reg, s.session)
	}
	s, log := oneParseServer(f)
	h := s.HTTPHandler(HTTPOptions{MaxBodyBytes: 1 << 16})
	init := post(h, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"fuzz","version":"1"}}}`)
	sid := init.Header().Get("Mcp-Session-Id")
	if init.Code != 200 || sid == "" {
		f.Fatalf("initialize: %d %s", init.Code, init.Body)
	}
	f.Fuzz(func(t *testing.T, body []byte, method, name, version, region string, session bool) {
		hdrs := []string{"MCP-Protocol-Version", version, "Mcp-Method", method, "Mcp-Name", name, "Mcp-Param-Region", region}
		if session {
			hdrs = append(hdrs, "Mcp-Session-Id", sid)
		}
		for i := 1; i < len(hdrs); i += 2 {
			if strings.ContainsAny(hdrs[i], "\r\n\x00") {
				return // not representable as a header value
			}
		}
		log.take()
		w := post(h, string(body), hdrs...)
		calls := log.take()
		if len(calls) == 0 {
			return
		}
		if len(calls) > 1 {
			t.Fatalf("one message ran %d tools: %+v", len(calls), calls)
		}
		c := calls[0]
		ref, ok := readRefFacts(body)
		if !ok {
			t.Fatalf("a tool ran for a body encoding/json does not read as an object: %q", body)
		}
		if c.legacy {
			if !session || ref.usable && !ref.dup {
				t.Fatalf("legacy session served %q (session %v, usable modern _meta %v)", body, session, ref.usable)
			}
			return
		}
		trim := func(s string) string { return strings.Trim(s, " \t") }
		decodedName, err := httpwire.DecodeHeaderValue(trim(name))
		switch {
		case ref.dup:
			t.Fatalf("a body with a repeated member ran %s: %q", c.tool, body)
		case !ref.usable:
			t.Fatalf("a body without a usable _meta ran %s: %q", c.tool, body)
		case ref.method != trim(method) || c.method != ref.method:
			t.Fatalf("method: header %q, body %q, core %q", method, ref.method, c.method)
		case err != nil || decodedName != ref.name || c.tool != ref.name:
			t.Fatalf("name: header %q, body %q, tool %q", name, ref.name, c.tool)
		case ref.version != trim(version) || c.version != ref.version:
			t.Fatalf("version: header %q, body %q, core %q", version, ref.version, c.version)
		}
		if ref.hasRegion {
			got, err := httpwire.DecodeHeaderValue(trim(region))
			if err != nil || got != ref.region {
				t.Fatalf("region: header %q, body %q", region, ref.region)
			}
			args, _, _ := refMembers([]byte(c.args))
			if r, _ := refString(args["region"]); r != ref.region {
				t.Fatalf("region: tool got %s, body %q", c.args, ref.region)
			}
		}
		_ = w
	})
}
