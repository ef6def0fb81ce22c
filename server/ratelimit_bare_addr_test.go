package server

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestRateLimitBareIPv6RemoteAddrCountsItsSlash64: README "Rate limits": an
// anonymous HTTP client is "the HTTP remote IP address (... an IPv6 address
// by its /64, since one host usually holds a whole /64 and can send each
// request from another address of it)". http.Request.RemoteAddr "has no
// defined format"; the common proxy-header middlewares put in front of
// HTTPHandler (gorilla/handlers.ProxyHeaders, chi's middleware.RealIP) set
// it to the bare client IP, without a port. rateKey only cuts an address to
// its /64 when it splits as host:port, so such an IPv6 client gets a fresh
// bucket for every address of its /64: here 20 requests from one /64 with a
// burst of 1 and a rate of one request a minute are all admitted.
func TestRateLimitBareIPv6RemoteAddrCountsItsSlash64(t *testing.T) {
	s, err := New(Options{Name: "rate", Version: "1", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Tools: []Tool{weatherTool()}, Limits: Limits{Rate: RateLimit{PerSecond: 1.0 / 60, Burst: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Shutdown(t.Context()) })
	h := s.HTTPHandler(HTTPOptions{AllowedHosts: []string{"*"}})
	admitted := 0
	for i := 1; i <= 20; i++ {
		body := faultCall(fmt.Sprint(i), "weather_current", `{"location":"Paris"}`, defaultMeta)
		r := httptest.NewRequest(http.MethodPost, "http://mcp.example/mcp", strings.NewReader(body))
		for j, hd := 0, stdHeaders("tools/call", "weather_current"); j+1 < len(hd); j += 2 {
			r.Header.Set(hd[j], hd[j+1])
		}
		r.RemoteAddr = fmt.Sprintf("2001:db8::%x", i) // one /64, as a proxy-header middleware sets it
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		switch w.Code {
		case http.StatusOK:
			admitted++
		case http.StatusTooManyRequests:
		default:
			t.Fatalf("request %d: %d %s", i, w.Code, w.Body)
		}
	}
	if admitted > 1 {
		t.Fatalf("%d of 20 requests from one IPv6 /64 admitted with Burst 1 and one request a minute; one client gets 1", admitted)
	}
}
