// Command mcpgo is the mcp-go (v1.2.1) weather benchmark server.
// stdio by default; -http ADDR serves stateless Streamable HTTP at /mcp.
package main

import (
	"context"
	"net/http"

	"github.com/mcpgen/mcpgen/bench/internal/peers/mcpgopeer"
	"github.com/mcpgen/mcpgen/bench/internal/servermain"
)

func main() {
	servermain.Main(servermain.Server{
		Stdio: func(ctx context.Context) error {
			return mcpgopeer.ServeStdio(ctx, mcpgopeer.NewWithTools(servermain.Tools()))
		},
		HTTP: func() (http.Handler, error) {
			return mcpgopeer.Handler(mcpgopeer.NewWithTools(servermain.Tools())), nil
		},
	})
}
