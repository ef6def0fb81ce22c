// Command gosdk is the go-sdk (v1.8.0) weather benchmark server.
// stdio by default; -http ADDR serves stateless Streamable HTTP at /mcp.
package main

import (
	"context"
	"fmt"
	"net/http"
	"os"

	"github.com/mcpgen/mcpgen/bench/internal/peers/gosdkpeer"
	"github.com/mcpgen/mcpgen/bench/internal/servermain"
)

func main() {
	s, err := gosdkpeer.New()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	servermain.Main(servermain.Server{
		Stdio: func(ctx context.Context) error { return gosdkpeer.ServeStdio(ctx, s) },
		HTTP:  func() (http.Handler, error) { return gosdkpeer.Handler(s), nil },
	})
}
