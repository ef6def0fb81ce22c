// Package servermain is the shared main of the benchmark servers: flags,
// optional CPU profile, stdio or Streamable HTTP at /mcp, and a clean stop on
// stdin EOF (stdio) or SIGINT/SIGTERM (both) so profiles are flushed.
package servermain

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"
	"time"
)

// Path is the HTTP endpoint every benchmark server serves.
const Path = "/mcp"

// Server describes how one benchmark binary serves.
type Server struct {
	// Stdio serves stdin/stdout until EOF or ctx is done.
	Stdio func(ctx context.Context) error
	// HTTP builds the handler mounted at Path when -http is given.
	HTTP func() (http.Handler, error)
}

var toolCount = flag.Int("tools", 1, "register `N` tools: weather_current and N-1 copies (start-up rows)")

// Tools is the -tools flag: how many tools the server registers. Call it
// from Stdio or HTTP (after Main has parsed the flags).
func Tools() int { return max(*toolCount, 1) }

// Main parses flags (-http ADDR, -cpuprofile FILE, -memprofile FILE,
// -tools N), serves and exits. The server is built inside Stdio or HTTP, so
// a cold start measures its construction.
func Main(s Server) {
	httpAddr := flag.String("http", "", "serve Streamable HTTP at `ADDR` (path "+Path+") instead of stdio")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile to `FILE` until the server stops")
	memProfile := flag.String("memprofile", "", "write an allocation profile to `FILE` when the server stops")
	flag.Parse()
	err := run(s, *httpAddr, *cpuProfile)
	if err == nil && *memProfile != "" {
		err = writeHeapProfile(*memProfile)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// writeHeapProfile writes the allocation profile (go tool pprof
// -sample_index=alloc_space or alloc_objects shows what was allocated).
func writeHeapProfile(name string) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func run(s Server, httpAddr, cpuProfile string) error {
	if cpuProfile != "" {
		f, err := os.Create(cpuProfile)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer f.Close()
		defer pprof.StopCPUProfile()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if httpAddr != "" {
		return serveHTTP(ctx, s, httpAddr)
	}
	done := make(chan error, 1)
	go func() { done <- s.Stdio(ctx) }()
	select {
	case err := <-done:
		if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, context.Canceled) {
			return err
		}
	case <-ctx.Done():
	}
	return nil
}

func serveHTTP(ctx context.Context, s Server, addr string) error {
	h, err := s.HTTP()
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle(Path, h)
	srv := &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.ListenAndServe() }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = srv.Shutdown(sctx)
	return nil
}
