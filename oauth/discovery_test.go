package oauth

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestDiscoveryRefusesNullMetadata: the issuer's metadata URL answers 200
// with the JSON body "null" (RFC 8414 §3.2: the response is a JSON object).
// Discover, which NewJWTVerifier and NewIntrospectionVerifier call, refuses
// it with an error (after trying the other well-known URLs); it panicked
// with a nil pointer dereference (zitadel's client.Discover decoded "null"
// into a nil *DiscoveryConfiguration and read its Issuer), taking down the
// server at startup instead of reporting "no authorization server
// metadata".
func TestDiscoveryRefusesNullMetadata(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`null`))
	}))
	defer srv.Close()
	for name, construct := range map[string]func() error{
		"Discover": func() error { _, err := Discover(context.Background(), srv.URL, srv.Client()); return err },
		"NewJWTVerifier": func() error {
			_, err := NewJWTVerifier(context.Background(), JWTConfig{Issuer: srv.URL, Audience: "https://mcp.example.test/mcp"})
			return err
		},
	} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s panicked on metadata of null: %v", name, r)
				}
			}()
			if err := construct(); err == nil {
				t.Errorf("%s accepted metadata of null", name)
			}
		}()
	}
}
