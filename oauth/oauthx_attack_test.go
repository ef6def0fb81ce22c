package oauth

import (
	"testing"
)

// TestAttackReloginDropsGrantedScopes: the client stepped up to
// "mcp files:write"; its token expires (no refresh token); the next call
// of the files:write tool gets 401, the client re-authorizes with the
// 401 challenge's scope "mcp" only, the retried call gets 403 and fails —
// a call that needed no user decision fails after every token lifetime.
// basic/authorization/ (Scope Selection Strategy): "When re-authorizing,
// clients SHOULD include these scopes alongside any previously granted
// scopes to avoid losing permissions needed for other operations"; the
// client keeps the union for 403 step-ups (oauth.go) but not for the 401
// re-login.
func TestAttackReloginDropsGrantedScopes(t *testing.T) {
	call, expire := stepUpFixture(t)
	if err := call(); err != nil {
		t.Fatalf("first step-up: %v", err)
	}
	expire()
	if err := call(); err != nil {
		t.Fatalf("after the token expired, the client re-authorized without the files:write it had been granted: %v", err)
	}
}
