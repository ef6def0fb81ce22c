// Command everything is the MCP "everything server": every tool, prompt,
// resource, resource template and completion the official conformance suite
// (@modelcontextprotocol/conformance, pinned in conformance/) calls, written
// the way a user of mcpgen writes a server.
//
// The fixtures are plain Go methods of [Everything] with //mcp: directives
// (tools*.go, mrtr.go, legacy.go, prompts.go, resources.go, completion.go,
// tasks.go); `go generate` runs `mcpgen tools`, which writes mcp_gen.go, the
// bindings that register them with the runtime (Everything.MCPRegister),
// schemas included. Only test_tool_with_task is bound by hand with
// server.NewTool, because its BeforeTask hook has no directive key.
//
// Run it on stdio (the default) or on Streamable HTTP at /mcp:
//
//	go -C examples/everything run .
//	go -C examples/everything run . --http 127.0.0.1:8932
//
// As one replica of several behind a load balancer (README, "Running
// several replicas"): a shared key ring, the names clients use, and NATS
// (MCPGEN_NATS_URL) or Redis (MCPGEN_REDIS_URL) connecting the replicas:
//
//	MCPGEN_STATE_KEYS=… MCPGEN_NATS_URL=nats://127.0.0.1:4222 go -C examples/everything run . \
//		--http 0.0.0.0:8932 --allowed-hosts '*'   # one replica of several
//
// Run the conformance suite against it (it builds this package and runs
// `server --requirements 2026-07-28`):
//
//	bash conformance/run.sh
//
// Every one of the 37 scored scenarios passes (exit status 0), and so do the
// not-scored json-schema-2020-12, http-header-validation,
// http-custom-header-server-validation and the tasks-* extension scenarios
// (io.modelcontextprotocol/tasks, fixtures in tasks.go); the summary ends with
//
//	Total: 196 passed, 0 failed
//
// The Skills extension (io.modelcontextprotocol/skills) serves the embedded
// skills/ directory (skills.go); its three sep-2640-* scenarios, in no
// requirement set, pass when run by name:
//
//	bash conformance/run.sh --scenario sep-2640-skills-directory \
//	  --scenario sep-2640-skills-enumeration --scenario sep-2640-skills-manifest
//
// The catalogue of fixtures and of the suite's checks is
// conformance/FIXTURES.md. A few fixtures show API features worth copying:
// a literal JSON Schema 2020-12 inputSchema through the inputSchema= directive key
// (tools_schema.go), an x-mcp-header argument through jsonschema_extras,
// multi round-trip input with server.Ask and a sealed requestState
// (mrtr.go), argument completion through a method of the server type named
// by the prompt directive's complete= (completion.go), and tools and prompts added at run time
// (the trigger tools in tools_runtime.go).
package main

//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen tools

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "everything:", err)
		os.Exit(1)
	}
}

// run parses the flags and serves until stdin ends (stdio) or a signal
// arrives.
func run(args []string) error {
	fs := flag.NewFlagSet("everything", flag.ContinueOnError)
	httpAddr := fs.String("http", "", "serve Streamable HTTP at /mcp on this `address` (e.g. 127.0.0.1:8932) instead of stdio")
	var d deployment
	fs.StringVar(&d.allowedHosts, "allowed-hosts", "", "comma-separated Host `names` accepted besides loopback (\"*\": any), e.g. behind a load balancer")
	fs.StringVar(&d.allowedOrigins, "allowed-origins", "", "comma-separated `origins` accepted besides loopback, e.g. https://app.example.com")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %q", fs.Args())
	}
	cluster, closeCluster, err := clusterFromEnv()
	if err != nil {
		return err
	}
	if closeCluster != nil {
		defer closeCluster.Close()
	}
	d.cluster = cluster
	srv, err := newServer(d)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *httpAddr != "" {
		fmt.Fprintf(os.Stderr, "everything: serving Streamable HTTP at http://%s/mcp\n", *httpAddr)
	}
	if err := srv.Run(ctx, *httpAddr); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}
