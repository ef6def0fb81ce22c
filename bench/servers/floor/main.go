// Command floor is the do-nothing reference server: it decodes each request
// and writes a fixed reply, marking the physical limit of the transport.
// stdio by default; -http ADDR serves the same at /mcp.
package main

import (
	"context"
	"net/http"
	"os"

	"github.com/mcpgen/mcpgen/bench/internal/peers/floorpeer"
	"github.com/mcpgen/mcpgen/bench/internal/servermain"
)

func main() {
	servermain.Main(servermain.Server{
		Stdio: func(context.Context) error { return floorpeer.ServeStdio(os.Stdin, os.Stdout) },
		HTTP:  func() (http.Handler, error) { return floorpeer.Handler(), nil },
	})
}
