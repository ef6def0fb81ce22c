// Command mcpgen is the mcpgen-runtime weather benchmark server.
// stdio by default; -http ADDR serves Streamable HTTP at /mcp.
package main

import (
	"context"
	"fmt"
	"net/http"
	"os"

	"github.com/mcpgen/mcpgen/bench/internal/peers/mcpgenpeer"
	"github.com/mcpgen/mcpgen/bench/internal/servermain"
)

func main() {
	s, err := mcpgenpeer.New()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	servermain.Main(servermain.Server{
		Stdio: func(ctx context.Context) error { return mcpgenpeer.ServeStdio(ctx, s) },
		HTTP:  func() (http.Handler, error) { return mcpgenpeer.Handler(s), nil },
	})
}
