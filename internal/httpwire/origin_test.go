package httpwire

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestOriginPolicy(t *testing.T) {
	loop := LoopbackPolicy()
	custom := OriginPolicy{AllowedOrigins: []string{"https://app.example.com", "http://localhost:5173", "null"}}
	tests := []struct {
		name         string
		p            OriginPolicy
		host, origin string // origin "" = no Origin header
		ok           bool
	}{
		// conformance dns-rebinding-protection: Host and Origin of the attacker → 4xx.
		{"rebinding", loop, "evil.example.com", "http://evil.example.com", false},
		{"rebinding with port", loop, "evil.example.com:3000", "http://evil.example.com:3000", false},
		// ... and the server's own host:port in both → served.
		{"own 127.0.0.1", loop, "127.0.0.1:3101", "http://127.0.0.1:3101", true},
		{"own localhost", loop, "localhost:8080", "http://localhost:8080", true},
		{"own [::1]", loop, "[::1]:8080", "http://[::1]:8080", true},
		{"upper-case host", loop, "LOCALHOST:1", "", true},
		// "Security & Endpoint": Origin present and invalid → 403; absent → fine.
		{"no origin", loop, "127.0.0.1:1", "", true},
		{"foreign origin on loopback host", loop, "127.0.0.1:1", "https://evil.example", false},
		{"loopback origin other port", loop, "127.0.0.1:1", "https://localhost:9999", true},
		{"origin lookalike", loop, "127.0.0.1:1", "http://localhost.evil.example", false},
		{"origin with path", loop, "127.0.0.1:1", "http://localhost/x", false},
		{"origin with userinfo", loop, "127.0.0.1:1", "http://localhost@evil.example", false},
		{"opaque null origin", loop, "127.0.0.1:1", "null", false},
		{"garbage origin", loop, "127.0.0.1:1", "%%%", false},
		{"empty host", loop, "", "", false},
		// Zero policy: no Host check; any Origin rejected (checklist Q40: evil Origin → 403).
		{"zero: no origin", OriginPolicy{}, "mcp.example.com", "", true},
		{"zero: evil origin", OriginPolicy{}, "mcp.example.com", "https://evil.example", false},
		// Exact origin entries imply default ports; scheme matters.
		{"exact", custom, "x", "https://APP.example.com", true},
		{"exact default port", custom, "x", "https://app.example.com:443", true},
		{"exact other scheme", custom, "x", "http://app.example.com", false},
		{"exact other port", custom, "x", "http://localhost:5174", false},
		{"null listed", custom, "x", "null", true},
		{"wildcard", OriginPolicy{AllowedOrigins: []string{"*"}}, "x", "https://anything.example", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "http://placeholder/mcp", nil)
			r.Host = tt.host
			if tt.origin != "" {
				r.Header.Set("Origin", tt.origin)
			}
			rej := tt.p.Check(r)
			if tt.ok != (rej == nil) {
				t.Fatalf("ok = %v, rejection %v", tt.ok, rej)
			}
			if rej != nil && (rej.Status != http.StatusForbidden || rej.Code != CodeInvalidRequest) {
				t.Fatalf("rejection %+v, want 403 / -32600", rej)
			}
		})
	}
}

func TestOriginPolicyRepeatedOrigin(t *testing.T) {
	r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", nil)
	r.Header.Add("Origin", "http://localhost")
	r.Header.Add("Origin", "http://evil.example")
	if LoopbackPolicy().Check(r) == nil {
		t.Fatal("two Origin headers accepted")
	}
}
