package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// seen records what an interceptor saw of each request.
type seen struct {
	mu   sync.Mutex
	reqs []seenReq
}

type seenReq struct {
	Method, ID, Name, Session, Version string
	Meta                               bool
	Outcome                            Outcome
	Result                             string
}

func (s *seen) interceptor() Interceptor {
	return func(next Handler) Handler {
		return func(ctx context.Context, req *Request) (json.RawMessage, error) {
			res, err := next(ctx, req)
			s.mu.Lock()
			s.reqs = append(s.reqs, seenReq{
				Method: req.Method, ID: req.ID.String(), Name: req.Name, Session: req.SessionID,
				Version: req.ProtocolVersion(), Meta: req.Meta != nil,
				Outcome: OutcomeOf(req.Method, res, err), Result: string(res),
			})
			s.mu.Unlock()
			return res, err
		}
	}
}

func (s *seen) take() []seenReq {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.reqs
	s.reqs = nil
	return out
}

// TestInterceptorEveryTransportAndEra: one interceptor sees the requests
// of the stateless core and of legacy sessions, on Handle, stdio and HTTP,
// with their method, id, name, session, version and outcome.
func TestInterceptorEveryTransportAndEra(t *testing.T) {
	var rec seen
	f := newFixture(t, func(o *Options) { o.Interceptors = []Interceptor{rec.interceptor()} })
	for _, tr := range eraTransports(t, f.s) {
		t.Run(tr.name, func(t *testing.T) {
			rec.take()
			tr.send(t, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"},"_meta":`+metaFor("2026-07-28")+`}}`)
			tr.send(t, `{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"nope","_meta":`+metaFor("2026-07-28")+`}}`)
			tr.send(t, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"fail","arguments":{},"_meta":`+metaFor("2026-07-28")+`}}`)
			// An initialize-era version in _meta: one request served in that revision.
			tr.send(t, `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"text":"old"},"_meta":`+metaFor("2025-06-18")+`}}`)
			got := rec.take()
			want := []seenReq{
				{Method: "tools/call", ID: "1", Name: "echo", Version: "2026-07-28", Meta: true},
				{Method: "tools/call", ID: `"x"`, Name: "nope", Version: "2026-07-28", Meta: true, Outcome: Outcome{Code: -32602, Message: `Invalid params: Unknown tool: "nope"`}},
				{Method: "tools/call", ID: "3", Name: "fail", Version: "2026-07-28", Meta: true, Outcome: Outcome{ToolError: true}},
				{Method: "tools/call", ID: "4", Name: "echo", Version: "2025-06-18", Meta: true},
			}
			if len(got) != len(want) {
				t.Fatalf("saw %d requests: %+v", len(got), got)
			}
			for i := range want {
				g := got[i]
				g.Result = ""
				if tr.name == "Caller" { // the Caller numbers its requests itself
					g.ID = want[i].ID
				}
				if g != want[i] {
					t.Errorf("request %d: saw %+v, want %+v", i, g, want[i])
				}
			}
			if !strings.Contains(got[0].Result, `"text":"hi"`) {
				t.Errorf("result seen: %s", got[0].Result)
			}
		})
	}
}

// TestInterceptorLegacySession: in an initialize-era session (stdio) the
// interceptor sees initialize, ping and the forwarded requests, with the
// session id and the negotiated version.
func TestInterceptorLegacySession(t *testing.T) {
	var rec seen
	f := newFixture(t, func(o *Options) { o.Interceptors = []Interceptor{rec.interceptor()} })
	peer := startStdio(t, f.s, 0)
	peer.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"old","version":"1"}}}`)
	peer.next()
	peer.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	peer.send(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	peer.next()
	peer.send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}}`)
	if r := peer.next(); r["result"] == nil {
		t.Fatalf("legacy tools/call: %v", r)
	}
	got := rec.take()
	if len(got) != 3 {
		t.Fatalf("saw %+v", got)
	}
	sess := got[0].Session
	if len(sess) != 32 {
		t.Fatalf("no session id: %+v", got[0])
	}
	for i, w := range []seenReq{
		{Method: "initialize", ID: "1", Session: sess, Version: "2025-03-26"},
		{Method: "ping", ID: "2", Session: sess, Version: "2025-03-26"},
		{Method: "tools/call", ID: "3", Name: "echo", Session: sess, Version: "2025-03-26"},
	} {
		g := got[i]
		g.Result = ""
		if g != w {
			t.Errorf("request %d: %+v, want %+v", i, g, w)
		}
	}
}

// TestInterceptorOrder: Chain and Options.Interceptors run the first
// outermost; an interceptor may refuse without calling next, and its
// error is what the client gets.
func TestInterceptorOrder(t *testing.T) {
	var order []string
	var mu sync.Mutex
	mark := func(name string) Interceptor {
		return func(next Handler) Handler {
			return func(ctx context.Context, req *Request) (json.RawMessage, error) {
				mu.Lock()
				order = append(order, name+">")
				mu.Unlock()
				res, err := next(ctx, req)
				mu.Lock()
				order = append(order, "<"+name)
				mu.Unlock()
				return res, err
			}
		}
	}
	refuse := func(next Handler) Handler {
		return func(ctx context.Context, req *Request) (json.RawMessage, error) {
			if req.Name == "fail" {
				return nil, &jsonrpc.Error{Code: -32000, Message: "refused"}
			}
			if req.Name == "weather_current" {
				return nil, errors.New("plain error")
			}
			return next(ctx, req)
		}
	}
	f := newFixture(t, func(o *Options) {
		o.Interceptors = []Interceptor{mark("a"), Chain(mark("b"), mark("c")), refuse}
	})
	wantResult(t, rpc(t, f.s, "tools/call", `{"name":"echo","arguments":{"text":"x"}}`))
	if want := []string{"a>", "b>", "c>", "<c", "<b", "<a"}; !slices.Equal(order, want) {
		t.Fatalf("order %v, want %v", order, want)
	}
	r := rpc(t, f.s, "tools/call", `{"name":"fail","arguments":{}}`)
	wantError(t, r, -32000)
	r = rpc(t, f.s, "tools/call", `{"name":"weather_current","arguments":{"location":"x"}}`)
	wantError(t, r, -32603)
	if !strings.Contains(r.Error.Message, "plain error") {
		t.Fatalf("message %q", r.Error.Message)
	}
}

// TestRecoverInterceptor: a panic in an interceptor (or below) becomes
// -32603, logged with the stack, and the server keeps serving; a handler
// panic reaches the interceptors as -32603 too.
func TestRecoverInterceptor(t *testing.T) {
	var logs bytes.Buffer
	var mu sync.Mutex
	logger := slog.New(slog.NewJSONHandler(lockedWriter{&mu, &logs}, nil))
	var rec seen
	panicky := func(next Handler) Handler {
		return func(ctx context.Context, req *Request) (json.RawMessage, error) {
			if req.Name == "echo" {
				panic("interceptor bug")
			}
			return next(ctx, req)
		}
	}
	f := newFixture(t, func(o *Options) {
		o.Interceptors = []Interceptor{rec.interceptor(), Recover(logger), panicky}
	})
	r := rpc(t, f.s, "tools/call", `{"name":"echo","arguments":{"text":"x"}}`)
	wantError(t, r, -32603)
	if r.Error.Message != "Internal error: the handler panicked" {
		t.Fatalf("message %q", r.Error.Message)
	}
	wantError(t, rpc(t, f.s, "tools/call", `{"name":"boom","arguments":{}}`), -32603)
	wantResult(t, rpc(t, f.s, "tools/list", `{}`))
	got := rec.take()
	if len(got) != 3 || got[0].Outcome.Code != -32603 || got[1].Outcome.Code != -32603 || got[2].Outcome.Code != 0 {
		t.Fatalf("seen %+v", got)
	}
	mu.Lock()
	out := logs.String()
	mu.Unlock()
	if !strings.Contains(out, `"panic":"interceptor bug"`) || !strings.Contains(out, `"stack":`) || !strings.Contains(out, `"method":"tools/call"`) {
		t.Fatalf("log: %s", out)
	}
	// Without Recover in the chain the server's own recovery answers.
	g := newFixture(t, func(o *Options) { o.Interceptors = []Interceptor{panicky} })
	wantError(t, rpc(t, g.s, "tools/call", `{"name":"echo","arguments":{"text":"x"}}`), -32603)
	wantResult(t, rpc(t, g.s, "tools/list", `{}`))
}

type lockedWriter struct {
	mu *sync.Mutex
	b  *bytes.Buffer
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

// TestToolMiddleware: WrapTool wraps one tool, Options.ToolMiddleware all
// of them (outside WrapTool's); middleware sees the result, may replace
// it or the arguments (validated as the client's), and its plain errors
// are isError results.
func TestToolMiddleware(t *testing.T) {
	var calls []string
	var mu sync.Mutex
	note := func(tag string) ToolMiddleware {
		return func(next ToolHandler) ToolHandler {
			return func(ctx context.Context, call *ToolCall) (*mcp.CallToolResult, error) {
				mu.Lock()
				calls = append(calls, tag+":"+call.Name)
				mu.Unlock()
				return next(ctx, call)
			}
		}
	}
	upper := func(next ToolHandler) ToolHandler {
		return func(ctx context.Context, call *ToolCall) (*mcp.CallToolResult, error) {
			if strings.Contains(string(call.Arguments), "deny") {
				return nil, errors.New("denied by policy")
			}
			if strings.Contains(string(call.Arguments), "swap") {
				call = &ToolCall{Name: call.Name, Arguments: json.RawMessage(`{"text":"swapped"}`)}
			}
			if strings.Contains(string(call.Arguments), "bad") {
				call = &ToolCall{Name: call.Name, Arguments: json.RawMessage(`{"text":5}`)}
			}
			res, err := next(ctx, call)
			if err != nil {
				return nil, err
			}
			tc := res.Content[0].(*mcp.TextContent)
			res.Content = []mcp.ContentBlock{&mcp.TextContent{Text: strings.ToUpper(tc.Text)}}
			return res, nil
		}
	}
	echo := NewTool(ToolInfo{Name: "shout"}, func(ctx context.Context, in struct {
		Text string `json:"text" jsonschema:"required"`
	}) (string, error) {
		return in.Text, nil
	})
	f := newFixture(t, func(o *Options) {
		o.Tools = append(o.Tools, WrapTool(echo, upper, note("inner")))
		o.ToolMiddleware = []ToolMiddleware{note("all")}
	})
	text, isErr := callText(t, rpc(t, f.s, "tools/call", `{"name":"shout","arguments":{"text":"hi"}}`))
	if text != "HI" || isErr {
		t.Fatalf("shout: %q %v", text, isErr)
	}
	if want := []string{"all:shout", "inner:shout"}; !slices.Equal(calls, want) {
		t.Fatalf("calls %v, want %v", calls, want)
	}
	if text, _ := callText(t, rpc(t, f.s, "tools/call", `{"name":"shout","arguments":{"text":"swap"}}`)); text != "SWAPPED" {
		t.Fatalf("swapped arguments: %q", text)
	}
	if text, isErr := callText(t, rpc(t, f.s, "tools/call", `{"name":"shout","arguments":{"text":"deny"}}`)); !isErr || text != "denied by policy" {
		t.Fatalf("denied: %q %v", text, isErr)
	}
	if _, isErr := callText(t, rpc(t, f.s, "tools/call", `{"name":"shout","arguments":{"text":"bad"}}`)); !isErr {
		t.Fatal("arguments a middleware passed are not validated")
	}
	calls = nil
	if text, _ := callText(t, rpc(t, f.s, "tools/call", `{"name":"echo","arguments":{"text":"plain"}}`)); text != "plain" {
		t.Fatalf("echo: %q", text)
	}
	if want := []string{"all:echo"}; !slices.Equal(calls, want) {
		t.Fatalf("calls %v, want %v", calls, want)
	}
	// Tools added at run time get Options.ToolMiddleware too, and a panic
	// in middleware is -32603 like a tool's.
	calls = nil
	boom := func(next ToolHandler) ToolHandler {
		return func(ctx context.Context, call *ToolCall) (*mcp.CallToolResult, error) { panic("mw") }
	}
	if err := f.s.AddTools(WrapTool(NewTool(ToolInfo{Name: "late"}, func(ctx context.Context, in noArgs) (string, error) { return "late", nil }), boom)); err != nil {
		t.Fatal(err)
	}
	wantError(t, rpc(t, f.s, "tools/call", `{"name":"late","arguments":{}}`), -32603)
	if want := []string{"all:late"}; !slices.Equal(calls, want) {
		t.Fatalf("calls %v, want %v", calls, want)
	}
	wantResult(t, rpc(t, f.s, "tools/list", `{}`))
}

// TestVisibleFilter: Options.Visible hides items per request, from the
// lists and from calls (answered as unknown), in both eras.
func TestVisibleFilter(t *testing.T) {
	var asked []Item
	var mu sync.Mutex
	f := newFixture(t, func(o *Options) {
		o.Visible = func(ctx context.Context, it Item) bool {
			mu.Lock()
			asked = append(asked, it)
			mu.Unlock()
			if _, admin := ClientCapabilities(ctx).Experimental["admin"]; admin {
				return true
			}
			switch it.Name {
			case "fail", "greet", "test://static-text", "test://items/{id}/data":
				return false
			}
			return true
		}
	})
	userMeta := metaFor("2026-07-28")
	adminMeta := `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"experimental":{"admin":{}}}}`
	names := func(meta, method, field, key string) []string {
		r, _ := rpcMeta(t, f.s, method, `{}`, meta, nil)
		wantResult(t, r)
		var out []string
		for _, it := range r.field(t, field).([]any) {
			out = append(out, it.(map[string]any)[key].(string))
		}
		return out
	}
	for _, c := range []struct{ method, field, key, hidden string }{
		{"tools/list", "tools", "name", "fail"},
		{"prompts/list", "prompts", "name", "greet"},
		{"resources/list", "resources", "uri", "test://static-text"},
		{"resources/templates/list", "resourceTemplates", "uriTemplate", "test://items/{id}/data"},
	} {
		if got := names(userMeta, c.method, c.field, c.key); slices.Contains(got, c.hidden) {
			t.Errorf("%s for a user lists %v", c.method, got)
		}
		if got := names(adminMeta, c.method, c.field, c.key); !slices.Contains(got, c.hidden) {
			t.Errorf("%s for an admin lists %v", c.method, got)
		}
	}
	mu.Lock()
	if len(asked) == 0 || asked[0].Kind != ItemTool || !json.Valid(asked[0].Definition) {
		t.Fatalf("Visible asked %+v", asked)
	}
	mu.Unlock()
	calls := []struct{ method, params, msg string }{
		{"tools/call", `{"name":"fail","arguments":{}}`, `Unknown tool: "fail"`},
		{"prompts/get", `{"name":"greet","arguments":{"name":"a"}}`, `Unknown prompt: "greet"`},
		{"resources/read", `{"uri":"test://static-text"}`, `Resource not found`},
		{"resources/read", `{"uri":"test://items/7/data"}`, `Resource not found`},
		{"completion/complete", `{"ref":{"type":"ref/prompt","name":"greet"},"argument":{"name":"name","value":"a"}}`, `Unknown prompt: "greet"`},
		{"completion/complete", `{"ref":{"type":"ref/resource","uri":"test://items/{id}/data"},"argument":{"name":"id","value":"1"}}`, `Unknown resource template`},
	}
	for _, c := range calls {
		r, _ := rpcMeta(t, f.s, c.method, c.params, userMeta, nil)
		wantError(t, r, -32602)
		if !strings.Contains(r.Error.Message, c.msg) {
			t.Errorf("%s %s: %q", c.method, c.params, r.Error.Message)
		}
		r, _ = rpcMeta(t, f.s, c.method, c.params, adminMeta, nil)
		wantResult(t, r)
	}
	// A legacy session: the capabilities of initialize decide.
	for _, caps := range []string{`{}`, `{"experimental":{"admin":{}}}`} {
		peer := startStdio(t, f.s, 0)
		peer.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":` + caps + `,"clientInfo":{"name":"old","version":"1"}}}`)
		peer.next()
		peer.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
		list := peer.next()
		var tools []string
		for _, it := range list["result"].(map[string]any)["tools"].([]any) {
			tools = append(tools, it.(map[string]any)["name"].(string))
		}
		peer.send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"fail","arguments":{}}}`)
		call := peer.next()
		admin := caps != `{}`
		if slices.Contains(tools, "fail") != admin || (call["error"] == nil) == !admin {
			t.Errorf("legacy session with %s: tools %v, call %v", caps, tools, call)
		}
	}
}

// TestOutgoingMeta: members an interceptor puts in the context with
// WithOutgoingMeta reach the _meta of the request's progress and log
// notifications and of a legacy session's server-to-client requests.
func TestOutgoingMeta(t *testing.T) {
	tag := func(next Handler) Handler {
		return func(ctx context.Context, req *Request) (json.RawMessage, error) {
			return next(WithOutgoingMeta(ctx, map[string]string{"traceparent": "00-tp-" + req.ID.String(), "tracestate": "s=1"}), req)
		}
	}
	f := newFixture(t, func(o *Options) { o.Interceptors = []Interceptor{tag} })
	w := newRecorder()
	meta := `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":"p","io.modelcontextprotocol/logLevel":"debug"}`
	r, _ := rpcMeta(t, f.s, "tools/call", `{"name":"progress","arguments":{}}`, meta, w)
	wantResult(t, r)
	rpcMeta(t, f.s, "tools/call", `{"name":"logs","arguments":{}}`, meta, w)
	notes := w.all()
	if len(notes) < 2 {
		t.Fatalf("notifications %v", notes)
	}
	kinds := map[string]bool{}
	for _, n := range notes {
		var p struct {
			Meta map[string]string `json:"_meta"`
		}
		if err := json.Unmarshal(n.Params, &p); err != nil || p.Meta["traceparent"] != "00-tp-7" || p.Meta["tracestate"] != "s=1" {
			t.Fatalf("%s %s: %v", n.Method, n.Params, err)
		}
		kinds[n.Method] = true
	}
	if !kinds["notifications/progress"] || !kinds["notifications/message"] {
		t.Fatalf("kinds %v", kinds)
	}
	// Legacy: the elicitation/create request carries them.
	peer := startStdio(t, f.s, 0)
	peer.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"elicitation":{}},"clientInfo":{"name":"old","version":"1"}}}`)
	peer.next()
	peer.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ask_name","arguments":{}}}`)
	req := peer.next()
	params, _ := req["params"].(map[string]any)
	m, _ := params["_meta"].(map[string]any)
	if req["method"] != "elicitation/create" || m["traceparent"] != "00-tp-2" || params["message"] != "What is your name?" {
		t.Fatalf("server request %v", req)
	}
	id, _ := json.Marshal(req["id"])
	peer.send(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"action":"accept","content":{"name":"Ada"}}}`)
	if res := peer.next(); !strings.Contains(toJSONString(res), "Hello, Ada!") {
		t.Fatalf("answer %v", res)
	}
}

func toJSONString(v any) string { b, _ := json.Marshal(v); return string(b) }

// TestInterceptorLegacyEscapedName: in a legacy session the chain sees the
// target the request acts on, whatever escapes its member names use (an
// interceptor that refuses a tool by name cannot be passed by writing
// "n\u0061me").
func TestInterceptorLegacyEscapedName(t *testing.T) {
	var rec seen
	f := newFixture(t, func(o *Options) { o.Interceptors = []Interceptor{rec.interceptor()} })
	peer := startStdio(t, f.s, 0)
	peer.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"old","version":"1"}}}`)
	peer.next()
	peer.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	peer.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"n\u0061me":"echo","arguments":{"text":"x"}}}`)
	if r := peer.next(); r["result"] == nil {
		t.Fatalf("legacy tools/call with an escaped member name: %v", r)
	}
	got := rec.take()
	if len(got) != 2 || got[1].Method != "tools/call" || got[1].Name != "echo" {
		t.Fatalf("the chain saw %+v, want tools/call of echo", got)
	}
}
