package server

import (
	"encoding/json"
	"github.com/mcpgen/mcpgen/jsonrpc"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

// TestHTTPRejections covers every check in front of the core: each row is
// one POST (or other method) and the status, JSON-RPC code and id expected.
func TestHTTPRejections(t *testing.T) {
	h := newHTTPHandler(newFakeCore(), HTTPOptions{MaxBodyBytes: 1 << 12})
	list := reqBody("1", "tools/list", "")
	discover := reqBody("7", "server/discover", "")
	big := reqBody("1", "tools/list", `"pad":"`+strings.Repeat("x", 1<<12)+`"`)
	v999 := strings.Replace(reqBody(`"v"`, "server/discover", ""), "2026-07-28", "v999.0.0", 1)
	tests := []struct {
		name   string
		body   string
		hdrs   []string
		status int
		code   int64  // 0: success
		id     string // expected error id ("" = absent)
	}{
		{"ok", list, stdHeaders("tools/list", ""), 200, 0, "1"},
		// Q37: protocol version header.
		{"PV header missing", list, stdHeaders("tools/list", "", "MCP-Protocol-Version", "\x00"), 400, -32020, "1"},
		{"PV header 2025", list, stdHeaders("tools/list", "", "MCP-Protocol-Version", "2025-11-25"), 400, -32020, "1"},
		{"PV header ok, _meta v999 (probe 302)", strings.Replace(discover, "2026-07-28", "v999.0.0", 1), stdHeaders("server/discover", ""), 400, -32020, "7"},
		// Q02 / probe 301: unsupported version agreed by header and body.
		{"unsupported version", v999, stdHeaders("server/discover", "", "MCP-Protocol-Version", "v999.0.0"), 400, -32022, `"v"`},
		// Q38: Mcp-Method.
		{"Mcp-Method other", list, stdHeaders("prompts/list", ""), 400, -32020, "1"},
		{"Mcp-Method missing", list, stdHeaders("tools/list", "", "Mcp-Method", "\x00"), 400, -32020, "1"},
		{"Mcp-Method case", list, stdHeaders("TOOLS/LIST", ""), 400, -32020, "1"},
		{"Mcp-Method repeated", list, stdHeaders("tools/list", "", "+Mcp-Method", "tools/list"), 400, -32020, "1"},
		{"mcp-method lower-case name, padded value", list, append(stdHeaders("tools/list", "", "Mcp-Method", "\x00"), "mcp-method", "  tools/list  "), 200, 0, "1"},
		// Q39: Mcp-Name and Mcp-Param-*.
		{"Mcp-Name ok", callBody("2", "echo", `{}`), stdHeaders("tools/call", "echo"), 200, 0, "2"},
		{"Mcp-Name other", callBody("2", "echo", `{}`), stdHeaders("tools/call", "other"), 400, -32020, "2"},
		{"Mcp-Name missing", callBody("2", "echo", `{}`), stdHeaders("tools/call", ""), 400, -32020, "2"},
		{"Mcp-Name base64", callBody("2", "echo", `{}`), stdHeaders("tools/call", "=?base64?ZWNobw==?="), 200, 0, "2"},
		{"Mcp-Name bad base64", callBody("2", "echo", `{}`), stdHeaders("tools/call", "=?base64?ZWNobw?="), 400, -32020, "2"},
		{"Mcp-Name non-ASCII", callBody("2", "echo", `{}`), stdHeaders("tools/call", "éc"), 400, -32020, "2"},
		{"Mcp-Name resources/read", reqBody("3", "resources/read", `"uri":"test://ok"`), stdHeaders("resources/read", "test://other"), 400, -32020, "3"},
		{"Mcp-Name prompts/get", reqBody("3", "prompts/get", `"name":"p"`), stdHeaders("prompts/get", ""), 400, -32020, "3"},
		{"Mcp-Param ok", callBody("4", "hdr", `{"region":"us-west1"}`), stdHeaders("tools/call", "hdr", "Mcp-Param-Region", "us-west1"), 200, 0, "4"},
		{"Mcp-Param base64", callBody("4", "hdr", `{"region":"世界"}`), stdHeaders("tools/call", "hdr", "Mcp-Param-Region", "=?base64?5LiW55WM?="), 200, 0, "4"},
		{"Mcp-Param mismatch", callBody("4", "hdr", `{"region":"us-west1"}`), stdHeaders("tools/call", "hdr", "Mcp-Param-Region", "eu"), 400, -32020, "4"},
		{"Mcp-Param missing", callBody("4", "hdr", `{"region":"us-west1"}`), stdHeaders("tools/call", "hdr"), 400, -32020, "4"},
		{"Mcp-Param lower-case name", callBody("4", "hdr", `{"region":"us-west1"}`), stdHeaders("tools/call", "hdr", "mcp-param-region", "us-west1"), 200, 0, "4"},
		{"Mcp-Param without body value", callBody("4", "hdr", `{}`), stdHeaders("tools/call", "hdr", "Mcp-Param-Region", "eu"), 400, -32020, "4"},
		{"Mcp-Param invalid chars", callBody("4", "hdr", `{"region":"a\u0001"}`), stdHeaders("tools/call", "hdr", "Mcp-Param-Region", "a\x01"), 400, -32020, "4"},
		{"region omitted, no header", callBody("4", "hdr", `{}`), stdHeaders("tools/call", "hdr"), 200, 0, "4"},
		{"unknown Mcp-Param ignored", callBody("4", "echo", `{}`), stdHeaders("tools/call", "echo", "Mcp-Param-Other", "x"), 200, 0, "4"},
		// _meta incomplete: the core's -32602 wins over header errors (probes 101/102/104).
		{"no _meta", `{"jsonrpc":"2.0","id":101,"method":"server/discover","params":{}}`, stdHeaders("server/discover", ""), 400, -32602, "101"},
		{"no protocolVersion, wrong header", `{"jsonrpc":"2.0","id":102,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{}}}}`, stdHeaders("prompts/list", ""), 400, -32602, "102"},
		{"no params at all", `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`, stdHeaders("tools/list", ""), 400, -32602, "3"},
		// Q16: unknown and removed methods → 404.
		{"unknown method", reqBody("601", "unknown/method", ""), stdHeaders("unknown/method", ""), 404, -32601, "601"},
		{"ping removed", reqBody("500", "ping", ""), stdHeaders("ping", ""), 404, -32601, "500"},
		{"initialize with _meta", reqBody("500", "initialize", ""), stdHeaders("initialize", ""), 404, -32601, "500"},
		// Q17 / versioning.mdx matrix: a legacy initialize (no _meta, no MCP headers) → 400, error from the core.
		{"legacy initialize", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`,
			[]string{"Content-Type", "application/json", "Accept", "application/json, text/event-stream"}, 400, -32601, "1"},
		{"ping without _meta", `{"jsonrpc":"2.0","id":2,"method":"ping"}`, stdHeaders("ping", ""), 400, -32601, "2"},
		// Envelope (Q07–Q11).
		{"parse error", `{"jsonrpc":"2.0","id":1,"method":`, stdHeaders("tools/list", ""), 400, -32700, ""},
		{"batch", `[` + list + `]`, stdHeaders("tools/list", ""), 400, -32600, ""},
		{"bare value", `42`, stdHeaders("tools/list", ""), 400, -32600, ""},
		{"null id", strings.Replace(list, `"id":1`, `"id":null`, 1), stdHeaders("tools/list", ""), 400, -32600, ""},
		{"jsonrpc 1.0", strings.Replace(list, `"2.0"`, `"1.0"`, 1), stdHeaders("tools/list", ""), 400, -32600, "1"},
		{"client sends a response", `{"jsonrpc":"2.0","id":1,"result":{}}`, stdHeaders("tools/list", ""), 400, -32600, "1"},
		// Transport.
		{"evil origin", list, stdHeaders("tools/list", "", "Origin", "https://evil.example"), 403, -32600, ""},
		{"rebinding host", list, stdHeaders("tools/list", "", "Host", "evil.example.com", "Origin", "http://evil.example.com"), 403, -32600, ""},
		{"rebinding host without origin", list, stdHeaders("tools/list", "", "Host", "evil.example.com:8080"), 403, -32600, ""},
		{"local origin", list, stdHeaders("tools/list", "", "Origin", "http://localhost:5173"), 200, 0, "1"},
		{"no content type", list, stdHeaders("tools/list", "", "Content-Type", "\x00"), 415, -32600, ""},
		{"text/plain", list, stdHeaders("tools/list", "", "Content-Type", "text/plain"), 415, -32600, ""},
		{"accept json only", list, stdHeaders("tools/list", "", "Accept", "application/json"), 406, -32600, ""},
		{"accept reversed", list, stdHeaders("tools/list", "", "Accept", "text/event-stream, application/json"), 200, 0, "1"},
		{"body too large", big, stdHeaders("tools/list", ""), 413, -32600, ""},
		// Q40: sessions are ignored.
		{"session id ignored", list, stdHeaders("tools/list", "", "Mcp-Session-Id", "abc", "Last-Event-ID", "5"), 200, 0, "1"},
		// Application errors keep 200.
		{"internal error", callBody("8", "panic_like", `{}`), stdHeaders("tools/call", "panic_like"), 200, -32603, "8"},
		{"unknown tool", callBody("9", "nope", `{}`), stdHeaders("tools/call", "nope"), 400, -32602, "9"},
		{"no response from core", callBody("10", "nobody", `{}`), stdHeaders("tools/call", "nobody"), 200, -32603, "10"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := serveOnce(t, h, tt.body, tt.hdrs)
			if w.Code != tt.status {
				t.Fatalf("status %d, want %d; body %s", w.Code, tt.status, w.Body)
			}
			if ct := w.Header().Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q, want application/json", ct)
			}
			if w.Header().Get("Mcp-Session-Id") != "" {
				t.Error("response mints Mcp-Session-Id")
			}
			r := decodeReply(t, w.Body.Bytes())
			if string(r.ID) != tt.id {
				t.Errorf("id %s, want %q", r.ID, tt.id)
			}
			switch {
			case tt.code == 0 && (r.Error != nil || r.Result == nil):
				t.Errorf("want a result, got %s", w.Body)
			case tt.code != 0 && (r.Error == nil || r.Error.Code != tt.code):
				t.Errorf("want error %d, got %s", tt.code, w.Body)
			}
		})
	}
}

func TestHTTPUnsupportedVersionData(t *testing.T) {
	h := newHTTPHandler(newFakeCore(), HTTPOptions{})
	body := strings.Replace(reqBody("301", "server/discover", ""), "2026-07-28", "1900-01-01", 1)
	w := serveOnce(t, h, body, stdHeaders("server/discover", "", "MCP-Protocol-Version", "1900-01-01"))
	r := decodeReply(t, w.Body.Bytes())
	if w.Code != 400 || r.Error == nil || r.Error.Code != -32022 {
		t.Fatalf("got %d %s", w.Code, w.Body)
	}
	var data struct {
		Supported []string `json:"supported"`
		Requested string   `json:"requested"`
	}
	if err := json.Unmarshal(r.Error.Data, &data); err != nil || data.Requested != "1900-01-01" || !slices.Equal(data.Supported, []string{"2026-07-28"}) {
		t.Errorf("data %s (%v)", r.Error.Data, err)
	}
}

func TestHTTPMethodNotAllowed(t *testing.T) {
	h := newHTTPHandler(newFakeCore(), HTTPOptions{})
	for _, m := range []string{http.MethodGet, http.MethodDelete, http.MethodPut, http.MethodOptions} {
		r := httptest.NewRequest(m, "http://127.0.0.1/mcp", nil)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != http.StatusMethodNotAllowed || w.Header().Get("Allow") != "POST" {
			t.Errorf("%s: status %d Allow %q", m, w.Code, w.Header().Get("Allow"))
		}
		if r := decodeReply(t, w.Body.Bytes()); r.Error == nil || r.ID != nil {
			t.Errorf("%s: body %s", m, w.Body)
		}
	}
}

func TestHTTPBodyTooLargeStreamed(t *testing.T) {
	h := newHTTPHandler(newFakeCore(), HTTPOptions{MaxBodyBytes: 64})
	r := newPost(t, "http://127.0.0.1/mcp", "", stdHeaders("tools/list", ""))
	r.Body = readCloser{strings.NewReader(reqBody("1", "tools/list", ""))}
	r.ContentLength = -1 // chunked: the limit is hit while reading
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != http.StatusRequestEntityTooLarge {
		t.Fatalf("status %d body %s", w.Code, w.Body)
	}
}

type readCloser struct{ *strings.Reader }

func (readCloser) Close() error { return nil }

func TestHTTPAllowedOriginsAndHosts(t *testing.T) {
	h := newHTTPHandler(newFakeCore(), HTTPOptions{AllowedOrigins: []string{"https://app.example.com"}, AllowedHosts: []string{"mcp.example.com"}})
	list := reqBody("1", "tools/list", "")
	for _, tt := range []struct {
		host, origin string
		status       int
	}{
		{"mcp.example.com", "https://app.example.com", 200},
		{"mcp.example.com:443", "", 200},
		{"localhost:3000", "http://127.0.0.1:3000", 200},
		{"mcp.example.com", "https://evil.example.com", 403},
		{"other.example.com", "https://app.example.com", 403},
	} {
		hdrs := stdHeaders("tools/list", "", "Host", tt.host)
		if tt.origin != "" {
			hdrs = append(hdrs, "Origin", tt.origin)
		}
		r := newPost(t, "http://x/mcp", list, hdrs)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != tt.status {
			t.Errorf("host %s origin %s: status %d, want %d", tt.host, tt.origin, w.Code, tt.status)
		}
	}
}

func TestHTTPNotifications(t *testing.T) {
	core := newFakeCore()
	h := newHTTPHandler(core, HTTPOptions{})
	for _, tt := range []struct {
		name, body string
		hdrs       []string
		status     int
	}{
		{"no headers needed", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, []string{"Content-Type", "application/json"}, 202},
		{"request-shaped (Q14)", `{"jsonrpc":"2.0","method":"tools/list","params":{` + testMeta + `}}`, stdHeaders("tools/list", ""), 202},
		{"cancelled is not forwarded", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`, stdHeaders("notifications/cancelled", ""), 202},
		{"Mcp-Method mismatch", `{"jsonrpc":"2.0","method":"notifications/x"}`, stdHeaders("notifications/y", ""), 400},
	} {
		t.Run(tt.name, func(t *testing.T) {
			hdrs := append([]string{"Accept", "application/json, text/event-stream"}, tt.hdrs...)
			w := serveOnce(t, h, tt.body, hdrs)
			if w.Code != tt.status {
				t.Fatalf("status %d, want %d: %s", w.Code, tt.status, w.Body)
			}
			if tt.status == 202 && w.Body.Len() != 0 {
				t.Errorf("202 with body %q", w.Body)
			}
			if tt.status == 400 {
				if r := decodeReply(t, w.Body.Bytes()); r.Error == nil || r.Error.Code != -32020 || r.ID != nil {
					t.Errorf("body %s", w.Body)
				}
			}
		})
	}
	if got := core.notifications(); !slices.Equal(got, []string{"notifications/initialized", "tools/list"}) {
		t.Errorf("core saw %v", got)
	}
}

func TestHTTPPathAgnostic(t *testing.T) {
	mux := http.NewServeMux()
	mux.Handle("/api/v1/mcp", newHTTPHandler(newFakeCore(), HTTPOptions{}))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	r := newPost(t, srv.URL+"/api/v1/mcp", reqBody("1", "tools/list", ""), stdHeaders("tools/list", ""))
	resp, err := srv.Client().Do(r)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
}

// TestMetaUsable: the era and header-check decision reads the same exact,
// duplicate-free _meta as the core; folded or repeated members never make
// an unusable _meta usable or the other way round.
func TestMetaUsable(t *testing.T) {
	const good = `{"io.modelcontextprotocol/protocolVersion":"x","io.modelcontextprotocol/clientCapabilities":{}}`
	for params, want := range map[string]bool{
		`{` + testMeta + `}`:                               true,
		`{"_meta":` + good + `}`:                           true,
		`{"_meta":` + good + `,"_Meta":{}}`:                true,
		`{"_META":` + good + `}`:                           false,
		`{"_meta":{},"_META":` + good + `}`:                false,
		`{"_meta":` + good + `,"_meta":{}}`:                false,
		`{"_meta":` + good + `,"\u005fmeta":` + good + `}`: false,
		`{"_meta":{"io.modelcontextprotocol/protocolVersion":"x","io.modelcontextprotocol/protocolVersion":"y","io.modelcontextprotocol/clientCapabilities":{}}}`: false,
		`{"_meta":{"IO.modelcontextprotocol/protocolVersion":"x","io.modelcontextprotocol/clientCapabilities":{}}}`:                                               false,
		`{"_meta":{"io.modelcontextprotocol/protocolVersion":20260728,"io.modelcontextprotocol/clientCapabilities":{}}}`:                                          false,
		`{"_meta":{"io.modelcontextprotocol/protocolVersion":"x","io.modelcontextprotocol/clientCapabilities":"all"}}`:                                            false,
		`{"_meta":{"io.modelcontextprotocol/protocolVersion":"x"}}`:                                                                                               false,
		`{"_meta":null}`: false,
		`{}`:             false,
		`[1]`:            false,
		``:               false,
	} {
		pr := parseRequest(jsonrpc.Message{Kind: jsonrpc.KindRequest, ID: jsonrpc.IntID(1), Method: "tools/list", Params: json.RawMessage(params)})
		if got := pr.metaUsable(); got != want {
			t.Errorf("metaUsable(%s) = %v (%v)", params, got, pr.err)
		}
	}
}
