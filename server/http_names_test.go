package server

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestInternationalizedNamesAreRefusedUntilWrittenInASCII: README "Browser
// clients (CORS)": HTTPOptions.CORS "lets web pages of the listed origins
// call /mcp from a browser", and AllowedHosts lists the names clients use.
// A browser serializes an origin's host, and sends the Host header, in its
// ASCII (IDNA/punycode) form (WHATWG URL, host parsing: domain to ASCII):
// the page https://bücher.example sends Origin
// https://xn--bcher-kva.example and Host xn--bcher-kva.example. The checks
// once compared a configured Unicode name with that ASCII form byte for
// byte, so the listed origin's own page got 403 on its preflight and on
// every request. Converting a name needs the IDNA tables the server binary
// does not link (golang.org/x/net/idna, golang.org/x/text), so a name that
// is not ASCII is refused when the options are read, with an error saying
// which form to write; the ASCII form then matches what browsers send.
func TestInternationalizedNamesAreRefusedUntilWrittenInASCII(t *testing.T) {
	for _, c := range []struct {
		field string
		opts  HTTPOptions
	}{
		{"CORS.AllowedOrigins", HTTPOptions{CORS: CORSOptions{AllowedOrigins: []string{"https://bücher.example"}}}},
		{"AllowedOrigins", HTTPOptions{AllowedOrigins: []string{"https://bücher.example"}}},
		{"AllowedOrigins", HTTPOptions{AllowedOrigins: []string{"https://b%C3%BCcher.example"}}},
		{"AllowedHosts", HTTPOptions{AllowedHosts: []string{"bücher.example"}}},
	} {
		_, err := New(Options{Name: "idn", Version: "1", Tools: []Tool{weatherTool()}, HTTP: c.opts})
		if err == nil || !strings.Contains(err.Error(), "HTTPOptions."+c.field) || !strings.Contains(err.Error(), "xn--") {
			t.Errorf("New with %s %+v: error %v, want one naming the field and the xn-- form to write", c.field, c.opts, err)
		}
		s, err := New(Options{Name: "idn", Version: "1", Tools: []Tool{weatherTool()}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Shutdown(t.Context()) })
		func() {
			defer func() {
				if p := recover(); p == nil || !strings.Contains(p.(string), "xn--") {
					t.Errorf("HTTPHandler with %s %+v: panic %v, want the same error", c.field, c.opts, p)
				}
			}()
			s.HTTPHandler(c.opts)
		}()
	}

	const page = "https://xn--bcher-kva.example" // how a browser sends https://bücher.example
	_, url := corsServer(t, CORSOptions{AllowedOrigins: []string{page}}, false)
	resp := preflight(t, url, page, "POST", mcpRequestHeaders)
	if ok, why := browserAccepts(resp, page, "POST", mcpRequestHeaders); !ok {
		t.Errorf("preflight from the listed origin %s: %s, %s", page, resp.Status, why)
	}

	s, err := New(Options{Name: "idn", Version: "1", Tools: []Tool{weatherTool()}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Shutdown(t.Context()) })
	h := s.HTTPHandler(HTTPOptions{AllowedHosts: []string{"xn--bcher-kva.example"}})
	w := httptest.NewRecorder()
	h.ServeHTTP(w, newPost(t, "http://xn--bcher-kva.example/mcp", faultCall("1", "weather_current", `{"location":"Paris"}`, defaultMeta),
		stdHeaders("tools/call", "weather_current")))
	if w.Code != http.StatusOK {
		t.Errorf("Host xn--bcher-kva.example with AllowedHosts xn--bcher-kva.example: %d %s, want 200", w.Code, w.Body)
	}
}
