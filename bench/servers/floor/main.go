// Command floor is the do-nothing reference server: it finds each request's
// id by a byte scan and writes a canned reply, marking what the transport
// costs with no MCP and no JSON work. -mode raw (default) answers on one
// goroutine; -mode concurrent has mcpgen's stdio goroutine shape (batched
// reads, parked workers, one writer). stdio by default; -http ADDR serves
// the raw floor at /mcp (net/http is already concurrent). -work D keeps the
// raw stdio floor's CPU busy for D with each request: a sweep of D finds the
// CPU a request may cost any one-goroutine server for a share of the raw
// floor (bench/README.md, "What 60 % of the stdio floor allows").
package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"os"

	"github.com/mcpgen/mcpgen/bench/internal/peers/floorpeer"
	"github.com/mcpgen/mcpgen/bench/internal/servermain"
)

var (
	mode = flag.String("mode", "raw", "raw (one goroutine) or concurrent (mcpgen's stdio shape: batched reads, parked workers, one writer)")
	work = flag.Duration("work", 0, "raw mode on stdio: keep the CPU busy this long with each request before answering (a budget sweep)")
)

func main() {
	servermain.Main(servermain.Server{
		Stdio: func(context.Context) error {
			switch *mode {
			case "raw":
				return floorpeer.ServeStdioWork(os.Stdin, os.Stdout, *work)
			case "concurrent":
				return floorpeer.ServeStdioConcurrent(os.Stdin, os.Stdout)
			}
			return fmt.Errorf("floor: -mode %q: want raw or concurrent", *mode)
		},
		HTTP: func() (http.Handler, error) { return floorpeer.Handler(), nil },
	})
}
