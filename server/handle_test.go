package server

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/jsonrpc"
)

func TestHandleEnvelopeErrors(t *testing.T) {
	f := newFixture(t)
	cases := []struct {
		name, msg string
		code      int64
		id        string
	}{
		{"malformed JSON", `{"jsonrpc":"2.0","id":1,"method":`, jsonrpc.CodeParseError, ""},
		{"array (batch)", `[{"jsonrpc":"2.0","id":1,"method":"server/discover"}]`, jsonrpc.CodeInvalidRequest, ""},
		{"not an object", `42`, jsonrpc.CodeInvalidRequest, ""},
		{"missing jsonrpc", `{"id":3,"method":"server/discover","params":{}}`, jsonrpc.CodeInvalidRequest, "3"},
		{"params not an object", `{"jsonrpc":"2.0","id":4,"method":"server/discover","params":"x"}`, jsonrpc.CodeInvalidParams, "4"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, resp := rawRPC(t, f.s, c.msg, nil)
			wantError(t, r, c.code)
			if resp.Code != c.code {
				t.Errorf("Response.Code = %d, want %d", resp.Code, c.code)
			}
			if string(r.ID) != c.id {
				t.Errorf("id = %s, want %q", r.ID, c.id)
			}
		})
	}
}

func TestHandleNotificationsGetNoResponse(t *testing.T) {
	f := newFixture(t)
	for _, msg := range []string{
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":1,"result":{}}`,
	} {
		if _, resp := rawRPC(t, f.s, msg, nil); resp.Body != nil {
			t.Errorf("%s: got response %s", msg, resp.Body)
		}
	}
}

// The server-stateless probes of the conformance suite (FIXTURES.md §4.1).
func TestHandleMetaValidation(t *testing.T) {
	f := newFixture(t)
	cases := []struct {
		name, params string
		code         int64
		mention      string
	}{
		{"params without _meta", `{}`, jsonrpc.CodeInvalidParams, "_meta"},
		{"no protocolVersion", `{"_meta":{"io.modelcontextprotocol/clientCapabilities":{}}}`, jsonrpc.CodeInvalidParams, "protocolVersion"},
		{"protocolVersion not a string", `{"_meta":{"io.modelcontextprotocol/protocolVersion":2026,"io.modelcontextprotocol/clientCapabilities":{}}}`, jsonrpc.CodeInvalidParams, "protocolVersion"},
		{"no clientCapabilities", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`, jsonrpc.CodeInvalidParams, "clientCapabilities"},
		{"clientCapabilities not an object", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":[]}}`, jsonrpc.CodeInvalidParams, "clientCapabilities"},
		{"bad logLevel", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"loud"}}`, jsonrpc.CodeInvalidParams, "logLevel"},
		{"bad progressToken", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":1.5}}`, jsonrpc.CodeInvalidParams, "progressToken"},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			id := 101 + i
			msg := `{"jsonrpc":"2.0","id":` + itoa(id) + `,"method":"server/discover","params":` + c.params + `}`
			r, _ := rawRPC(t, f.s, msg, nil)
			wantError(t, r, c.code)
			if !strings.Contains(r.Error.Message, c.mention) {
				t.Errorf("message %q does not name %q", r.Error.Message, c.mention)
			}
			if string(r.ID) != itoa(id) {
				t.Errorf("id not echoed: %s", r.ID)
			}
			if pr := parseRequest(jsonrpc.Message{Kind: jsonrpc.KindRequest, Method: "server/discover", Params: json.RawMessage(c.params)}); pr.err == nil || pr.err.Code != c.code {
				t.Errorf("parseRequest error = %v", pr.err)
			}
		})
	}
	t.Run("clientInfo optional", func(t *testing.T) {
		r, _ := rpcMeta(t, f.s, "server/discover", `{}`, `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`, nil)
		wantResult(t, r)
		if pr := parseRequest(jsonrpc.Message{Kind: jsonrpc.KindRequest, Method: "server/discover", Params: json.RawMessage(`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}`)}); !pr.metaUsable() {
			t.Errorf("parseRequest error = %v", pr.err)
		}
	})
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestHandleUnsupportedVersion(t *testing.T) {
	f := newFixture(t)
	r, resp := rpcMeta(t, f.s, "server/discover", `{}`, `{"io.modelcontextprotocol/protocolVersion":"v999.0.0","io.modelcontextprotocol/clientCapabilities":{}}`, nil)
	wantError(t, r, -32022)
	if resp.Code != -32022 {
		t.Errorf("Code = %d", resp.Code)
	}
	var data struct {
		Supported []string `json:"supported"`
		Requested string   `json:"requested"`
	}
	if err := json.Unmarshal(r.Error.Data, &data); err != nil {
		t.Fatal(err)
	}
	if data.Requested != "v999.0.0" || len(data.Supported) == 0 || data.Supported[0] != "2026-07-28" {
		t.Errorf("data = %s", r.Error.Data)
	}
	// Every supported version is one discover lists.
	disc := rpc(t, f.s, "server/discover", `{}`)
	for _, v := range data.Supported {
		if !strings.Contains(string(disc.Result), `"`+v+`"`) {
			t.Errorf("supported %q missing from discover %s", v, disc.Result)
		}
	}
	// data.supported is exactly what discover lists, and a client that
	// retries with any listed version is served (the initialize-era ones
	// by a session made from the request's _meta, answering in that
	// revision: no resultType).
	var d struct {
		SupportedVersions []string `json:"supportedVersions"`
	}
	if err := json.Unmarshal(disc.Result, &d); err != nil || !slices.Equal(d.SupportedVersions, data.Supported) {
		t.Fatalf("discover lists %v, -32022 lists %v", d.SupportedVersions, data.Supported)
	}
	for _, v := range data.Supported {
		r, _ := rpcMeta(t, f.s, "tools/call", `{"name":"echo","arguments":{"text":"hi"}}`, `{"io.modelcontextprotocol/protocolVersion":"`+v+`","io.modelcontextprotocol/clientCapabilities":{}}`, nil)
		wantResult(t, r)
		if text, _ := callText(t, r); text != "hi" {
			t.Errorf("retry with %s: %s", v, r.Result)
		}
		_, modern := r.field(t, "resultType").(string)
		if modern != (v == "2026-07-28") {
			t.Errorf("retry with %s: result %s is not in that revision", v, r.Result)
		}
	}
}

func TestHandleRemovedAndUnknownMethods(t *testing.T) {
	f := newFixture(t)
	for _, m := range []string{"initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"} {
		r := rpc(t, f.s, m, `{}`)
		wantError(t, r, jsonrpc.CodeMethodNotFound)
		if !strings.Contains(r.Error.Message, "2026-07-28") {
			t.Errorf("%s: message %q does not name the supported versions", m, r.Error.Message)
		}
	}
	// A legacy initialize carries no _meta at all: Handle answers it in the
	// initialize era, with a version server/discover lists.
	r, _ := rawRPC(t, f.s, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"old","version":"1"}}}`, nil)
	wantResult(t, r)
	if v, _ := r.field(t, "protocolVersion").(string); v != "2025-06-18" || !slices.Contains(f.s.SupportedVersions(), v) {
		t.Errorf("initialize result %s", r.Result)
	}
	wantError(t, rpc(t, f.s, "unknown/method", `{}`), jsonrpc.CodeMethodNotFound)
}

func TestHandleBadParamsNameTheField(t *testing.T) {
	f := newFixture(t)
	cases := []struct{ method, params, mention string }{
		{"tools/call", `{"name":42}`, "name"},
		{"tools/call", `{"arguments":{}}`, "name"},
		{"tools/call", `{"name":"echo","arguments":"text"}`, "arguments"},
		{"prompts/get", `{"name":"greet","arguments":{"name":5}}`, "arguments"},
		{"resources/read", `{"uri":7}`, "uri"},
		{"tools/list", `{"cursor":5}`, "cursor"},
		{"subscriptions/listen", `{"notifications":{"toolsListChanged":"yes"}}`, "toolsListChanged"},
		{"completion/complete", `{"ref":{"type":"ref/prompt","name":"greet"}}`, "argument"},
	}
	for _, c := range cases {
		r := rpc(t, f.s, c.method, c.params)
		wantError(t, r, jsonrpc.CodeInvalidParams)
		if !strings.Contains(r.Error.Message, c.mention) {
			t.Errorf("%s %s: message %q does not name %q", c.method, c.params, r.Error.Message, c.mention)
		}
	}
}

func TestHandlePanicKeepsServing(t *testing.T) {
	f := newFixture(t)
	r := rpc(t, f.s, "tools/call", `{"name":"boom"}`)
	wantError(t, r, jsonrpc.CodeInternalError)
	text, isErr := callText(t, rpc(t, f.s, "tools/call", `{"name":"echo","arguments":{"text":"still here"}}`))
	if text != "still here" || isErr {
		t.Fatalf("after panic: %q %v", text, isErr)
	}
}

// Every result carries resultType and serverInfo (FIXTURES.md §2.5).
func TestEveryResultHasResultTypeAndServerInfo(t *testing.T) {
	f := newFixture(t)
	calls := []struct{ method, params string }{
		{"server/discover", `{}`},
		{"tools/list", `{}`},
		{"tools/call", `{"name":"echo","arguments":{"text":"x"}}`},
		{"tools/call", `{"name":"fail"}`},
		{"tools/call", `{"name":"content"}`},
		{"tools/call", `{"name":"ask_name"}`},
		{"prompts/list", `{}`},
		{"prompts/get", `{"name":"simple"}`},
		{"resources/list", `{}`},
		{"resources/templates/list", `{}`},
		{"resources/read", `{"uri":"test://static-text"}`},
		{"completion/complete", `{"ref":{"type":"ref/prompt","name":"greet"},"argument":{"name":"name","value":"al"}}`},
	}
	for _, c := range calls {
		r, _ := rpcMeta(t, f.s, c.method, c.params, fullCapsMeta, nil)
		wantResult(t, r)
		rt, _ := r.field(t, "resultType").(string)
		if rt != "complete" && rt != "input_required" {
			t.Errorf("%s: resultType %q in %s", c.method, rt, r.Result)
		}
		info, _ := r.field(t, "_meta", keyServerInfo).(map[string]any)
		if info["name"] != "fixture" || info["version"] != "1.2.3" {
			t.Errorf("%s: serverInfo %v in %s", c.method, info, r.Result)
		}
	}
}

func TestCacheableResultsCarryHints(t *testing.T) {
	f := newFixture(t, func(o *Options) { o.Cache = CachePolicy{TTLMs: 60000, Scope: "private"} })
	for _, m := range []struct{ method, params string }{
		{"server/discover", `{}`}, {"tools/list", `{}`}, {"prompts/list", `{}`}, {"resources/list", `{}`},
		{"resources/templates/list", `{}`}, {"resources/read", `{"uri":"test://static-text"}`},
		{"resources/read", `{"uri":"test://items/123/data"}`},
	} {
		r := rpc(t, f.s, m.method, m.params)
		wantResult(t, r)
		if ttl := r.field(t, "ttlMs"); ttl != 60000.0 {
			t.Errorf("%s: ttlMs %v", m.method, ttl)
		}
		if scope := r.field(t, "cacheScope"); scope != "private" {
			t.Errorf("%s: cacheScope %v", m.method, scope)
		}
	}
	// Non-cacheable results carry no hints.
	r := rpc(t, f.s, "tools/call", `{"name":"echo","arguments":{"text":"x"}}`)
	if r.field(t, "ttlMs") != nil {
		t.Errorf("tools/call has ttlMs: %s", r.Result)
	}
}

func TestDefaultCacheHints(t *testing.T) {
	f := newFixture(t)
	r := rpc(t, f.s, "tools/list", `{}`)
	if r.field(t, "ttlMs") != 0.0 || r.field(t, "cacheScope") != "public" {
		t.Errorf("defaults: %s", r.Result)
	}
}
