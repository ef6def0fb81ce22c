package server

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/jsonrpc"
)

type echoParams struct {
	Text  string `json:"text"`
	Times int    `json:"times"`
}

type echoResult struct {
	Echo string         `json:"echo"`
	Meta map[string]any `json:"_meta,omitempty"`
}

type deepParams struct {
	echoParams              // promoted: text, times
	Inner      echoParams   `json:"inner"`
	List       []echoParams `json:"list"`
}

type echoSettings struct {
	Loud bool `json:"loud"`
}

// echoExtension is a user extension with a cacheable and a plain method.
func echoExtension(mods ...func(*Extension)) Extension {
	e := Extension{
		ID:       "com.example/echo",
		Settings: echoSettings{Loud: true},
		Legacy:   true,
		Methods: []ExtensionMethod{
			NewMethod(MethodInfo{Name: "echo/say", Cacheable: true}, func(ctx context.Context, p echoParams) (*echoResult, error) {
				if p.Text == "" {
					return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "Invalid params: params.text: must not be empty", nil)
				}
				return &echoResult{Echo: strings.Repeat(p.Text, max(p.Times, 1))}, nil
			}),
			NewMethod(MethodInfo{Name: "echo/meta"}, func(ctx context.Context, _ json.RawMessage) (echoResult, error) {
				return echoResult{Echo: "m", Meta: map[string]any{"com.example/x": 1}}, nil
			}),
			NewMethod(MethodInfo{Name: "echo/deep"}, func(ctx context.Context, p deepParams) (*echoResult, error) {
				return &echoResult{Echo: p.Inner.Text}, nil
			}),
			NewMethod(MethodInfo{Name: "echo/panic"}, func(ctx context.Context, _ struct{}) (*echoResult, error) {
				panic("extension panic")
			}),
		},
	}
	for _, m := range mods {
		m(&e)
	}
	return e
}

func newExtServer(t *testing.T, exts ...Extension) *Server {
	t.Helper()
	s, err := New(Options{Name: "ext-test", Extensions: exts, Cache: CachePolicy{TTLMs: 1234, Scope: "private"},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}) // the panic case logs its stack
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestExtensionDeclaredAndDispatched(t *testing.T) {
	s := newExtServer(t, echoExtension())

	disc := rpc(t, s, "server/discover", `{}`)
	wantResult(t, disc)
	var d struct {
		Capabilities struct {
			Extensions map[string]map[string]any `json:"extensions"`
		} `json:"capabilities"`
	}
	if err := json.Unmarshal(disc.Result, &d); err != nil {
		t.Fatal(err)
	}
	if got := d.Capabilities.Extensions["com.example/echo"]; got == nil || got["loud"] != true {
		t.Fatalf("capabilities.extensions = %v, want com.example/echo {loud: true}", d.Capabilities.Extensions)
	}
	if _, ok := d.Capabilities.Extensions[TasksExtension]; ok {
		t.Errorf("tasks declared without a task tool: %v", d.Capabilities.Extensions)
	}

	r := rpc(t, s, "echo/say", `{"text":"ab","times":2}`)
	wantResult(t, r)
	var res map[string]any
	if err := json.Unmarshal(r.Result, &res); err != nil {
		t.Fatal(err)
	}
	if res["echo"] != "abab" || res["resultType"] != "complete" || res["ttlMs"] != float64(1234) || res["cacheScope"] != "private" {
		t.Errorf("echo/say result = %s", r.Result)
	}
	if meta, _ := res["_meta"].(map[string]any); meta[keyServerInfo] == nil {
		t.Errorf("echo/say result lacks serverInfo: %s", r.Result)
	}

	// Nested and promoted members with their exact names decode.
	r = rpc(t, s, "echo/deep", `{"text":"t","times":1,"inner":{"text":"x"},"list":[{"text":"y"}],"unknown":{"Text":1}}`)
	wantResult(t, r)
	if !strings.Contains(string(r.Result), `"echo":"x"`) {
		t.Errorf("echo/deep = %s", r.Result)
	}

	// A non-cacheable method gets no cache fields; its own _meta is kept
	// beside serverInfo.
	r = rpc(t, s, "echo/meta", `{}`)
	wantResult(t, r)
	res = nil
	_ = json.Unmarshal(r.Result, &res)
	if _, ok := res["ttlMs"]; ok {
		t.Errorf("echo/meta carries ttlMs: %s", r.Result)
	}
	meta, _ := res["_meta"].(map[string]any)
	if meta["com.example/x"] != float64(1) || meta[keyServerInfo] == nil {
		t.Errorf("echo/meta _meta = %v", meta)
	}
}

func TestExtensionErrorsAreCoreErrors(t *testing.T) {
	s := newExtServer(t, echoExtension())
	cases := []struct {
		name, msg string
		code      int64
		mention   string
	}{
		{"no _meta", `{"jsonrpc":"2.0","id":1,"method":"echo/say","params":{"text":"a"}}`, jsonrpc.CodeInvalidParams, "_meta"},
		{"bad version", `{"jsonrpc":"2.0","id":1,"method":"echo/say","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"1999-01-01","io.modelcontextprotocol/clientCapabilities":{}},"text":"a"}}`, -32022, ""},
		{"wrong type", `{"jsonrpc":"2.0","id":1,"method":"echo/say","params":{"_meta":` + defaultMeta + `,"text":5}}`, jsonrpc.CodeInvalidParams, "params.text"},
		{"case-folded name", `{"jsonrpc":"2.0","id":1,"method":"echo/say","params":{"_meta":` + defaultMeta + `,"Text":"a"}}`, jsonrpc.CodeInvalidParams, "case-sensitive"},
		{"duplicate member", `{"jsonrpc":"2.0","id":1,"method":"echo/say","params":{"_meta":` + defaultMeta + `,"text":"a","text":"b"}}`, jsonrpc.CodeInvalidParams, "duplicate"},
		{"nested duplicate", `{"jsonrpc":"2.0","id":1,"method":"echo/deep","params":{"_meta":` + defaultMeta + `,"inner":{"text":"a","text":"b"}}}`, jsonrpc.CodeInvalidParams, `params.inner: duplicate member "text"`},
		{"nested case-folded name", `{"jsonrpc":"2.0","id":1,"method":"echo/deep","params":{"_meta":` + defaultMeta + `,"list":[{"text":"a"},{"TEXT":"b"}]}}`, jsonrpc.CodeInvalidParams, "params.list[1].TEXT"},
		{"duplicate inside an unknown member", `{"jsonrpc":"2.0","id":1,"method":"echo/deep","params":{"_meta":` + defaultMeta + `,"extra":{"a":1,"a":2}}}`, jsonrpc.CodeInvalidParams, `params.extra: duplicate member "a"`},
		{"embedded field case-folded", `{"jsonrpc":"2.0","id":1,"method":"echo/deep","params":{"_meta":` + defaultMeta + `,"Times":2}}`, jsonrpc.CodeInvalidParams, "params.Times"},
		{"handler's own error", `{"jsonrpc":"2.0","id":1,"method":"echo/say","params":{"_meta":` + defaultMeta + `}}`, jsonrpc.CodeInvalidParams, "must not be empty"},
		{"panic", `{"jsonrpc":"2.0","id":1,"method":"echo/panic","params":{"_meta":` + defaultMeta + `}}`, jsonrpc.CodeInternalError, "panicked"},
		{"unknown method", `{"jsonrpc":"2.0","id":1,"method":"echo/nope","params":{"_meta":` + defaultMeta + `}}`, jsonrpc.CodeMethodNotFound, "echo/nope"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, _ := rawRPC(t, s, c.msg, nil)
			wantError(t, r, c.code)
			if !strings.Contains(r.Error.Message, c.mention) {
				t.Errorf("message %q does not mention %q", r.Error.Message, c.mention)
			}
		})
	}
}

func TestExtensionClientMustDeclare(t *testing.T) {
	s := newExtServer(t, echoExtension(func(e *Extension) { e.ClientMustDeclare = true }))
	r := rpc(t, s, "echo/say", `{"text":"a"}`)
	wantError(t, r, -32021)
	if !strings.Contains(string(r.Error.Data), `"com.example/echo"`) {
		t.Errorf("-32021 data does not name the extension: %s", r.Error.Data)
	}
	meta := `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"com.example/echo":{}}}}`
	r, _ = rpcMeta(t, s, "echo/say", `{"text":"a"}`, meta, nil)
	wantResult(t, r)
}

func TestExtensionRequiresAndOffered(t *testing.T) {
	offered := false
	s := newExtServer(t, echoExtension(func(e *Extension) {
		e.Requires = []string{"resources"}
		e.Offered = func() bool { return offered }
	}))
	check := func(wantDeclared bool) {
		t.Helper()
		disc := rpc(t, s, "server/discover", `{}`)
		declared := strings.Contains(string(disc.Result), `"com.example/echo"`)
		if declared != wantDeclared {
			t.Fatalf("declared = %v, want %v: %s", declared, wantDeclared, disc.Result)
		}
		r := rpc(t, s, "echo/say", `{"text":"a"}`)
		if wantDeclared {
			wantResult(t, r)
		} else {
			wantError(t, r, jsonrpc.CodeMethodNotFound)
		}
	}
	check(false) // no resources, not offered
	offered = true
	check(false) // still no resources
	if err := s.AddResources(NewResource(ResourceInfo{URI: "test://a", Name: "a"}, func(ctx context.Context) (string, error) { return "a", nil })); err != nil {
		t.Fatal(err)
	}
	check(true)
	offered = false
	check(false)
}

func TestExtensionConfigurationErrors(t *testing.T) {
	good := NewMethod(MethodInfo{Name: "x/y"}, func(ctx context.Context, _ struct{}) (struct{}, error) { return struct{}{}, nil })
	cases := []struct {
		name string
		exts []Extension
		want string
	}{
		{"no ID", []Extension{{Methods: []ExtensionMethod{good}}}, "needs an ID"},
		{"duplicate ID", []Extension{{ID: "a/b"}, {ID: "a/b"}}, "duplicate extension ID"},
		{"ID without a prefix", []Extension{{ID: "notes"}}, "vendor prefix"},
		{"ID with a space", []Extension{{ID: "com.example/my notes"}}, "vendor prefix"},
		{"tasks ID", []Extension{{ID: TasksExtension}}, "duplicate extension ID"},
		{"settings not an object", []Extension{{ID: "a/b", Settings: []int{1}}}, "JSON object"},
		{"core method", []Extension{{ID: "a/b", Methods: []ExtensionMethod{NewMethod(MethodInfo{Name: "tools/list"}, func(ctx context.Context, _ struct{}) (struct{}, error) { return struct{}{}, nil })}}}, "core method"},
		{"client-side method", []Extension{{ID: "a/b", Methods: []ExtensionMethod{NewMethod(MethodInfo{Name: "sampling/createMessage"}, func(ctx context.Context, _ struct{}) (struct{}, error) { return struct{}{}, nil })}}}, "core method"},
		{"removed method", []Extension{{ID: "a/b", Methods: []ExtensionMethod{NewMethod(MethodInfo{Name: "ping"}, func(ctx context.Context, _ struct{}) (struct{}, error) { return struct{}{}, nil })}}}, "core method"},
		{"tasks method", []Extension{{ID: "a/b", Methods: []ExtensionMethod{NewMethod(MethodInfo{Name: "tasks/get"}, func(ctx context.Context, _ struct{}) (struct{}, error) { return struct{}{}, nil })}}}, "already served"},
		{"zero method", []Extension{{ID: "a/b", Methods: []ExtensionMethod{{}}}}, "zero ExtensionMethod"},
		{"unnamed method", []Extension{{ID: "a/b", Methods: []ExtensionMethod{NewMethod(MethodInfo{}, func(ctx context.Context, _ struct{}) (struct{}, error) { return struct{}{}, nil })}}}, "needs a name"},
		{"bad requirement", []Extension{{ID: "a/b", Requires: []string{"sampling"}}}, "Requires"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := New(Options{Name: "x", Extensions: c.exts})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("New error = %v, want one mentioning %q", err, c.want)
			}
		})
	}
}

// A Legacy extension is served in initialize-era sessions, its result
// converted; one without Legacy stays -32601 there.
func TestExtensionInLegacySession(t *testing.T) {
	s := newExtServer(t, echoExtension(), Extension{ID: "com.example/modern-only", Methods: []ExtensionMethod{
		NewMethod(MethodInfo{Name: "modern/only"}, func(ctx context.Context, _ struct{}) (struct{}, error) { return struct{}{}, nil }),
	}})
	p := startLegacyStdio(t, s)
	init := p.initialize("2025-11-25", fullCaps)
	// 2025-11-25 sessions see the Legacy extensions in the initialize result.
	exts, _ := init["capabilities"].(map[string]any)["extensions"].(map[string]any)
	if echo, _ := exts["com.example/echo"].(map[string]any); echo["loud"] != true || exts["com.example/modern-only"] != nil {
		t.Errorf("legacy initialize capabilities.extensions = %v", exts)
	}
	p.call("1", "echo/say", `{"text":"hi"}`)
	m, _ := p.response("1")
	res := resultOf(t, m)
	if res["echo"] != "hi" {
		t.Errorf("legacy echo/say = %v", res)
	}
	noModernFields(t, "echo/say", res)
	p.call("2", "modern/only", `{}`)
	m, _ = p.response("2")
	if e, _ := m["error"].(map[string]any); e == nil || e["code"] != float64(jsonrpc.CodeMethodNotFound) {
		t.Errorf("legacy modern/only = %v, want -32601", m)
	}

	// The tasks extension is modern-only: -32601 in a legacy session even
	// while a tool supports tasks.
	ts, err := New(Options{Name: "tasks-legacy", Tools: taskTools()})
	if err != nil {
		t.Fatal(err)
	}
	tp := startLegacyStdio(t, ts)
	tp.initialize("2025-11-25", fullCaps)
	tp.call("3", "tasks/get", `{"taskId":"x"}`)
	m, _ = tp.response("3")
	if e, _ := m["error"].(map[string]any); e == nil || e["code"] != float64(jsonrpc.CodeMethodNotFound) {
		t.Errorf("legacy tasks/get = %v, want -32601", m)
	}

	// Older revisions get no extensions member.
	old := startLegacyStdio(t, s)
	if caps := old.initialize("2025-06-18", fullCaps)["capabilities"].(map[string]any); caps["extensions"] != nil {
		t.Errorf("2025-06-18 initialize declares extensions: %v", caps)
	}
}

// basic/versioning.mdx: "Extension identifiers MUST follow the _meta key
// naming rules, with a mandatory prefix." basic/index.mdx (_meta): prefix
// labels "MUST start with a letter and end with a letter or digit; interior
// characters can be letters, digits, or hyphens"; the name "MUST begin and
// end with an alphanumeric character" and may contain only hyphens,
// underscores, dots and alphanumerics in between. New refuses any other
// identifier (as it does one without a prefix), so it is never advertised
// in server/discover's capabilities.extensions.
func TestExtensionIDFollowsMetaKeyRules(t *testing.T) {
	for _, id := range []string{
		"com.example/notes!", // '!' in the name
		"com.example/a/b",    // '/' in the name
		"com.example/-notes", // name starts with a hyphen
		"com.example/notes.", // name ends with a dot
		"com..example/notes", // empty label
		"9com.example/notes", // label starts with a digit
		"com.example-/notes", // label ends with a hyphen
		"com.ex_ample/notes", // '_' in a label
		"com.example/",       // no name
		"notes",              // no prefix
	} {
		t.Run(id, func(t *testing.T) {
			s, err := New(Options{Name: "x", Version: "1", Tools: []Tool{weatherTool()},
				Extensions: []Extension{{ID: id}}})
			if err != nil {
				if !strings.Contains(err.Error(), "vendor prefix and a name") {
					t.Errorf("error %q does not say what an ID must be", err)
				}
				return
			}
			disc := rpc(t, s, "server/discover", `{}`)
			wantResult(t, disc)
			var d struct {
				Capabilities struct {
					Extensions map[string]json.RawMessage `json:"extensions"`
				} `json:"capabilities"`
			}
			if err := json.Unmarshal(disc.Result, &d); err != nil {
				t.Fatal(err)
			}
			if _, ok := d.Capabilities.Extensions[id]; ok {
				t.Errorf("New accepted extension ID %q and discover advertises it: %s", id, disc.Result)
			}
			t.Errorf("New accepted extension ID %q", id)
		})
	}
	for _, id := range []string{"a/b", "com.example/notes_v2.beta", "io.modelcontextprotocol/skills", "com.my-co9/A-1"} {
		if _, err := New(Options{Name: "x", Version: "1", Extensions: []Extension{{ID: id}}}); err != nil {
			t.Errorf("valid ID %q refused: %v", id, err)
		}
	}
}
