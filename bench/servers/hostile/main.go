// Command hostile is the server of the hostile soak (go run ./cmd/load
// -hostile): the weather tool and three probes, sleep, goroutines and stacks, served
// by server.Run with its default Limits, the way an `mcpgen init` project
// serves: stdio, or Streamable HTTP with -http ADDR; SIGTERM drains.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"syscall"
	"time"

	_ "github.com/mcpgen/mcpgen/argschema" // schemas of the probes' argument types at start-up
	"github.com/mcpgen/mcpgen/server"

	"github.com/mcpgen/mcpgen/bench/internal/peers/mcpgenpeer"
)

// sleepArgs are the arguments of sleep.
type sleepArgs struct {
	MS int `json:"ms" jsonschema:"required"`
}

func main() {
	httpAddr := flag.String("http", "", "serve Streamable HTTP at `ADDR` instead of stdio")
	readTimeout := flag.Duration("read-timeout", 0, "Limits.ReadTimeout (0: the default)")
	flag.Parse()
	opts := server.Options{Name: "hostile", Version: "1", Limits: server.Limits{ReadTimeout: *readTimeout},
		Tools: []server.Tool{
			server.NewTool(server.ToolInfo{Name: "sleep", Description: "Sleep ms milliseconds (cancellation ends it)."},
				func(ctx context.Context, in sleepArgs) (string, error) {
					select {
					case <-time.After(time.Duration(in.MS) * time.Millisecond):
						return "slept", nil
					case <-ctx.Done():
						return "", ctx.Err()
					}
				}),
			server.NewTool(server.ToolInfo{Name: "goroutines", Description: "The server's goroutine count."},
				func(context.Context, struct{}) (string, error) { return strconv.Itoa(runtime.NumGoroutine()), nil }),
			server.NewTool(server.ToolInfo{Name: "stacks", Description: "The server's goroutines, counted by the first frame outside the runtime."},
				func(context.Context, struct{}) (string, error) { return stackSummary(), nil }),
		}}
	(&mcpgenpeer.Tools{}).MCPRegister(&opts)
	s, err := server.New(opts)
	if err == nil {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		err = s.Run(ctx, *httpAddr)
		stop()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "hostile:", err)
		os.Exit(1)
	}
}
