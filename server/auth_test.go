package server

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// The resource-server side of authorization with a table verifier (the
// JWT and introspection verifiers, against a real authorization server,
// are tested in the oauth module).

// tableVerifier accepts the tokens of its map.
type tableVerifier map[string]*TokenInfo

func (v tableVerifier) VerifyToken(_ context.Context, token string) (*TokenInfo, error) {
	if info, ok := v[token]; ok {
		return info, nil
	}
	return nil, ErrInvalidToken
}

var authTokens = tableVerifier{
	"alice-read":  {Subject: "alice", Issuer: "https://as.test", Scopes: []string{"mcp"}},
	"alice-write": {Subject: "alice", Issuer: "https://as.test", Scopes: []string{"mcp", "files:write"}},
	"bob-write":   {Subject: "bob", Issuer: "https://as.test", Scopes: []string{"mcp", "files:write"}},
	"no-mcp":      {Subject: "carol", Issuer: "https://as.test", Scopes: []string{"files:write"}},
	"admin":       {Subject: "dave", Issuer: "https://as.test", Scopes: []string{"mcp", "admin"}},
	"expired":     {Subject: "alice", Issuer: "https://as.test", Scopes: []string{"mcp"}, Expiry: time.Now().Add(-time.Minute)},
}

// authKit is a protected server with a counter of handler runs.
type authKit struct {
	t    *testing.T
	s    *Server
	srv  *httptest.Server
	auth *Auth
	runs atomic.Int32
}

func newAuthKit(t *testing.T, mod func(*AuthOptions)) *authKit {
	t.Helper()
	k := &authKit{t: t}
	whoami := func(ctx context.Context, _ struct{}) (string, error) {
		k.runs.Add(1)
		p := Principal(ctx)
		if p == nil {
			return "nobody", nil
		}
		return p.Subject + " " + strings.Join(p.Scopes, ","), nil
	}
	write := func(ctx context.Context, _ struct{}) (string, error) {
		k.runs.Add(1)
		return "written", nil
	}
	ask := func(ctx context.Context, _ struct{}) (string, error) {
		k.runs.Add(1)
		if State(ctx) == nil {
			if err := SetState(ctx, json.RawMessage(`{"round":1}`)); err != nil {
				return "", err
			}
		}
		resp, err := Ask(ctx, "name", nameRequest())
		if err != nil {
			return "", err
		}
		return "hello " + resp.(*mcp.ElicitResult).Content["name"].(string), nil
	}
	s, err := New(Options{Name: "auth", Version: "1",
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Tools: []Tool{
			NewTool(ToolInfo{Name: "whoami"}, whoami),
			NewTool(ToolInfo{Name: "write_file", Scopes: []string{"files:write"}}, write),
			NewTool(ToolInfo{Name: "ask_name"}, ask),
			NewTool(ToolInfo{Name: "slow_task", TaskSupport: TaskSupportRequired}, whoami),
		},
		Prompts: []Prompt{NewPrompt(PromptInfo{Name: "secret_prompt", Scopes: []string{"admin"}},
			func(ctx context.Context, _ struct{}) (string, error) { k.runs.Add(1); return "psst", nil })},
		Resources: []Resource{NewResource(ResourceInfo{URI: "file:///secret", Name: "secret", Scopes: []string{"admin"}},
			func(ctx context.Context) (string, error) { k.runs.Add(1); return "s3cret", nil })},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Shutdown(context.Background()) })
	k.s = s
	mux := http.NewServeMux()
	k.srv = httptest.NewServer(mux)
	t.Cleanup(k.srv.Close)
	opts := AuthOptions{
		Verifier:             authTokens,
		Resource:             k.srv.URL + "/mcp",
		AuthorizationServers: []string{"https://as.test"},
		ScopesSupported:      []string{"mcp"},
		RequiredScopes:       []string{"mcp"},
		ScopeImplies:         map[string][]string{"admin": {"files:write"}},
	}
	if mod != nil {
		mod(&opts)
	}
	k.auth, err = NewAuth(opts)
	if err != nil {
		t.Fatal(err)
	}
	k.auth.Mount(mux)
	mux.Handle("/mcp", s.HTTPHandler(HTTPOptions{Auth: k.auth}))
	return k
}

// post sends body with the standard headers plus hdrs.
func (k *authKit) post(body string, hdrs ...string) (*http.Response, map[string]any) {
	k.t.Helper()
	var m map[string]any
	method, name := "", ""
	_ = json.Unmarshal([]byte(body), &m)
	if m != nil {
		method, _ = m["method"].(string)
		if p, ok := m["params"].(map[string]any); ok {
			name, _ = p["name"].(string)
			if u, ok := p["uri"].(string); ok {
				name = u
			}
			if id, ok := p["taskId"].(string); ok {
				name = id
			}
		}
	}
	resp, err := k.srv.Client().Do(newPost(k.t, k.srv.URL+"/mcp", body, stdHeaders(method, name, hdrs...)))
	if err != nil {
		k.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		k.t.Fatalf("response body %q: %v", raw, err)
	}
	return resp, out
}

func bearer(tok string) []string { return []string{"Authorization", "Bearer " + tok} }

// challenge parses a WWW-Authenticate Bearer challenge's parameters.
func challenge(t *testing.T, h string) map[string]string {
	t.Helper()
	if !strings.HasPrefix(h, "Bearer ") {
		t.Fatalf("WWW-Authenticate %q is not a Bearer challenge", h)
	}
	out := map[string]string{}
	for _, m := range regexp.MustCompile(`(\w+)="([^"]*)"`).FindAllStringSubmatch(h, -1) {
		out[m[1]] = m[2]
	}
	return out
}

func TestAuthProtectedResourceMetadata(t *testing.T) {
	k := newAuthKit(t, nil)
	if got, want := k.auth.MetadataURL(), k.srv.URL+"/.well-known/oauth-protected-resource/mcp"; got != want {
		t.Errorf("MetadataURL = %q, want %q", got, want)
	}
	for _, path := range []string{"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"} {
		resp, err := http.Get(k.srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		err = json.NewDecoder(resp.Body).Decode(&doc)
		resp.Body.Close()
		if err != nil || resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" {
			t.Fatalf("GET %s: %d %q %v", path, resp.StatusCode, resp.Header.Get("Content-Type"), err)
		}
		if doc["resource"] != k.srv.URL+"/mcp" {
			t.Errorf("%s: resource = %v", path, doc["resource"])
		}
		if as, _ := doc["authorization_servers"].([]any); len(as) != 1 || as[0] != "https://as.test" {
			t.Errorf("%s: authorization_servers = %v", path, doc["authorization_servers"])
		}
		if sc, _ := doc["scopes_supported"].([]any); len(sc) != 1 || sc[0] != "mcp" {
			t.Errorf("%s: scopes_supported = %v", path, doc["scopes_supported"])
		}
		if bm, _ := doc["bearer_methods_supported"].([]any); len(bm) != 1 || bm[0] != "header" {
			t.Errorf("%s: bearer_methods_supported = %v", path, doc["bearer_methods_supported"])
		}
	}
}

func TestNewAuthRejectsBadOptions(t *testing.T) {
	for name, opts := range map[string]AuthOptions{
		"no verifier":  {Resource: "https://x/mcp", AuthorizationServers: []string{"https://as"}},
		"no resource":  {Verifier: authTokens, AuthorizationServers: []string{"https://as"}},
		"relative":     {Verifier: authTokens, Resource: "/mcp", AuthorizationServers: []string{"https://as"}},
		"fragment":     {Verifier: authTokens, Resource: "https://x/mcp#f", AuthorizationServers: []string{"https://as"}},
		"no AS":        {Verifier: authTokens, Resource: "https://x/mcp"},
		"bad AS":       {Verifier: authTokens, Resource: "https://x/mcp", AuthorizationServers: []string{"as.example"}},
		"scope spaces": {Verifier: authTokens, Resource: "https://x/mcp", AuthorizationServers: []string{"https://as"}, ScopesSupported: []string{"a b"}},
	} {
		if _, err := NewAuth(opts); err == nil {
			t.Errorf("%s: NewAuth accepted %+v", name, opts)
		}
	}
	_, err := New(Options{Name: "x", Tools: []Tool{NewTool(ToolInfo{Name: "t", Scopes: []string{`bad"scope`}},
		func(context.Context, struct{}) (string, error) { return "", nil })}})
	if err == nil || !strings.Contains(err.Error(), `tool "t": scope`) {
		t.Errorf("New with an invalid tool scope: %v", err)
	}
}

// TestAuthBearerRejections: every kind of missing, malformed or invalid
// credential gets its status and challenge, and no handler runs.
func TestAuthBearerRejections(t *testing.T) {
	k := newAuthKit(t, nil)
	call := callBody("1", "whoami", "{}")
	cases := []struct {
		name   string
		body   string
		hdrs   []string
		status int
		errc   string // error= of the challenge ("" none)
		scope  string
	}{
		{"no header", call, nil, 401, "", "mcp"},
		{"basic scheme", call, []string{"Authorization", "Basic YTpi"}, 401, "", "mcp"},
		{"empty bearer", call, []string{"Authorization", "Bearer "}, 400, "invalid_request", "mcp"},
		{"bearer only", call, []string{"Authorization", "Bearer"}, 400, "invalid_request", "mcp"},
		{"two tokens", call, []string{"Authorization", "Bearer a b"}, 400, "invalid_request", "mcp"},
		{"bad chars", call, []string{"Authorization", "Bearer a,b"}, 400, "invalid_request", "mcp"},
		{"two headers", call, []string{"Authorization", "Bearer alice-read", "+Authorization", "Bearer alice-read"}, 400, "invalid_request", "mcp"},
		{"unknown token", call, bearer("forged"), 401, "invalid_token", "mcp"},
		{"expired", call, bearer("expired"), 401, "invalid_token", "mcp"},
		{"missing required scope", call, bearer("no-mcp"), 403, "insufficient_scope", "mcp"},
		{"missing tool scope", callBody("2", "write_file", "{}"), bearer("alice-read"), 403, "insufficient_scope", "mcp files:write"},
		{"missing prompt scope", reqBody("3", "prompts/get", `"name":"secret_prompt"`), bearer("alice-write"), 403, "insufficient_scope", "mcp admin"},
		{"missing resource scope", reqBody("4", "resources/read", `"uri":"file:///secret"`), bearer("alice-write"), 403, "insufficient_scope", "mcp admin"},
	}
	for _, c := range cases {
		before := k.runs.Load()
		resp, body := k.post(c.body, c.hdrs...)
		if resp.StatusCode != c.status {
			t.Errorf("%s: status %d, want %d (%v)", c.name, resp.StatusCode, c.status, body)
			continue
		}
		ch := challenge(t, resp.Header.Get("WWW-Authenticate"))
		if ch["resource_metadata"] != k.auth.MetadataURL() {
			t.Errorf("%s: resource_metadata = %q", c.name, ch["resource_metadata"])
		}
		if ch["error"] != c.errc || ch["scope"] != c.scope {
			t.Errorf("%s: challenge %q: error %q scope %q, want %q %q", c.name, resp.Header.Get("WWW-Authenticate"), ch["error"], ch["scope"], c.errc, c.scope)
		}
		if e, _ := body["error"].(map[string]any); e == nil {
			t.Errorf("%s: body %v is not a JSON-RPC error", c.name, body)
		}
		if n := k.runs.Load() - before; n != 0 {
			t.Errorf("%s: %d handlers ran", c.name, n)
		}
	}
	// The query string never carries a token.
	resp, err := k.srv.Client().Do(newPost(t, k.srv.URL+"/mcp?access_token=alice-read", call, stdHeaders("tools/call", "whoami")))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 400 {
		t.Errorf("token in the query: status %d, want 400", resp.StatusCode)
	}
	// GET and DELETE (legacy session traffic) need a token as well.
	for _, m := range []string{http.MethodGet, http.MethodDelete} {
		req, _ := http.NewRequest(m, k.srv.URL+"/mcp", nil)
		req.Header.Set("Mcp-Session-Id", "x")
		resp, err := k.srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 401 {
			t.Errorf("%s without a token: %d, want 401", m, resp.StatusCode)
		}
	}
}

func firstText(t *testing.T, body map[string]any) string {
	t.Helper()
	res, _ := body["result"].(map[string]any)
	content, _ := res["content"].([]any)
	if len(content) == 0 {
		t.Fatalf("no content in %v", body)
	}
	return content[0].(map[string]any)["text"].(string)
}

func TestAuthPrincipalAndScopes(t *testing.T) {
	k := newAuthKit(t, nil)
	resp, body := k.post(callBody("1", "whoami", "{}"), bearer("alice-read")...)
	if resp.StatusCode != 200 || firstText(t, body) != "alice mcp" {
		t.Fatalf("whoami: %d %v", resp.StatusCode, body)
	}
	resp, body = k.post(callBody("2", "write_file", "{}"), bearer("alice-write")...)
	if resp.StatusCode != 200 || firstText(t, body) != "written" {
		t.Fatalf("write_file with files:write: %d %v", resp.StatusCode, body)
	}
	// admin implies files:write (ScopeImplies).
	resp, body = k.post(callBody("3", "write_file", "{}"), bearer("admin")...)
	if resp.StatusCode != 200 || firstText(t, body) != "written" {
		t.Fatalf("write_file with admin: %d %v", resp.StatusCode, body)
	}
	// Authenticated results default to cacheScope private.
	resp, body = k.post(reqBody("4", "tools/list", ""), bearer("alice-read")...)
	res, _ := body["result"].(map[string]any)
	if resp.StatusCode != 200 || res["cacheScope"] != "private" {
		t.Errorf("tools/list: %d cacheScope %v, want private", resp.StatusCode, res["cacheScope"])
	}
	if tools, _ := res["tools"].([]any); len(tools) != 4 {
		t.Errorf("tools/list without HideForbidden lists %d tools, want 4", len(tools))
	}
}

func TestAuthHideForbidden(t *testing.T) {
	k := newAuthKit(t, func(o *AuthOptions) { o.HideForbidden = true })
	names := func(tok, method, field string) []string {
		_, body := k.post(reqBody("1", method, ""), bearer(tok)...)
		res, _ := body["result"].(map[string]any)
		var out []string
		for _, x := range res[field].([]any) {
			m := x.(map[string]any)
			if n, ok := m["name"].(string); ok {
				out = append(out, n)
			}
		}
		return out
	}
	if got := strings.Join(names("alice-read", "tools/list", "tools"), ","); got != "whoami,ask_name,slow_task" {
		t.Errorf("alice-read tools = %s", got)
	}
	if got := strings.Join(names("alice-write", "tools/list", "tools"), ","); got != "whoami,write_file,ask_name,slow_task" {
		t.Errorf("alice-write tools = %s", got)
	}
	if got := names("alice-write", "prompts/list", "prompts"); len(got) != 0 {
		t.Errorf("alice-write prompts = %v", got)
	}
	if got := names("admin", "resources/list", "resources"); len(got) != 1 {
		t.Errorf("admin resources = %v", got)
	}
}

// TestAuthRequestStateBound: a requestState sealed for alice is refused
// when bob presents it.
func TestAuthRequestStateBound(t *testing.T) {
	k := newAuthKit(t, nil)
	const elicitMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}`
	first := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask_name","arguments":{},` + elicitMeta + `}}`
	_, body := k.post(first, bearer("alice-write")...)
	res, _ := body["result"].(map[string]any)
	state, _ := res["requestState"].(string)
	if res["resultType"] != "input_required" || state == "" {
		t.Fatalf("first round: %v", body)
	}
	retry := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ask_name","arguments":{},` +
		`"inputResponses":{"name":{"action":"accept","content":{"name":"Ann"}}},"requestState":"` + state + `",` + elicitMeta + `}}`
	_, body = k.post(retry, bearer("bob-write")...)
	if e, _ := body["error"].(map[string]any); e == nil || e["code"] != float64(-32602) {
		t.Errorf("bob replaying alice's requestState: %v, want -32602", body)
	}
	_, body = k.post(retry, bearer("alice-read")...) // same principal, another token
	if firstText(t, body) != "hello Ann" {
		t.Errorf("alice's retry: %v", body)
	}
}

// TestAuthSessionBound: a legacy session is bound to the principal that
// initialized it.
func TestAuthSessionBound(t *testing.T) {
	k := newAuthKit(t, nil)
	alice := &lgHTTP{t: t, url: k.srv.URL + "/mcp"}
	resp := alice.post(lgBody("1", "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}`), bearer("alice-read")...)
	resp.Body.Close()
	alice.sid = resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != 200 || alice.sid == "" {
		t.Fatalf("initialize: %d sid %q", resp.StatusCode, alice.sid)
	}
	list := lgBody("2", "tools/list", "")
	resp = alice.post(list, bearer("alice-read")...)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), "whoami") {
		t.Fatalf("alice in her session: %d %s", resp.StatusCode, b)
	}
	resp = alice.post(list, bearer("bob-write")...)
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 403 || strings.Contains(string(b), "whoami") {
		t.Errorf("bob in alice's session: %d %s, want 403 without data", resp.StatusCode, b)
	}
	// In the session, a missing tool scope is still a 403 challenge.
	resp = alice.post(lgBody("3", "tools/call", `{"name":"write_file","arguments":{}}`), bearer("alice-read")...)
	resp.Body.Close()
	if ch := challenge(t, resp.Header.Get("WWW-Authenticate")); resp.StatusCode != 403 || ch["scope"] != "mcp files:write" {
		t.Errorf("legacy write_file without scope: %d %v", resp.StatusCode, ch)
	}
	req, _ := http.NewRequest(http.MethodDelete, alice.url, nil)
	req.Header.Set("Mcp-Session-Id", alice.sid)
	req.Header.Set("Authorization", "Bearer bob-write")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 403 {
		t.Errorf("bob deleting alice's session: %d, want 403", resp.StatusCode)
	}
}

// TestAuthTaskBound: tasks answer only their creator; the task's handler
// sees the creator's principal.
func TestAuthTaskBound(t *testing.T) {
	k := newAuthKit(t, nil)
	meta := `"_meta":` + tasksMeta
	_, body := k.post(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow_task","arguments":{},`+meta+`}}`, bearer("alice-read")...)
	res, _ := body["result"].(map[string]any)
	id, _ := res["taskId"].(string)
	if id == "" {
		t.Fatalf("no task: %v", body)
	}
	get := `{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"taskId":"` + id + `",` + meta + `}}`
	_, body = k.post(get, bearer("bob-write")...)
	if e, _ := body["error"].(map[string]any); e == nil || e["code"] != float64(-32602) || strings.Contains(toJSON(body), "alice") {
		t.Errorf("bob's tasks/get: %v, want -32602 and no data", body)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, body = k.post(get, bearer("alice-read")...)
		res, _ = body["result"].(map[string]any)
		if res["status"] == "completed" || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !strings.Contains(toJSON(res), "alice mcp") {
		t.Errorf("alice's task result: %v (the handler must see her principal)", res)
	}
}

func toJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestAuthStdioUnaffected: scopes mean nothing without HTTP auth; stdio
// serves every tool (the environment is the credential there).
func TestAuthStdioUnaffected(t *testing.T) {
	k := newAuthKit(t, nil)
	r, _ := rpcMeta(t, k.s, "tools/call", `{"name":"write_file","arguments":{}}`, `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`, nil)
	if r.Error != nil {
		t.Fatalf("write_file without auth: %v", r.Error)
	}
	if Principal(context.Background()) != nil {
		t.Error("Principal outside a request is not nil")
	}
	if err := RequireScopes(context.Background(), "x"); err != nil {
		t.Errorf("RequireScopes outside auth: %v", err)
	}
	if !errors.Is(ErrInvalidToken, ErrInvalidToken) {
		t.Fatal("unreachable")
	}
}

// TestAuthTaskQuotaPerPrincipal: the per-client task quota counts an
// authenticated caller's tasks across connections, and only theirs.
func TestAuthTaskQuotaPerPrincipal(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	s, err := New(Options{Name: "quota", Version: "1", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Limits: Limits{MaxTasksPerClient: 1},
		Tools: []Tool{NewTool(ToolInfo{Name: "wait", TaskSupport: TaskSupportRequired}, func(ctx context.Context, _ struct{}) (string, error) {
			select {
			case <-block:
			case <-ctx.Done():
			}
			return "done", nil
		})}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Shutdown(context.Background()) })
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	a, err := NewAuth(AuthOptions{Verifier: authTokens, Resource: srv.URL + "/mcp", AuthorizationServers: []string{"https://as.test"}})
	if err != nil {
		t.Fatal(err)
	}
	mux.Handle("/mcp", s.HTTPHandler(HTTPOptions{Auth: a}))
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"wait","arguments":{},"_meta":` + tasksMeta + `}}`
	start := func(tok string) map[string]any {
		// A new connection each time: the quota must follow the principal.
		c := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
		resp, err := c.Do(newPost(t, srv.URL+"/mcp", call, stdHeaders("tools/call", "wait", bearer(tok)...)))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&out)
		return out
	}
	if r := start("alice-read"); r["result"] == nil {
		t.Fatalf("alice's first task: %v", r)
	}
	if r := start("alice-write"); r["error"] == nil {
		t.Errorf("alice's second task (another token, another connection) passed the quota of 1: %v", r)
	}
	if r := start("bob-write"); r["result"] == nil {
		t.Errorf("bob's task was refused: %v", r)
	}
}

// TestAuthLegacySubscribeNeedsReadScope: in a legacy session,
// resources/subscribe to a resource the token may not read is the 403
// challenge resources/read would get; with the scope it is accepted.
func TestAuthLegacySubscribeNeedsReadScope(t *testing.T) {
	k := newAuthKit(t, nil)
	for _, c := range []struct {
		token  string
		status int
	}{{"alice-read", 403}, {"admin", 200}} {
		sess := &lgHTTP{t: t, url: k.srv.URL + "/mcp"}
		resp := sess.post(lgBody("1", "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}`), bearer(c.token)...)
		resp.Body.Close()
		if sess.sid = resp.Header.Get("Mcp-Session-Id"); resp.StatusCode != 200 || sess.sid == "" {
			t.Fatalf("%s: initialize: %d sid %q", c.token, resp.StatusCode, sess.sid)
		}
		resp = sess.post(lgBody("2", "resources/subscribe", `{"uri":"file:///secret"}`), bearer(c.token)...)
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.status {
			t.Errorf("%s: resources/subscribe file:///secret: %d %s, want %d", c.token, resp.StatusCode, b, c.status)
		}
		if c.status == 403 {
			if ch := challenge(t, resp.Header.Get("WWW-Authenticate")); ch["scope"] != "mcp admin" {
				t.Errorf("%s: challenge %v, want scope \"mcp admin\"", c.token, ch)
			}
		}
	}
}

// TestAuthLegacyUpdatesNeedReadScopeAtDelivery: a legacy session subscribed
// (with a token lacking "admin") to a URI nothing served yet does not hear
// of its updates once a resource needing "admin" is registered there; it
// still hears those of a resource it may read.
func TestAuthLegacyUpdatesNeedReadScopeAtDelivery(t *testing.T) {
	k := newAuthKit(t, nil)
	sess := &lgHTTP{t: t, url: k.srv.URL + "/mcp"}
	resp := sess.post(lgBody("1", "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}`), bearer("alice-read")...)
	resp.Body.Close()
	if sess.sid = resp.Header.Get("Mcp-Session-Id"); resp.StatusCode != 200 || sess.sid == "" {
		t.Fatalf("initialize: %d sid %q", resp.StatusCode, sess.sid)
	}
	for i, uri := range []string{"file:///later", "file:///open"} {
		resp = sess.post(lgBody(strconv.Itoa(i+2), "resources/subscribe", `{"uri":"`+uri+`"}`), bearer("alice-read")...)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("subscribe %s: %d", uri, resp.StatusCode)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	greq, _ := http.NewRequestWithContext(ctx, http.MethodGet, sess.url, nil)
	greq.Header.Set("Accept", "text/event-stream")
	greq.Header.Set("Mcp-Session-Id", sess.sid)
	greq.Header.Set("Authorization", "Bearer alice-read")
	gresp, err := http.DefaultClient.Do(greq)
	if err != nil || gresp.StatusCode != 200 {
		t.Fatalf("GET stream: %v %v", err, gresp)
	}
	defer gresp.Body.Close()
	stream := newLgSSE(gresp.Body)
	read := func(ctx context.Context) (string, error) { return "x", nil }
	if err := k.s.AddResources(
		NewResource(ResourceInfo{URI: "file:///later", Name: "later", Scopes: []string{"admin"}}, read),
		NewResource(ResourceInfo{URI: "file:///open", Name: "open"}, read)); err != nil {
		t.Fatal(err)
	}
	k.s.ResourceUpdated("file:///later")
	k.s.ResourceUpdated("file:///open")
	for {
		m, raw := stream.next(t)
		if m["method"] != "notifications/resources/updated" {
			continue // the list change
		}
		if uri := m["params"].(map[string]any)["uri"]; uri != "file:///open" {
			t.Fatalf("alice-read (no admin) heard %s", raw)
		}
		return
	}
}
