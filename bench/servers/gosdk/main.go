// Command gosdk is the go-sdk (v1.8.0) weather benchmark server.
// stdio by default; -http ADDR serves stateless Streamable HTTP at /mcp.
package main

import (
	"context"
	"net/http"

	"github.com/mcpgen/mcpgen/bench/internal/peers/gosdkpeer"
	"github.com/mcpgen/mcpgen/bench/internal/servermain"
)

func main() {
	servermain.Main(servermain.Server{
		Stdio: func(ctx context.Context) error {
			s, err := gosdkpeer.NewWithTools(servermain.Tools())
			if err != nil {
				return err
			}
			return gosdkpeer.ServeStdio(ctx, s)
		},
		HTTP: func() (http.Handler, error) {
			s, err := gosdkpeer.NewWithTools(servermain.Tools())
			if err != nil {
				return nil, err
			}
			return gosdkpeer.Handler(s), nil
		},
	})
}
