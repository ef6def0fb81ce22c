package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// Legacy (initialize-era) sessions over stdio, driven as a legacy client
// would through pipes.

// lgPeer is a legacy client on a stdio connection: it keeps the
// notifications and server requests that arrive between responses.
type lgPeer struct {
	*stdioPeer
	notes    []map[string]any // notifications seen, oldest first
	requests []map[string]any // server-to-client requests seen
}

func startLegacyStdio(t *testing.T, s *Server) *lgPeer {
	return &lgPeer{stdioPeer: startStdio(t, s, 0)}
}

func (p *lgPeer) call(id, method, params string) {
	p.t.Helper()
	line := `{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `"`
	if params != "" {
		line += `,"params":` + params
	}
	p.send(line + "}")
}

func (p *lgPeer) notify(method, params string) {
	p.t.Helper()
	line := `{"jsonrpc":"2.0","method":"` + method + `"`
	if params != "" {
		line += `,"params":` + params
	}
	p.send(line + "}")
}

// nextRaw returns the next output line, unparsed.
func (p *lgPeer) nextRaw() string {
	p.t.Helper()
	select {
	case line, ok := <-p.lines:
		if !ok {
			p.t.Fatal("output closed")
		}
		return line
	case <-time.After(3 * time.Second):
		p.t.Fatal("no output line")
		return ""
	}
}

// response returns the response with id, recording what came before it.
func (p *lgPeer) response(id string) (map[string]any, string) {
	p.t.Helper()
	for {
		line := p.nextRaw()
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			p.t.Fatalf("output line is not JSON: %q", line)
		}
		switch {
		case m["method"] != nil && m["id"] != nil:
			p.requests = append(p.requests, m)
		case m["method"] != nil:
			p.notes = append(p.notes, m)
		case idOf(m) == id:
			return m, line
		default:
			p.t.Fatalf("unexpected line %s while waiting for id %s", line, id)
		}
	}
}

// serverRequest returns the next server-to-client request.
func (p *lgPeer) serverRequest() map[string]any {
	p.t.Helper()
	if len(p.requests) > 0 {
		m := p.requests[0]
		p.requests = p.requests[1:]
		return m
	}
	for {
		m := p.next()
		if m["method"] != nil && m["id"] != nil {
			return m
		}
		if m["method"] == nil {
			p.t.Fatalf("response %v before the server request", m)
		}
		p.notes = append(p.notes, m)
	}
}

// notification returns the next notification.
func (p *lgPeer) notification() map[string]any {
	p.t.Helper()
	if len(p.notes) > 0 {
		m := p.notes[0]
		p.notes = p.notes[1:]
		return m
	}
	m := p.next()
	if m["method"] == nil || m["id"] != nil {
		p.t.Fatalf("got %v, want a notification", m)
	}
	return m
}

func (p *lgPeer) initialize(version, caps string) map[string]any {
	p.t.Helper()
	p.call("0", "initialize", `{"protocolVersion":"`+version+`","capabilities":`+caps+`,"clientInfo":{"name":"legacy-test","version":"1.0"}}`)
	m, _ := p.response("0")
	res, ok := m["result"].(map[string]any)
	if !ok {
		p.t.Fatalf("initialize: %v", m)
	}
	p.notify("notifications/initialized", "")
	return res
}

func resultOf(t *testing.T, m map[string]any) map[string]any {
	t.Helper()
	res, ok := m["result"].(map[string]any)
	if !ok {
		t.Fatalf("want a result, got %v", m)
	}
	return res
}

// noModernFields fails when a legacy result carries 2026-07-28 members.
func noModernFields(t *testing.T, what string, res map[string]any) {
	t.Helper()
	for _, k := range []string{"resultType", "ttlMs", "cacheScope"} {
		if _, ok := res[k]; ok {
			t.Errorf("%s: legacy result carries %q: %v", what, k, res)
		}
	}
	if meta, ok := res["_meta"].(map[string]any); ok && meta[keyServerInfo] != nil {
		t.Errorf("%s: legacy result carries _meta serverInfo", what)
	}
}

func lgText(t *testing.T, res map[string]any) string {
	t.Helper()
	content, _ := res["content"].([]any)
	if len(content) == 0 {
		t.Fatalf("no content: %v", res)
	}
	text, _ := content[0].(map[string]any)["text"].(string)
	return text
}

const fullCaps = `{"elicitation":{},"sampling":{},"roots":{"listChanged":true}}`

func TestLegacyStdioSession(t *testing.T) {
	f := newFixture(t)
	p := startLegacyStdio(t, f.s)

	init := p.initialize("2025-11-25", fullCaps)
	if init["protocolVersion"] != "2025-11-25" || init["instructions"] != "test server" {
		t.Fatalf("initialize result %v", init)
	}
	if info, _ := init["serverInfo"].(map[string]any); info["name"] != "fixture" || info["version"] != "1.2.3" {
		t.Errorf("serverInfo %v", init["serverInfo"])
	}
	caps, _ := init["capabilities"].(map[string]any)
	tools, _ := caps["tools"].(map[string]any)
	res, _ := caps["resources"].(map[string]any)
	if caps["logging"] == nil || tools["listChanged"] != true || res["subscribe"] != true || caps["prompts"] == nil || caps["completions"] == nil {
		t.Errorf("capabilities %v", caps)
	}
	noModernFields(t, "initialize", init)

	p.call("1", "ping", "")
	if _, line := p.response("1"); line != `{"jsonrpc":"2.0","id":1,"result":{}}` {
		t.Errorf("ping answered %s, want exactly {}", line)
	}

	m, _ := p.response0(t, "2", "tools/list", "")
	list := resultOf(t, m)
	noModernFields(t, "tools/list", list)
	if tl, _ := list["tools"].([]any); len(tl) != len(fixtureTools(newGate())) {
		t.Errorf("tools/list has %d tools", len(tl))
	}

	m, _ = p.response0(t, "3", "tools/call", `{"name":"echo","arguments":{"text":"hi"}}`)
	call := resultOf(t, m)
	noModernFields(t, "tools/call", call)
	if lgText(t, call) != "hi" {
		t.Errorf("echo %v", call)
	}

	// A handler's Ask becomes a real elicitation/create request.
	p.call("4", "tools/call", `{"name":"ask_name"}`)
	req := p.serverRequest()
	if req["method"] != "elicitation/create" {
		t.Fatalf("server request %v", req)
	}
	if params, _ := req["params"].(map[string]any); params["message"] != "What is your name?" || params["requestedSchema"] == nil {
		t.Errorf("elicitation params %v", req["params"])
	}
	p.send(`{"jsonrpc":"2.0","id":` + idOf(req) + `,"result":{"action":"accept","content":{"name":"Ada"}}}`)
	m, _ = p.response("4")
	if got := lgText(t, resultOf(t, m)); got != "Hello, Ada!" {
		t.Errorf("ask_name answered %q", got)
	}

	// Logging: nothing before logging/setLevel, then at or above the level.
	m, _ = p.response0(t, "5", "tools/call", `{"name":"logs"}`)
	resultOf(t, m)
	if len(p.notes) != 0 {
		t.Errorf("log notifications before logging/setLevel: %v", p.notes)
	}
	p.call("6", "logging/setLevel", `{"level":"info"}`)
	if _, line := p.response("6"); line != `{"jsonrpc":"2.0","id":6,"result":{}}` {
		t.Errorf("logging/setLevel answered %s, want exactly {}", line)
	}
	m, _ = p.response0(t, "7", "tools/call", `{"name":"logs"}`)
	resultOf(t, m)
	var levels []string
	for _, n := range p.notes {
		if n["method"] == "notifications/message" {
			levels = append(levels, n["params"].(map[string]any)["level"].(string))
		}
	}
	p.notes = nil
	if strings.Join(levels, ",") != "info,error" {
		t.Errorf("log levels sent %v, want info,error", levels)
	}

	// list_changed arrives unsolicited.
	if err := f.s.AddTools(NewTool(ToolInfo{Name: "added", Description: "Added later"}, func(ctx context.Context, in noArgs) (string, error) { return "ok", nil })); err != nil {
		t.Fatal(err)
	}
	if n := p.notification(); n["method"] != "notifications/tools/list_changed" {
		t.Errorf("after AddTools: %v", n)
	}

	// resources/subscribe → resources/updated for that URI only.
	p.call("8", "resources/subscribe", `{"uri":"test://static-text"}`)
	if _, line := p.response("8"); line != `{"jsonrpc":"2.0","id":8,"result":{}}` {
		t.Errorf("resources/subscribe answered %s", line)
	}
	f.s.ResourceUpdated("test://other")
	f.s.ResourceUpdated("test://static-text")
	n := p.notification()
	if n["method"] != "notifications/resources/updated" || n["params"].(map[string]any)["uri"] != "test://static-text" {
		t.Errorf("after ResourceUpdated: %v", n)
	}
	p.call("9", "resources/unsubscribe", `{"uri":"test://static-text"}`)
	p.response("9")
	f.s.ResourceUpdated("test://static-text")
	f.s.RemoveTools("added")
	if n := p.notification(); n["method"] != "notifications/tools/list_changed" {
		t.Errorf("after unsubscribe and RemoveTools: %v (want no resources/updated)", n)
	}

	// A modern request on the same connection is served statelessly.
	p.request("10", "tools/list", `{}`)
	m, _ = p.response("10")
	if resultOf(t, m)["resultType"] != "complete" {
		t.Errorf("modern request on a legacy connection: %v", m)
	}
	// Methods the legacy revision lacks are -32601.
	m, _ = p.response0(t, "11", "server/discover", "")
	if e, _ := m["error"].(map[string]any); e == nil || e["code"] != float64(-32601) {
		t.Errorf("legacy server/discover: %v", m)
	}
}

// response0 sends a request and returns its response.
func (p *lgPeer) response0(t *testing.T, id, method, params string) (map[string]any, string) {
	t.Helper()
	p.call(id, method, params)
	return p.response(id)
}

func TestLegacyStdioVersionNegotiation(t *testing.T) {
	for _, tc := range []struct{ asked, want string }{
		{"2025-11-25", "2025-11-25"}, {"2025-06-18", "2025-06-18"}, {"2025-03-26", "2025-03-26"},
		{"2024-11-05", "2024-11-05"}, {"1999-01-01", "2025-11-25"}, {"2026-07-28", "2025-11-25"},
	} {
		t.Run(tc.asked, func(t *testing.T) {
			f := newFixture(t)
			p := startLegacyStdio(t, f.s)
			init := p.initialize(tc.asked, `{}`)
			if init["protocolVersion"] != tc.want {
				t.Fatalf("asked %s, negotiated %v, want %s", tc.asked, init["protocolVersion"], tc.want)
			}
			caps := init["capabilities"].(map[string]any)
			if _, ok := caps["completions"]; ok != (tc.want >= "2025-03-26") {
				t.Errorf("completions declared %v at %s", ok, tc.want)
			}
			m, _ := p.response0(t, "1", "tools/call", `{"name":"weather_current","arguments":{"location":"Paris"}}`)
			res := resultOf(t, m)
			noModernFields(t, "tools/call", res)
			if _, ok := res["structuredContent"]; ok != (tc.want >= "2025-06-18") {
				t.Errorf("structuredContent present %v at %s", ok, tc.want)
			}
			if !strings.Contains(lgText(t, res), "Paris") {
				t.Errorf("weather %v", res)
			}
		})
	}
}

func TestLegacyContentConversion(t *testing.T) {
	media := NewTool(ToolInfo{Name: "media", Description: "Audio and a link"}, func(ctx context.Context, in noArgs) ([]mcp.ContentBlock, error) {
		return []mcp.ContentBlock{
			&mcp.AudioContent{Data: []byte("RIFF"), MIMEType: "audio/wav"},
			&mcp.ResourceLink{URI: "test://static-text", Name: "static-text"},
		}, nil
	})
	for _, tc := range []struct{ version, audio, link string }{
		{"2025-11-25", "audio", "resource_link"},
		{"2025-06-18", "audio", "resource_link"},
		{"2025-03-26", "audio", "text"},
		{"2024-11-05", "text", "text"},
	} {
		t.Run(tc.version, func(t *testing.T) {
			f := newFixture(t, func(o *Options) { o.Tools = append(o.Tools, media) })
			p := startLegacyStdio(t, f.s)
			p.initialize(tc.version, `{}`)
			m, _ := p.response0(t, "1", "tools/call", `{"name":"media"}`)
			content, _ := resultOf(t, m)["content"].([]any)
			if len(content) != 2 {
				t.Fatalf("content %v", content)
			}
			a, l := content[0].(map[string]any), content[1].(map[string]any)
			if a["type"] != tc.audio || l["type"] != tc.link {
				t.Fatalf("types %v/%v, want %s/%s", a["type"], l["type"], tc.audio, tc.link)
			}
			if tc.link == "text" && l["text"] != "static-text: test://static-text" {
				t.Errorf("converted link %v", l)
			}
			if tc.audio == "text" && !strings.Contains(a["text"].(string), "audio/wav") {
				t.Errorf("converted audio %v", a)
			}
		})
	}
}

func TestLegacyStdioAllInputKinds(t *testing.T) {
	f := newFixture(t)
	p := startLegacyStdio(t, f.s)
	p.initialize("2025-11-25", fullCaps)
	p.call("1", "tools/call", `{"name":"multi_input"}`)
	answers := map[string]string{
		"elicitation/create":     `{"action":"accept","content":{"name":"Grace"}}`,
		"sampling/createMessage": `{"role":"assistant","content":{"type":"text","text":"Howdy"},"model":"test-model"}`,
		"roots/list":             `{"roots":[{"uri":"file:///a"},{"uri":"file:///b"}]}`,
	}
	for range 3 {
		req := p.serverRequest()
		answer, ok := answers[req["method"].(string)]
		if !ok {
			t.Fatalf("unexpected server request %v", req)
		}
		delete(answers, req["method"].(string))
		p.send(`{"jsonrpc":"2.0","id":` + idOf(req) + `,"result":` + answer + `}`)
	}
	m, _ := p.response("1")
	if got := lgText(t, resultOf(t, m)); got != "Howdy Grace — 2 root(s)" {
		t.Errorf("multi_input answered %q", got)
	}
}

func TestLegacyStdioAskErrors(t *testing.T) {
	f := newFixture(t)
	p := startLegacyStdio(t, f.s)
	p.initialize("2025-11-25", `{"sampling":{}}`)
	// The client did not declare elicitation: -32021, no request is sent.
	m, _ := p.response0(t, "1", "tools/call", `{"name":"ask_name"}`)
	if e, _ := m["error"].(map[string]any); e == nil || e["code"] != float64(-32021) {
		t.Fatalf("ask without the capability: %v", m)
	}
	if len(p.requests) != 0 {
		t.Errorf("server requests sent: %v", p.requests)
	}

	// A client error answer becomes the request's JSON-RPC error.
	p2 := startLegacyStdio(t, f.s)
	p2.initialize("2025-11-25", fullCaps)
	p2.call("1", "tools/call", `{"name":"ask_name"}`)
	req := p2.serverRequest()
	p2.send(`{"jsonrpc":"2.0","id":` + idOf(req) + `,"error":{"code":-32600,"message":"user refused"}}`)
	m, _ = p2.response("1")
	if e, _ := m["error"].(map[string]any); e == nil || !strings.Contains(fmt.Sprint(e["message"]), "user refused") {
		t.Errorf("client error: %v", m)
	}

	// Cancelling the call cancels the server's request too.
	p2.call("2", "tools/call", `{"name":"ask_name"}`)
	req = p2.serverRequest()
	p2.notify("notifications/cancelled", `{"requestId":2}`)
	n := p2.notification()
	if n["method"] != "notifications/cancelled" || idOf(map[string]any{"id": n["params"].(map[string]any)["requestId"]}) != idOf(req) {
		t.Errorf("after cancelling: %v, want notifications/cancelled for %s", n, idOf(req))
	}
}

func TestLegacyStdioBeforeInitialize(t *testing.T) {
	f := newFixture(t)
	p := startLegacyStdio(t, f.s)
	// Without initialize a request lacking the modern _meta is a modern error.
	m, _ := p.response0(t, "1", "tools/list", "")
	if e, _ := m["error"].(map[string]any); e == nil || e["code"] != float64(-32602) {
		t.Errorf("tools/list before initialize: %v", m)
	}
	m, _ = p.response0(t, "2", "initialize", `{"protocolVersion":"2025-11-25"}`)
	if e, _ := m["error"].(map[string]any); e == nil || e["code"] != float64(-32602) {
		t.Errorf("initialize without capabilities: %v", m)
	}
	init := p.initialize("2025-06-18", `{}`)
	if init["protocolVersion"] != "2025-06-18" {
		t.Errorf("initialize after a failed one: %v", init)
	}
	m, _ = p.response0(t, "3", "initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}`)
	if e, _ := m["error"].(map[string]any); e == nil || e["code"] != float64(-32600) {
		t.Errorf("second initialize: %v", m)
	}
	// An initialize with the modern _meta is a modern request: -32601.
	p.request("4", "initialize", `{}`)
	m, _ = p.response("4")
	if e, _ := m["error"].(map[string]any); e == nil || e["code"] != float64(-32601) {
		t.Errorf("modern initialize: %v", m)
	}
}

// TestLegacyStdioInputRequiredFallback serves a handler that returns
// InputRequiredError itself (with state) instead of blocking in Ask: the
// session asks the client and runs the handler again with the answer.
func TestLegacyStdioInputRequiredFallback(t *testing.T) {
	direct := NewTool(ToolInfo{Name: "direct", Description: "Returns InputRequiredError itself"}, func(ctx context.Context, in noArgs) (string, error) {
		if State(ctx) == nil {
			if err := SetState(ctx, json.RawMessage(`{"step":1}`)); err != nil {
				return "", err
			}
			return "", &InputRequiredError{Requests: map[string]mcp.InputRequest{"k": elicitName("Direct?")}}
		}
		resp, err := Ask(ctx, "k", elicitName("Direct?"))
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%s after %s", resp.(*mcp.ElicitResult).Content["name"], State(ctx)), nil
	})
	f := newFixture(t, func(o *Options) { o.Tools = append(o.Tools, direct) })
	p := startLegacyStdio(t, f.s)
	p.initialize("2025-11-25", fullCaps)
	p.call("1", "tools/call", `{"name":"direct"}`)
	req := p.serverRequest()
	if req["method"] != "elicitation/create" {
		t.Fatalf("server request %v", req)
	}
	p.send(`{"jsonrpc":"2.0","id":` + idOf(req) + `,"result":{"action":"accept","content":{"name":"Kay"}}}`)
	m, _ := p.response("1")
	if got := lgText(t, resultOf(t, m)); got != `Kay after {"step":1}` {
		t.Errorf("direct answered %q", got)
	}
}
