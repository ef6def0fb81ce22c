package clustertest

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/server"
)

// authReplicas starts two replicas sharing m, each serving tool over HTTP
// behind tokens, and returns their endpoints.
func authReplicas(t *testing.T, tokens server.TokenVerifier, tool server.Tool) []string {
	t.Helper()
	m := NewMemory()
	var urls []string
	for range 2 {
		srv, err := server.New(server.Options{Name: "replica", Version: "1", Cluster: m,
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Tools: []server.Tool{tool}})
		if err != nil {
			t.Fatal(err)
		}
		mux := http.NewServeMux()
		ts := httptest.NewServer(mux)
		auth, err := server.NewAuth(server.AuthOptions{Verifier: tokens, Resource: ts.URL + "/mcp", AuthorizationServers: []string{"https://as.test"}})
		if err != nil {
			t.Fatal(err)
		}
		mux.Handle("/mcp", srv.HTTPHandler(server.HTTPOptions{Auth: auth}))
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			_ = srv.Shutdown(ctx)
			ts.Close()
		})
		urls = append(urls, ts.URL+"/mcp")
	}
	return urls
}

// postAs sends method with params (an object, _meta added) to url with
// token and returns the HTTP status and the decoded body (nil when not
// JSON).
func postAs(t *testing.T, url, token, method, name, params string) (int, map[string]any) {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":{"_meta":` + meta + `,` + strings.TrimPrefix(params, "{") + `}`
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	if name != "" {
		req.Header.Set("Mcp-Name", name)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// A task stays its creator's on every replica: on another replica,
// another principal's tasks/get, tasks/update and tasks/cancel are
// answered like an unknown task (-32602), the creator's work.
func TestTaskBoundToCreatorAcrossReplicas(t *testing.T) {
	tokens := server.TokenVerifierFunc(func(_ context.Context, tok string) (*server.TokenInfo, error) {
		switch tok {
		case "alice", "bob":
			return &server.TokenInfo{Subject: tok, Issuer: "https://as.test", Scopes: []string{"mcp"}}, nil
		}
		return nil, server.ErrInvalidToken
	})
	urls := authReplicas(t, tokens, server.NewTool(server.ToolInfo{Name: "wait_for_cancel", TaskSupport: server.TaskSupportRequired},
		func(ctx context.Context, _ struct{}) (string, error) { <-ctx.Done(); return "", ctx.Err() }))
	post := func(replica int, token, method, name, params string) map[string]any {
		_, out := postAs(t, urls[replica], token, method, name, params)
		if out == nil {
			t.Fatalf("%s: not JSON", method)
		}
		return out
	}
	created := post(0, "alice", "tools/call", "wait_for_cancel", `{"name":"wait_for_cancel","arguments":{}}`)
	res, _ := created["result"].(map[string]any)
	id, _ := res["taskId"].(string)
	if id == "" {
		t.Fatalf("CreateTaskResult %v", created)
	}
	task := `{"taskId":"` + id + `"}`
	for _, method := range []string{"tasks/get", "tasks/cancel", "tasks/update"} {
		params := task
		if method == "tasks/update" {
			params = `{"taskId":"` + id + `","inputResponses":{}}`
		}
		out := post(1, "bob", method, id, params)
		e, _ := out["error"].(map[string]any)
		if e["code"] != float64(-32602) || !strings.Contains(e["message"].(string), "Unknown task") {
			t.Errorf("bob's %s of alice's task on the other replica: %v", method, out)
		}
	}
	if out := post(1, "alice", "tasks/get", id, task); out["result"].(map[string]any)["status"] != server.TaskWorking {
		t.Errorf("alice's tasks/get on the other replica: %v", out)
	}
	post(1, "alice", "tasks/cancel", id, task)
	if out := post(0, "alice", "tasks/get", id, task); out["result"].(map[string]any)["status"] != server.TaskCancelled {
		t.Errorf("alice's task after her cancel on the other replica: %v", out)
	}
}

// A task of a tool with scopes needs them on every replica: another token
// of the same subject without them is refused 403 insufficient_scope on
// tasks/get, tasks/update and tasks/cancel, as tools/call is, and the
// task goes on untouched.
func TestTaskNeedsItsToolScopesAcrossReplicas(t *testing.T) {
	tokens := server.TokenVerifierFunc(func(_ context.Context, tok string) (*server.TokenInfo, error) {
		scopes := map[string][]string{"alice-read": {"mcp"}, "alice-write": {"mcp", "files:write"}}[tok]
		if scopes == nil {
			return nil, server.ErrInvalidToken
		}
		return &server.TokenInfo{Subject: "alice", Issuer: "https://as.test", Scopes: scopes}, nil
	})
	urls := authReplicas(t, tokens, server.NewTool(server.ToolInfo{Name: "guarded", Scopes: []string{"files:write"}, TaskSupport: server.TaskSupportRequired},
		func(ctx context.Context, _ struct{}) (string, error) { <-ctx.Done(); return "", ctx.Err() }))
	_, created := postAs(t, urls[0], "alice-write", "tools/call", "guarded", `{"name":"guarded","arguments":{}}`)
	res, _ := created["result"].(map[string]any)
	id, _ := res["taskId"].(string)
	if id == "" {
		t.Fatalf("CreateTaskResult %v", created)
	}
	task := `{"taskId":"` + id + `"}`
	for _, method := range []string{"tasks/get", "tasks/update", "tasks/cancel"} {
		params := task
		if method == "tasks/update" {
			params = `{"taskId":"` + id + `","inputResponses":{}}`
		}
		if code, out := postAs(t, urls[1], "alice-read", method, id, params); code != http.StatusForbidden {
			t.Errorf("%s without files:write on the other replica: %d %v, want 403", method, code, out)
		}
	}
	if _, out := postAs(t, urls[1], "alice-write", "tasks/get", id, task); out["result"].(map[string]any)["status"] != server.TaskWorking {
		t.Errorf("tasks/get with files:write on the other replica: %v", out)
	}
}
