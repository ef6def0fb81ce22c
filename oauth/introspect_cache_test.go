package oauth

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/oauth/internal/testas"
	"github.com/mcpgen/mcpgen/server"
)

// countingTransport counts the requests to paths containing "introspect".
type countingTransport struct{ n atomic.Int64 }

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if strings.Contains(r.URL.Path, "introspect") {
		c.n.Add(1)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// TestIntrospectionCache: an active token is introspected once per TTL,
// never kept past its exp, at most CacheSize answers are kept (oldest
// out first), refusals are asked every time, and each caller gets its
// own copy of the answer.
func TestIntrospectionCache(t *testing.T) {
	as := startAS(t, testas.Options{Opaque: true, Lifetime: 10 * time.Minute})
	const resource = "http://127.0.0.1:1/mcp"
	ctr := &countingTransport{}
	v, err := NewIntrospectionVerifier(context.Background(), IntrospectionConfig{
		Issuer: as.Issuer, Audience: resource, ClientID: rsClient, ClientSecret: rsSecret,
		HTTPClient: &http.Client{Transport: ctr}, CacheTTL: time.Minute, CacheSize: 2})
	if err != nil {
		t.Fatal(err)
	}
	clock := time.Now()
	v.cache.now = func() time.Time { return clock }
	ctx := context.Background()
	verify := func(tok string) *server.TokenInfo {
		t.Helper()
		info, err := v.VerifyToken(ctx, tok)
		if err != nil {
			t.Fatalf("verify: %v", err)
		}
		return info
	}
	calls := func() int64 { return ctr.n.Load() }

	a := token(t, as, resource, "mcp")
	first := verify(a)
	if calls() != 1 {
		t.Fatalf("%d introspections for the first request", calls())
	}
	first.Scopes[0] = "admin"
	first.Claims["sub"] = "someone else"
	for range 5 {
		if got := verify(a); got.Scopes[0] != "mcp" || got.Claims["sub"] == "someone else" || got.Subject != appID {
			t.Fatalf("cached answer changed by a caller: %+v", got)
		}
	}
	if calls() != 1 {
		t.Errorf("%d introspections for 6 requests with one token within the TTL, want 1", calls())
	}

	clock = clock.Add(time.Minute + time.Second)
	verify(a)
	if calls() != 2 {
		t.Errorf("after the TTL: %d introspections, want 2", calls())
	}

	// The size cap: b and c push a (the oldest) out.
	b, c := token(t, as, resource, "mcp"), token(t, as, resource, "mcp")
	verify(b)
	verify(c)
	if n := v.cache.len(); n != 2 {
		t.Errorf("cache holds %d answers, cap 2", n)
	}
	before := calls()
	verify(c)
	verify(a)
	if calls() != before+1 {
		t.Errorf("c cached and a evicted: %d introspections, want 1", calls()-before)
	}

	// Refusals are not cached.
	before = calls()
	for range 3 {
		if _, err := v.VerifyToken(ctx, "not-a-token-the-server-issued"); err == nil {
			t.Fatal("unknown token accepted")
		}
	}
	if calls() != before+3 {
		t.Errorf("unknown token: %d introspections for 3 requests, want 3", calls()-before)
	}

	// Never past exp: a token whose exp is nearer than the TTL.
	short := startAS(t, testas.Options{Opaque: true, Lifetime: 20 * time.Second})
	sv, err := NewIntrospectionVerifier(context.Background(), IntrospectionConfig{
		Issuer: short.Issuer, Audience: resource, ClientID: rsClient, ClientSecret: rsSecret,
		HTTPClient: &http.Client{Transport: ctr}})
	if err != nil {
		t.Fatal(err)
	}
	clock = time.Now()
	sv.cache.now = func() time.Time { return clock }
	st := token(t, short, resource, "mcp")
	info, err := sv.VerifyToken(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	exp := info.Expiry.Add(-defaultLeeway) // TokenInfo.Expiry is exp plus the leeway
	if info.Expiry.IsZero() || exp.Sub(clock) > 30*time.Second {
		t.Fatalf("the short-lived token's expiry is %v", info.Expiry)
	}
	if _, ok := sv.cache.get(st); !ok {
		t.Fatal("the short-lived token's answer was not cached")
	}
	clock = exp // the entry's end, though the TTL (1 minute default) has not run out
	if _, ok := sv.cache.get(st); ok {
		t.Error("an answer was served from the cache at its token's exp")
	}
}

// TestIntrospectionCacheOff: a negative CacheTTL introspects every request.
func TestIntrospectionCacheOff(t *testing.T) {
	as := startAS(t, testas.Options{Opaque: true})
	const resource = "http://127.0.0.1:1/mcp"
	ctr := &countingTransport{}
	v, err := NewIntrospectionVerifier(context.Background(), IntrospectionConfig{
		Issuer: as.Issuer, Audience: resource, ClientID: rsClient, ClientSecret: rsSecret,
		HTTPClient: &http.Client{Transport: ctr}, CacheTTL: -1})
	if err != nil {
		t.Fatal(err)
	}
	tok := token(t, as, resource, "mcp")
	for range 3 {
		if _, err := v.VerifyToken(context.Background(), tok); err != nil {
			t.Fatal(err)
		}
	}
	if ctr.n.Load() != 3 {
		t.Errorf("%d introspections, want 3", ctr.n.Load())
	}
}
