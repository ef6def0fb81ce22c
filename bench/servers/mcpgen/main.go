// Command mcpgen is the mcpgen-runtime weather benchmark server.
// stdio by default; -http ADDR serves Streamable HTTP at /mcp.
package main

import (
	"context"
	"net/http"

	"github.com/mcpgen/mcpgen/bench/internal/peers/mcpgenpeer"
	"github.com/mcpgen/mcpgen/bench/internal/servermain"
)

func main() {
	servermain.Main(servermain.Server{
		Stdio: func(ctx context.Context) error {
			s, err := mcpgenpeer.NewWithTools(servermain.Tools())
			if err != nil {
				return err
			}
			return mcpgenpeer.ServeStdio(ctx, s)
		},
		HTTP: func() (http.Handler, error) {
			s, err := mcpgenpeer.NewWithTools(servermain.Tools())
			if err != nil {
				return nil, err
			}
			return mcpgenpeer.Handler(s), nil
		},
	})
}
