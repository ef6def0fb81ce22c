package server

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestAttackCORSInternationalizedOrigin: README "Browser clients (CORS)":
// HTTPOptions.CORS "lets web pages of the listed origins call /mcp from a
// browser", and "Running several replicas": AllowedHosts lists "the names
// clients use". A browser serializes an origin's host, and sends the Host
// header, in its ASCII (IDNA/punycode) form (WHATWG URL, host parsing:
// domain to ASCII): the page https://bücher.example sends Origin
// https://xn--bcher-kva.example and Host xn--bcher-kva.example. The
// origin and host checks compare the configured Unicode name with that
// ASCII form byte for byte, so the listed origin's own page gets 403 on
// its preflight and on every request.
func TestAttackCORSInternationalizedOrigin(t *testing.T) {
	const page = "https://xn--bcher-kva.example" // how a browser sends https://bücher.example
	_, url := corsServer(t, CORSOptions{AllowedOrigins: []string{"https://bücher.example"}}, false)
	resp := preflight(t, url, page, "POST", mcpRequestHeaders)
	if ok, why := browserAccepts(resp, page, "POST", mcpRequestHeaders); !ok {
		t.Errorf("preflight from the listed origin https://bücher.example (Origin %s): %s, %s", page, resp.Status, why)
	}

	s, err := New(Options{Name: "idn", Version: "1", Tools: []Tool{weatherTool()}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Shutdown(t.Context()) })
	h := s.HTTPHandler(HTTPOptions{AllowedHosts: []string{"bücher.example"}})
	w := httptest.NewRecorder()
	h.ServeHTTP(w, newPost(t, "http://xn--bcher-kva.example/mcp", faultCall("1", "weather_current", `{"location":"Paris"}`, defaultMeta),
		stdHeaders("tools/call", "weather_current")))
	if w.Code != http.StatusOK {
		t.Errorf("Host xn--bcher-kva.example with AllowedHosts bücher.example: %d %s, want 200", w.Code, w.Body)
	}
}
