// Command authdemo runs, on 127.0.0.1, a real authorization server
// (internal/testas: zitadel/oidc's OpenID Provider) and an mcpgen server it
// protects, for clients that test their OAuth flow against mcpgen
// (clients/tests/oauth.test.mjs). It prints one JSON line,
// {"mcp": URL, "issuer": URL}, then serves until standard input closes.
//
// The MCP server needs the scope "mcp" for every request and
// "files:write" for the write_file tool (403 insufficient_scope, the
// step-up case); whoami answers with the caller's subject and scopes.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/oauth"
	"github.com/mcpgen/mcpgen/oauth/internal/testas"
	"github.com/mcpgen/mcpgen/server"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "authdemo:", err)
		os.Exit(1)
	}
}

func run() error {
	as, err := testas.Start(testas.Options{})
	if err != nil {
		return err
	}
	defer as.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	resource := "http://" + ln.Addr().String() + "/mcp"
	verifier, err := oauth.NewJWTVerifier(context.Background(), oauth.JWTConfig{Issuer: as.Issuer, Audience: resource})
	if err != nil {
		return err
	}
	auth, err := server.NewAuth(server.AuthOptions{
		Verifier: verifier, Resource: resource, AuthorizationServers: []string{as.Issuer},
		ScopesSupported: []string{"mcp"}, RequiredScopes: []string{"mcp"},
	})
	if err != nil {
		return err
	}
	whoami := func(ctx context.Context, _ struct{}) (string, error) {
		p := server.Principal(ctx)
		return p.Subject + " " + strings.Join(p.Scopes, ","), nil
	}
	write := func(ctx context.Context, _ struct{}) (string, error) {
		return "written by " + server.Principal(ctx).Subject, nil
	}
	s, err := server.New(server.Options{Name: "authdemo", Version: "1",
		Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
		Tools: []server.Tool{
			server.NewTool(server.ToolInfo{Name: "whoami", Description: "Who the caller is"}, whoami),
			server.NewTool(server.ToolInfo{Name: "write_file", Description: "Needs files:write", Scopes: []string{"files:write"}}, write),
		}})
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	auth.Mount(mux)
	mux.Handle("/mcp", s.HTTPHandler(server.HTTPOptions{Auth: auth}))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	line, _ := json.Marshal(map[string]string{"mcp": resource, "issuer": as.Issuer})
	fmt.Println(string(line))
	_, _ = io.Copy(io.Discard, os.Stdin) // until the test closes stdin
	return nil
}
