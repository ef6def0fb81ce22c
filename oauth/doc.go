// Package oauth verifies OAuth 2.1 access tokens for an mcpgen server that
// is a protected resource (server.HTTPOptions.Auth): a JWTVerifier checks
// JWT access tokens (RFC 9068) against the authorization server's JWKS, an
// IntrospectionVerifier asks the authorization server (RFC 7662). Both are
// server.TokenVerifier and both bind tokens to the server: the audience
// must be the server's canonical URI (RFC 8707), so a token issued for
// another resource is refused.
//
// It is its own Go module, so the core module stays free of JOSE and OAuth
// client libraries: JWTs are parsed and checked with
// github.com/go-jose/go-jose/v4, introspection and metadata discovery use
// github.com/zitadel/oidc/v3's client packages.
package oauth
