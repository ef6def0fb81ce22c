package server

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"time"

	"github.com/mcpgen/mcpgen/jsonrpc"
)

// Authorization (basic/authorization/): on Streamable HTTP a server with
// HTTPOptions.Auth is an OAuth 2.1 resource server. Every request must carry
// "Authorization: Bearer <token>"; the token is checked by a TokenVerifier
// and the verified TokenInfo travels in the request's context (Principal),
// where the core checks the scopes of tools, prompts and resources, binds
// requestState, legacy sessions and tasks to the caller, and makes results
// cacheScope "private" by default. On stdio nothing of this applies: the
// specification has stdio servers take credentials from the environment.

// TokenVerifier checks a bearer access token and says who it speaks for.
//
// An implementation MUST check that the token is valid now (signature or
// introspection, expiry, not-before), that it was issued by the expected
// authorization server, and that it was issued for this server (the
// audience or resource is the server's canonical URI, RFC 8707): a token
// for another resource must fail. Return an error wrapping ErrInvalidToken
// for a token that is not acceptable; every error is answered 401 with
// error="invalid_token", and the error's text is logged at debug level,
// never sent. A TokenInfo that names neither a Subject nor a ClientID is
// answered 401 invalid_token too: it identifies no principal to bind
// tasks, sessions and limits to. The module github.com/mcpgen/mcpgen/oauth has implementations
// for JWT access tokens (JWKS) and RFC 7662 introspection.
type TokenVerifier interface {
	VerifyToken(ctx context.Context, token string) (*TokenInfo, error)
}

// TokenVerifierFunc adapts a function to TokenVerifier.
type TokenVerifierFunc func(ctx context.Context, token string) (*TokenInfo, error)

// VerifyToken implements TokenVerifier.
func (f TokenVerifierFunc) VerifyToken(ctx context.Context, token string) (*TokenInfo, error) {
	return f(ctx, token)
}

// ErrInvalidToken is what a TokenVerifier's errors wrap for a token that is
// malformed, expired, revoked, wrongly signed or meant for someone else.
var ErrInvalidToken = errors.New("invalid access token")

// TokenInfo is what a verified access token says about the caller.
type TokenInfo struct {
	// Subject is the token's "sub": the resource owner (or, for a client
	// acting on its own behalf, usually the client). A token needs a
	// Subject or a ClientID to be accepted.
	Subject string
	// Issuer is the authorization server that issued the token ("iss").
	Issuer string
	// ClientID is the OAuth client the token was issued to ("client_id" or
	// "azp"), when the token says.
	ClientID string
	// Audience is the token's "aud".
	Audience []string
	// Scopes are the granted scopes ("scope", space separated).
	Scopes []string
	// Expiry is when the token stops being accepted, zero when unknown:
	// its "exp", plus the verifier's allowance for clock skew when it has
	// one (oauth.JWTConfig.Leeway). The server refuses a token past it, so
	// a verifier's result reused from a cache still expires.
	Expiry time.Time
	// Claims are every claim of the token (JWT) or field of the
	// introspection response, as decoded from JSON.
	Claims map[string]any
}

// HasScope reports whether the token grants scope (exactly; scope
// hierarchies are AuthOptions.ScopeImplies).
func (t *TokenInfo) HasScope(scope string) bool {
	return t != nil && slices.Contains(t.Scopes, scope)
}

// key identifies the principal for binding: issuer and subject (the client
// when the token names no subject; the auth gate refuses a token naming
// neither). "" means unauthenticated.
func (t *TokenInfo) key() string {
	if t == nil {
		return ""
	}
	if t.Subject == "" {
		return t.Issuer + "\x00client\x00" + t.ClientID
	}
	return t.Issuer + "\x00sub\x00" + t.Subject
}

// authState is what the auth gate puts in a request's context: who called,
// the server's scope rules, and the scopes of the insufficient-scope error
// the request ended with (so the transport answers 403 with a challenge
// instead of the JSON-RPC error).
type authState struct {
	info *TokenInfo
	gate *Auth

	denied atomic.Pointer[[]string] // set by noteRefusal; read by the HTTP handler after Handle
}

type authKey struct{}

func withAuth(ctx context.Context, st *authState) context.Context {
	return context.WithValue(ctx, authKey{}, st)
}

func authFrom(ctx context.Context) *authState {
	st, _ := ctx.Value(authKey{}).(*authState)
	return st
}

// Principal returns what the verified access token of the current request
// says about the caller, or nil when the request was not authenticated
// (stdio, or HTTP without HTTPOptions.Auth). Handlers use it to decide what
// the caller may see; the raw token is deliberately not available (a server
// must not pass it through to other services).
func Principal(ctx context.Context) *TokenInfo {
	if st := authFrom(ctx); st != nil {
		return st.info
	}
	return nil
}

// principalKey is the binding key of the current request's principal, ""
// when unauthenticated.
func principalKey(ctx context.Context) string {
	return Principal(ctx).key()
}

// RequireScopes fails with an insufficient-scope error unless the current
// request's token grants every scope (after ScopeImplies). A handler that
// returns the error (wrapped or not) has it answered, on HTTP, 403 with
// WWW-Authenticate: Bearer error="insufficient_scope", scope="…" when
// nothing was streamed yet, so the client can step up. A handler may also
// use it as a test and carry on (show admins more, Options.Visible hiding
// an item): a check that failed but did not end the request changes
// nothing of its response. Outside an authenticated request it returns
// nil: scopes mean nothing without an access token.
func RequireScopes(ctx context.Context, scopes ...string) error {
	if err := checkScopes(ctx, scopes); err != nil {
		return err
	}
	return nil
}

// checkScopes is RequireScopes for the registries; it returns a
// *jsonrpc.Error so the core answers it as a protocol error.
func checkScopes(ctx context.Context, need []string) error {
	st := authFrom(ctx)
	if st == nil || len(need) == 0 || st.gate.grants(st.info, need) {
		return nil
	}
	return insufficientScope(st.gate.challengeScopes(need))
}

// noteRefusal records, when the request ends with e and e is an
// insufficient-scope error (insufficientScope: a check of the core, or
// RequireScopes' error a handler returned), the scopes it names, so that
// HTTP answers 403 with a challenge (finishDenied). A failed check the
// request did not end with is not its outcome and is not recorded.
func noteRefusal(ctx context.Context, e *jsonrpc.Error) {
	if e == nil {
		return
	}
	if st := authFrom(ctx); st != nil {
		if scopes, ok := refusedScopes(e); ok {
			st.denied.Store(&scopes)
		}
	}
}

// allowed reports whether the current request may use an item that needs
// scopes (true when unauthenticated: nothing is enforced there).
func allowed(ctx context.Context, need []string) bool {
	st := authFrom(ctx)
	return st == nil || len(need) == 0 || st.gate.grants(st.info, need)
}

// hideForbidden reports whether list results leave out what the caller may
// not use (AuthOptions.HideForbidden).
func hideForbidden(ctx context.Context) bool {
	st := authFrom(ctx)
	return st != nil && st.gate.opts.HideForbidden
}
