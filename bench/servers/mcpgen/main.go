// Command mcpgen is the mcpgen-runtime weather benchmark server.
// stdio by default; -http ADDR serves Streamable HTTP at /mcp.
package main

import (
	"context"
	"flag"
	"net/http"

	"github.com/mcpgen/mcpgen/bench/internal/peers/mcpgenpeer"
	"github.com/mcpgen/mcpgen/bench/internal/servermain"
	"github.com/mcpgen/mcpgen/server"
)

// keepAlive is HTTPOptions.KeepAlive: -keepalive=-1 serves listen streams
// without keep-alive comments, the same work as the peers, which send none.
var keepAlive = flag.Duration("keepalive", 0, "HTTPOptions.KeepAlive (0: the default 15 s; negative: no keep-alives)")

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
			return s.HTTPHandler(server.HTTPOptions{MaxBodyBytes: mcpgenpeer.MaxBodyBytes, KeepAlive: *keepAlive}), nil
		},
	})
}
