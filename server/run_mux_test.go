package server

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Run's handler accepts the Host and Origin values of Options.HTTP besides
// loopback, still refuses others (DNS-rebinding protection), and answers the
// health and readiness probes; readiness turns 503 once Shutdown begins.
func TestRunMuxHostsAndProbes(t *testing.T) {
	f := newFixture(t, func(o *Options) {
		o.HTTP = HTTPOptions{AllowedHosts: []string{"mcp.example.com"}, AllowedOrigins: []string{"https://app.example.com"}}
	})
	ts := httptest.NewServer(f.s.runMux())
	defer ts.Close()
	post := func(host, origin string) int {
		body := `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":` + withMeta(`{}`, defaultMeta) + `}`
		req, _ := http.NewRequest("POST", ts.URL+"/mcp", strings.NewReader(body))
		req.Host = host
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "server/discover")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, c := range []struct {
		host, origin string
		want         int
	}{
		{"mcp.example.com", "", 200},
		{"mcp.example.com:8443", "https://app.example.com", 200},
		{"127.0.0.1:1234", "http://localhost:5173", 200},
		{"evil.example.com", "", 403},
		{"mcp.example.com", "http://evil.example.com", 403},
	} {
		if got := post(c.host, c.origin); got != c.want {
			t.Errorf("Host %q Origin %q: %d, want %d", c.host, c.origin, got, c.want)
		}
	}
	probe := func(path string) (int, string) {
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp.StatusCode, strings.TrimSpace(string(b))
	}
	if code, body := probe(HealthPath); code != 200 || body != "ok" {
		t.Errorf("health %d %q", code, body)
	}
	if code, body := probe(ReadyPath); code != 200 || body != "ready" {
		t.Errorf("ready %d %q", code, body)
	}
	f.s.Shutdown(context.Background())
	if code, body := probe(ReadyPath); code != 503 || body != "shutting down" {
		t.Errorf("ready after Shutdown %d %q", code, body)
	}
	if code, _ := probe(HealthPath); code != 200 {
		t.Errorf("health after Shutdown %d", code)
	}
}
