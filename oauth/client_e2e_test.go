package oauth

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/mcpgen/mcpgen/client"
	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/oauth/internal/testas"
)

// TestGoClientLogsIn: the mcpgen Go client (client.OAuthHTTP) logs in to a
// protected mcpgen server through the real authorization server: discovery,
// dynamic registration, PKCE, token, calls, and step-up on 403.
func TestGoClientLogsIn(t *testing.T) {
	as := startAS(t, testas.Options{})
	m := startMCP(t, jwtVerifier(t, as.Issuer), as.Issuer)
	const redirect = "http://127.0.0.1:9/callback"
	store := &client.MemoryStore{}
	o := &client.OAuth{RedirectURL: redirect, Authorize: client.FollowRedirects(http.DefaultClient, redirect),
		ClientName: "mcpgen-go-client-test", Store: store}
	ctx := context.Background()
	c, err := client.Connect(ctx, client.OAuthHTTP(m.url, o), &client.Options{ClientInfo: mcp.Implementation{Name: "t", Version: "1"}})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer c.Close()
	if c.ProtocolVersion() != "2026-07-28" {
		t.Errorf("protocol %s", c.ProtocolVersion())
	}
	reg := store.Registration(as.Issuer)
	if reg == nil || reg.ClientID == "" || reg.AuthMethod != "none" {
		t.Fatalf("registration: %+v", reg)
	}
	call := func(name string) string {
		raw, err := c.Call(ctx, "tools/call", map[string]any{"name": name, "arguments": map[string]any{}})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var res struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		}
		if err := json.Unmarshal(raw, &res); err != nil || len(res.Content) == 0 {
			t.Fatalf("%s: %s", name, raw)
		}
		return res.Content[0].Text
	}
	if got := call("whoami"); got != testas.DemoUser+" mcp,offline_access" {
		t.Errorf("whoami = %q", got)
	}
	first := store.Token(as.Issuer, m.url).AccessToken
	if got := call("write_file"); got != "written" {
		t.Errorf("write_file after step-up = %q", got)
	}
	if store.Token(as.Issuer, m.url).AccessToken == first {
		t.Error("step-up did not get a new token")
	}
	if got := call("whoami"); got != testas.DemoUser+" mcp,files:write,offline_access" && got != testas.DemoUser+" mcp,offline_access,files:write" {
		t.Errorf("whoami after step-up = %q", got)
	}
}
