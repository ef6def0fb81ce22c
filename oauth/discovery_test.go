package oauth

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
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

// TestDiscoveryReadsExactMemberNames: fetchMetadata decoded the metadata
// into a Go struct with encoding/json, which matches member names
// case-insensitively and keeps the last match. So a document whose
// "issuer" member is another server's was used when a later "Issuer" (or
// "ISSUER") member held the expected issuer, and a "JWKS_URI" member was
// read as jwks_uri. RFC 8414 §3.3: "The "issuer" value returned MUST be
// identical to the authorization server's issuer identifier ... If these
// values are not identical, the data contained in the response MUST NOT be
// used"; JSON member names are case-sensitive (RFC 8259 §8.3), and the
// README's own rule elsewhere is exact member names, never encoding/json's
// case-insensitive matching.
func TestDiscoveryReadsExactMemberNames(t *testing.T) {
	var body string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(strings.ReplaceAll(body, "ISSUER_URL", "http://"+r.Host)))
	}))
	defer srv.Close()

	// The "issuer" member names another server; only "Issuer" matches.
	body = `{"issuer":"https://evil.example","Issuer":"ISSUER_URL","jwks_uri":"https://evil.example/jwks"}`
	if md, err := Discover(context.Background(), srv.URL, srv.Client()); err == nil {
		t.Errorf(`metadata whose "issuer" is https://evil.example used (issuer read as %q, jwks_uri %q); want it refused (RFC 8414 §3.3)`,
			md.Issuer, md.JWKSURI)
	}

	// No "jwks_uri" member at all: "JWKS_URI" is another member.
	body = `{"issuer":"ISSUER_URL","JWKS_URI":"https://evil.example/jwks"}`
	md, err := Discover(context.Background(), srv.URL, srv.Client())
	if err != nil {
		t.Fatal(err)
	}
	if md.JWKSURI != "" {
		t.Errorf(`metadata without a "jwks_uri" member: JWKSURI = %q, read from "JWKS_URI"`, md.JWKSURI)
	}
}

// TestDiscoveryRefusesDocumentWithTwoIssuers: a metadata document with
// two "issuer" members, the first naming another server and the second the
// expected issuer. encoding/json keeps the last, so Discover used the
// document (and its jwks_uri) though one of its "issuer" values is not
// identical to the issuer. RFC 8414 §3.3: "If these values are not
// identical, the data contained in the response MUST NOT be used"; the
// README's rule for JSON elsewhere is that a repeated member name is
// rejected rather than resolved one way or the other.
func TestDiscoveryRefusesDocumentWithTwoIssuers(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"issuer":"https://evil.example","jwks_uri":"https://evil.example/jwks","issuer":"http://` + r.Host + `"}`))
	}))
	defer srv.Close()
	if md, err := Discover(context.Background(), srv.URL, srv.Client()); err == nil {
		t.Errorf(`metadata with "issuer" https://evil.example and %s used (jwks_uri %q); want it refused`, srv.URL, md.JWKSURI)
	}
}
