package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/server"
)

// The HTTP tests send what the conformance suite sends to the binary
// (FIXTURES.md §1.1, §5.2, §5.3) through the Streamable HTTP handler.

// httpServer serves a fresh everything server at /mcp.
func httpServer(t *testing.T) string {
	t.Helper()
	srv := testServer(t)
	mux := http.NewServeMux()
	mux.Handle("/mcp", srv.HTTPHandler(server.HTTPOptions{}))
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return ts.URL + "/mcp"
}

// httpReply is a decoded HTTP answer: status, the JSON-RPC response and the
// notifications that came before it on an SSE stream.
type httpReply struct {
	status int
	resp   rpcResponse
	notes  []string // notification methods, in order
	raw    []map[string]any
}

// post sends one JSON-RPC request with the suite's headers; hdr overrides or
// (with value "") removes headers.
func post(t *testing.T, url, method string, params map[string]any, metaOver map[string]any, hdr map[string]string) httpReply {
	t.Helper()
	p := maps.Clone(params)
	if p == nil {
		p = map[string]any{}
	}
	meta := defaultMeta(suiteCaps)
	maps.Copy(meta, metaOver)
	p["_meta"] = meta
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 7, "method": method, "params": p})
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	switch method {
	case "tools/call", "prompts/get":
		req.Header.Set("Mcp-Name", params["name"].(string))
	case "resources/read":
		req.Header.Set("Mcp-Name", params["uri"].(string))
	}
	for k, v := range hdr {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header[http.CanonicalHeaderKey(k)] = []string{v}
		}
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	out := httpReply{status: res.StatusCode}
	if strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			data, ok := strings.CutPrefix(sc.Text(), "data:")
			if !ok || strings.TrimSpace(data) == "" {
				continue
			}
			var msg map[string]any
			if json.Unmarshal([]byte(data), &msg) != nil {
				continue
			}
			out.raw = append(out.raw, msg)
			if m, ok := msg["method"].(string); ok {
				if _, hasID := msg["id"]; hasID {
					t.Errorf("server sent a request %q on the response stream", m)
				}
				out.notes = append(out.notes, m)
				continue
			}
			if err := json.Unmarshal([]byte(data), &out.resp); err != nil {
				t.Fatal(err)
			}
			return out
		}
		t.Fatalf("%s: SSE stream ended without a response", method)
	}
	b, _ := io.ReadAll(res.Body)
	if len(bytes.TrimSpace(b)) > 0 {
		if err := json.Unmarshal(b, &out.resp); err != nil {
			t.Fatalf("%s: HTTP %d body %q: %v", method, res.StatusCode, b, err)
		}
	}
	return out
}

func TestHTTPProgressOnStream(t *testing.T) {
	url := httpServer(t)
	r := post(t, url, "tools/call", map[string]any{"name": "test_tool_with_progress", "arguments": map[string]any{}},
		map[string]any{"progressToken": "progress-test-1"}, nil)
	mustResult(t, "test_tool_with_progress", r.resp)
	var progress []any
	for _, m := range r.raw {
		if m["method"] == "notifications/progress" {
			p := m["params"].(map[string]any)
			if p["progressToken"] != "progress-test-1" {
				t.Errorf("progressToken %v", p["progressToken"])
			}
			progress = append(progress, p["progress"])
		}
	}
	equalJSON(t, "progress values", progress, `[0,50,100]`)
}

func TestHTTPLoggingWithoutLevel(t *testing.T) {
	url := httpServer(t)
	r := post(t, url, "tools/call", map[string]any{"name": "test_logging_tool", "arguments": map[string]any{}}, nil, nil)
	mustResult(t, "test_logging_tool", r.resp)
	for _, m := range r.notes {
		if m == "notifications/message" {
			t.Error("log sent without io.modelcontextprotocol/logLevel")
		}
	}
}

func TestHTTPMissingCapability(t *testing.T) {
	url := httpServer(t)
	r := post(t, url, "tools/call", map[string]any{"name": "test_missing_capability", "arguments": map[string]any{}},
		map[string]any{"io.modelcontextprotocol/clientCapabilities": map[string]any{}}, nil)
	if r.status != http.StatusBadRequest || r.resp.Error == nil || r.resp.Error.Code != -32021 {
		t.Errorf("HTTP %d %s, want 400 with -32021", r.status, jsonText(t, r.resp))
	}
}

// TestHTTPFirstToolHeaders: http-header-validation calls tools[0] with {}.
func TestHTTPFirstToolHeaders(t *testing.T) {
	url := httpServer(t)
	list := post(t, url, "tools/list", nil, nil, nil)
	first := mustResult(t, "tools/list", list.resp)["tools"].([]any)[0].(map[string]any)["name"].(string)
	call := map[string]any{"name": first, "arguments": map[string]any{}}

	r := post(t, url, "tools/call", call, nil, map[string]string{"Mcp-Name": "  " + first + "  "})
	if r.status >= 400 || r.resp.Error != nil {
		t.Errorf("tools[0] %s with a padded Mcp-Name: HTTP %d %s, want a result", first, r.status, jsonText(t, r.resp))
	}
	for _, c := range []struct {
		what string
		hdr  map[string]string
	}{
		{"wrong name", map[string]string{"Mcp-Name": "wrong_tool_name"}},
		{"missing name", map[string]string{"Mcp-Name": ""}},
		{"method case", map[string]string{"Mcp-Method": "TOOLS/CALL"}},
	} {
		r := post(t, url, "tools/call", call, nil, c.hdr)
		if r.status != http.StatusBadRequest || r.resp.Error == nil || r.resp.Error.Code != -32020 {
			t.Errorf("%s: HTTP %d %s, want 400 with -32020", c.what, r.status, jsonText(t, r.resp))
		}
	}
}

// TestHTTPParamHeader: http-custom-header-server-validation on test_x_mcp_header.
func TestHTTPParamHeader(t *testing.T) {
	url := httpServer(t)
	cases := []struct {
		region, header string // header "" = omitted
		ok             bool
	}{
		{"Hello", "=?base64?SGVsbG8=?=", true},
		{"Hello", "=?base64?SGVsbG8?=", false},
		{"Hello", "=?base64?SGVs!!!bG8=?=", false},
		{"SGVsbG8=", "SGVsbG8=", true},
		{"=?base64?SGVsbG8=", "=?base64?SGVsbG8=", true},
		{"test-value", "", false},
		{"Hello", "Hello", true},
	}
	for _, c := range cases {
		hdr := map[string]string{}
		if c.header != "" {
			hdr["Mcp-Param-Region"] = c.header
		}
		r := post(t, url, "tools/call", map[string]any{"name": "test_x_mcp_header", "arguments": map[string]any{"region": c.region}}, nil, hdr)
		if c.ok {
			res := mustResult(t, c.header, r.resp)
			equalJSON(t, c.header, res["content"], []any{map[string]any{"type": "text", "text": "region=" + c.region}})
		} else if r.status != http.StatusBadRequest || r.resp.Error == nil || r.resp.Error.Code != -32020 {
			t.Errorf("region %q header %q: HTTP %d %s, want 400 with -32020", c.region, c.header, r.status, jsonText(t, r.resp))
		}
	}
	// No region in the body: no header expected.
	r := post(t, url, "tools/call", map[string]any{"name": "test_x_mcp_header", "arguments": map[string]any{"level": 2}}, nil, nil)
	mustResult(t, "no region", r.resp)
}

func TestHTTPRejectsForeignHost(t *testing.T) {
	url := httpServer(t)
	r := post(t, url, "server/discover", nil, nil, map[string]string{"Origin": "http://evil.example.com"})
	if r.status < 400 || r.status >= 500 {
		t.Errorf("foreign Origin: HTTP %d, want 4xx", r.status)
	}
}

func TestRunRejectsBadArguments(t *testing.T) {
	if err := run([]string{"extra"}); err == nil {
		t.Error("run(extra): no error")
	}
	if err := run([]string{"--nope"}); err == nil {
		t.Error("run(--nope): no error")
	}
}
