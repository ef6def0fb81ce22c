package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/server"
)

// scopedRefsServer serves, behind Auth, a prompt and a template needing
// scope "admin" (each with a completion counting its runs), a resource
// needing it and a public one. Token "user" has scope "mcp", "root" also
// "admin".
func scopedRefsServer(t *testing.T, completions *atomic.Int32) (*server.Server, func(token, body, method, name string) (*http.Response, error)) {
	t.Helper()
	complete := func(ctx context.Context, arg, value string, _ map[string]string) ([]string, error) {
		completions.Add(1)
		return []string{"secret-customer-list"}, nil
	}
	s, err := server.New(server.Options{Name: "x", Version: "1",
		Prompts: []server.Prompt{server.NewPrompt(server.PromptInfo{Name: "admin_prompt", Scopes: []string{"admin"}, Complete: complete,
			Arguments: []server.PromptArgument{{Name: "customer"}}},
			func(ctx context.Context, in map[string]string) (string, error) { return "x", nil })},
		Resources: []server.Resource{
			server.NewResource(server.ResourceInfo{URI: "file:///secret", Name: "secret", Scopes: []string{"admin"}},
				func(ctx context.Context) (string, error) { return "s3cret", nil }),
			server.NewResource(server.ResourceInfo{URI: "file:///public", Name: "public"},
				func(ctx context.Context) (string, error) { return "hello", nil }),
		},
		ResourceTemplates: []server.ResourceTemplate{server.NewResourceTemplate(
			server.ResourceTemplateInfo{URITemplate: "db://customers/{id}", Name: "customer", Scopes: []string{"admin"}, Complete: complete},
			func(ctx context.Context, vars map[string]string) (string, error) { return vars["id"], nil })},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Shutdown(context.Background()) })
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	verifier := server.TokenVerifierFunc(func(_ context.Context, tok string) (*server.TokenInfo, error) {
		switch tok {
		case "user":
			return &server.TokenInfo{Subject: "u", Issuer: "https://as.test", Scopes: []string{"mcp"}}, nil
		case "root":
			return &server.TokenInfo{Subject: "r", Issuer: "https://as.test", Scopes: []string{"mcp", "admin"}}, nil
		}
		return nil, server.ErrInvalidToken
	})
	a, err := server.NewAuth(server.AuthOptions{Verifier: verifier, Resource: srv.URL + "/mcp",
		AuthorizationServers: []string{"https://as.test"}})
	if err != nil {
		t.Fatal(err)
	}
	mux.Handle("/mcp", s.HTTPHandler(server.HTTPOptions{Auth: a}))
	post := func(token, body, method, name string) (*http.Response, error) {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", method)
		if name != "" {
			req.Header.Set("Mcp-Name", name)
		}
		req.Header.Set("Authorization", "Bearer "+token)
		return srv.Client().Do(req)
	}
	return s, post
}

const scopedMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

// TestCompletionNeedsTheReferencesScopes: completion/complete of a prompt
// or a template needing a scope the token lacks is 403 insufficient_scope,
// as prompts/get and resources/read are, and the completion does not run;
// with the scope it answers.
func TestCompletionNeedsTheReferencesScopes(t *testing.T) {
	var ran atomic.Int32
	_, post := scopedRefsServer(t, &ran)
	refs := []string{`{"type":"ref/prompt","name":"admin_prompt"}`, `{"type":"ref/resource","uri":"db://customers/{id}"}`}
	for _, ref := range refs {
		body := `{"jsonrpc":"2.0","id":2,"method":"completion/complete","params":{"ref":` + ref + `,"argument":{"name":"customer","value":""},` + scopedMeta + `}}`
		resp, err := post("user", body, "completion/complete", "")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden || !strings.Contains(resp.Header.Get("WWW-Authenticate"), `scope="admin"`) {
			t.Errorf("%s without scope admin: HTTP %d %q %s, want 403 insufficient_scope naming admin", ref, resp.StatusCode, resp.Header.Get("WWW-Authenticate"), b)
		}
		if strings.Contains(string(b), "secret-customer-list") || ran.Load() != 0 {
			t.Fatalf("%s: the completion ran (%d times) for a caller without its scope: %s", ref, ran.Load(), b)
		}
		resp, err = post("root", body, "completion/complete", "")
		if err != nil {
			t.Fatal(err)
		}
		b, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), "secret-customer-list") {
			t.Errorf("%s with scope admin: HTTP %d %s", ref, resp.StatusCode, b)
		}
		ran.Store(0)
	}
}

// TestListenSubscribesOnlyReadableResources: a listen stream asking for
// updates of a resource the caller may not read is acknowledged without it
// and never hears of it; the readable one is granted and delivered.
func TestListenSubscribesOnlyReadableResources(t *testing.T) {
	var ran atomic.Int32
	s, post := scopedRefsServer(t, &ran)
	for _, c := range []struct {
		token   string
		granted []string
	}{
		{"user", []string{"file:///public"}},
		{"root", []string{"file:///secret", "file:///public"}},
	} {
		body := `{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{"notifications":{"resourceSubscriptions":["file:///secret","file:///public"]},` + scopedMeta + `}}`
		resp, err := post(c.token, body, "subscriptions/listen", "")
		if err != nil {
			t.Fatal(err)
		}
		events := make(chan string, 16)
		go func() {
			defer close(events)
			sc := bufio.NewScanner(resp.Body)
			for sc.Scan() {
				if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
					events <- d
				}
			}
		}()
		next := func() (method string, params map[string]any) {
			select {
			case d := <-events:
				var m struct {
					Method string
					Params map[string]any
				}
				if err := json.Unmarshal([]byte(d), &m); err != nil {
					t.Fatalf("event %q: %v", d, err)
				}
				return m.Method, m.Params
			case <-time.After(3 * time.Second):
				t.Fatalf("%s: no event within 3 s", c.token)
			}
			return "", nil
		}
		method, params := next()
		if method != "notifications/subscriptions/acknowledged" {
			t.Fatalf("%s: first event %s", c.token, method)
		}
		got, _ := json.Marshal(params["notifications"].(map[string]any)["resourceSubscriptions"])
		want, _ := json.Marshal(c.granted)
		if string(got) != string(want) {
			t.Errorf("%s: granted %s, want %s", c.token, got, want)
		}
		s.ResourceUpdated("file:///secret")
		s.ResourceUpdated("file:///public")
		var heard []string
		for range c.granted {
			method, params = next()
			if method != "notifications/resources/updated" {
				t.Fatalf("%s: event %s", c.token, method)
			}
			heard = append(heard, params["uri"].(string))
		}
		if got, _ := json.Marshal(heard); string(got) != string(want) {
			t.Errorf("%s: updates of %s, want %s", c.token, got, want)
		}
		resp.Body.Close()
	}
}
