// Command weather is the MCP server of the specification's architecture
// walkthrough, built with mcpgen: a developer writes the tool bodies
// (tools.go) and `go generate` binds them (mcp_gen.go).
//
// Tools: weather_current (current conditions at a city, address or
// lat,long), calculator_arithmetic (expressions such as
// "2 + 3 * (4 ^ 2) - sin(30)") and, switched in and out on SIGHUP,
// weather_forecast; every subscriptions/listen stream that asked for
// toolsListChanged is told when the tool set changes.
//
// Usage:
//
//	go run ./examples/weather                               # stdio
//	go run ./examples/weather --http 127.0.0.1:8931         # Streamable HTTP at /mcp
//	go run ./examples/weather --provider open-meteo         # real weather (network)
//	kill -HUP <pid>                                         # toggle weather_forecast
//
// The default provider is offline: deterministic sample data that says so
// in every report. Diagnostics go to stderr; on stdio, stdout carries only
// protocol messages.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/mcpgen/mcpgen/examples/weather/internal/weather"
	"github.com/mcpgen/mcpgen/server"
)

func main() {
	if err := run(os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "weather:", err)
		os.Exit(1)
	}
}

// run parses flags, serves until SIGINT/SIGTERM (or stdin ends on stdio)
// and toggles weather_forecast on every SIGHUP.
func run(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("weather", flag.ContinueOnError)
	fs.SetOutput(stderr)
	httpAddr := fs.String("http", "", "serve Streamable HTTP at /mcp on `addr` (e.g. 127.0.0.1:8931) instead of stdio")
	providerName := fs.String("provider", weather.SourceOffline, "weather `provider`: offline (deterministic sample data) or open-meteo (network, no key)")
	forecast := fs.Bool("forecast", false, "start with weather_forecast in the tool set (SIGHUP toggles it)")
	verbose := fs.Bool("v", false, "log debug diagnostics to stderr")
	hosts := fs.String("allowed-hosts", "", "comma-separated Host `names` accepted besides loopback (\"*\": any), e.g. behind a load balancer")
	origins := fs.String("allowed-origins", "", "comma-separated `origins` accepted besides loopback (browser clients)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil // --help printed the usage: success
		}
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))

	provider, err := newProvider(*providerName)
	if err != nil {
		return err
	}
	keys, err := server.StateKeysFromEnv() // MCPGEN_STATE_KEYS: the ring replicas share
	if err != nil {
		return err
	}
	app, err := NewApp(AppOptions{Provider: provider, Forecast: *forecast, Logger: logger, StateKeys: keys,
		HTTP: server.HTTPOptions{AllowedHosts: splitList(*hosts), AllowedOrigins: splitList(*origins)}})
	if err != nil {
		return err
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-hup:
				on, err := app.ToggleForecast()
				if err != nil {
					logger.Error("SIGHUP: toggling weather_forecast", "err", err)
					continue
				}
				logger.Info("SIGHUP: tool set changed", "tool", forecastTool, "enabled", on)
			}
		}
	}()

	logger.Debug("weather server starting", "provider", provider.Name(), "http", *httpAddr)
	return app.Server.Run(ctx, *httpAddr)
}

// newProvider returns the weather provider called name.
func newProvider(name string) (weather.Provider, error) {
	switch name {
	case weather.SourceOffline:
		return weather.NewOffline(), nil
	case weather.SourceOpenMeteo:
		return weather.NewOpenMeteo(&http.Client{Timeout: 15 * time.Second}), nil
	}
	return nil, errors.New("unknown --provider " + fmt.Sprintf("%q", name) + " (want offline or open-meteo)")
}

// splitList splits a comma-separated flag value, dropping blanks.
func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}
