// Command load soaks one benchmark server process: n fully pipelined
// tools/call over stdio, then closed-loop HTTP clients for a while; every
// reply is checked, and the server's peak RSS (VmHWM) is reported. Then,
// for mcpgen, the hostile soak (internal/hostile) drives servers/hostile
// (server.Run with the default Limits) as hostile clients would: a stdio
// client that never reads, 300 stalled HTTP bodies, abrupt disconnects with
// normal clients mixed in, and SIGTERM with requests in flight on stdio and
// HTTP. It exits non-zero if any request failed or a bound did not hold.
//
//	go run ./cmd/load                   # issue-7 load: 100 000 stdio calls, 64 HTTP clients for 30 s; hostile soak with 10 000 disconnects
//	go run ./cmd/load -short            # CI: 10 000 calls, 64 clients for 3 s; 2 000 disconnects
//	go run ./cmd/load -server go-sdk    # any column of cmd/compare (no hostile soak)
//	go run ./cmd/load -hostile-only     # only the hostile soak
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/mcpgen/mcpgen/bench/internal/driver"
	"github.com/mcpgen/mcpgen/bench/internal/hostile"
	"github.com/mcpgen/mcpgen/bench/internal/weather"
)

var packages = map[string]string{
	"mcpgen": "./servers/mcpgen", "go-sdk": "./servers/gosdk", "mcp-go": "./servers/mcpgo", "floor": "./servers/floor",
}

func main() {
	name := flag.String("server", "mcpgen", "server to soak: mcpgen, go-sdk, mcp-go or floor")
	n := flag.Int("n", 100000, "pipelined stdio tools/call requests")
	clients := flag.Int("clients", 64, "concurrent HTTP clients")
	d := flag.Duration("duration", 30*time.Second, "HTTP soak duration")
	short := flag.Bool("short", false, "CI variant: -n 10000 -duration 3s")
	dir := flag.String("dir", ".", "bench module directory")
	hostileOnly := flag.Bool("hostile-only", false, "run only the hostile soak (mcpgen)")
	flag.Parse()
	sizes := hostile.Full
	if *short {
		*n, *d = 10000, 3*time.Second
		sizes = hostile.Short
	}
	if !*hostileOnly {
		if err := run(*name, *dir, *n, *clients, *d); err != nil {
			fmt.Fprintln(os.Stderr, "load:", err)
			os.Exit(1)
		}
	}
	if *name == "mcpgen" {
		if err := runHostile(*dir, sizes); err != nil {
			fmt.Fprintln(os.Stderr, "load: hostile soak:", err)
			os.Exit(1)
		}
	}
}

// runHostile builds servers/hostile and runs the hostile soak against it.
func runHostile(dir string, sizes hostile.Sizes) error {
	tmp, err := os.MkdirTemp("", "mcphostile-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	srv := []driver.Server{{Name: "hostile", Package: "./servers/hostile", Protocol: driver.Modern}}
	if err := driver.Build(context.Background(), dir, tmp, srv); err != nil {
		return err
	}
	bin, _ := filepath.Abs(srv[0].Binary)
	f, err := hostile.Run(bin, sizes, func(format string, args ...any) { fmt.Printf("mcpgen hostile: "+format+"\n", args...) })
	if err != nil {
		return err
	}
	return f.Check(sizes)
}

func run(name, dir string, n, clients int, d time.Duration) error {
	pkg, ok := packages[name]
	if !ok {
		return fmt.Errorf("unknown server %q", name)
	}
	tmp, err := os.MkdirTemp("", "mcpload-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	srv := []driver.Server{{Name: name, Package: pkg, Protocol: driver.Modern}}
	if err := driver.Build(context.Background(), dir, tmp, srv); err != nil {
		return err
	}
	srv[0].Binary, _ = filepath.Abs(srv[0].Binary)
	call := driver.Call{Tool: weather.ToolName, Arguments: json.RawMessage(`{"location":"Paris","units":"metric"}`),
		Expected: weather.Text("Paris", "metric")}
	st, err := driver.SoakStdio(srv[0], call, n, 2*time.Minute)
	if err != nil {
		return fmt.Errorf("stdio: %w", err)
	}
	fmt.Printf("%s stdio: %d pipelined tools/call in %v (%.0f calls/s), %d failed, server peak RSS %d KiB\n",
		name, st.Requests, st.Elapsed.Round(time.Millisecond), st.CallsPerSecond(), st.Failed, st.PeakRSSKiB)
	ht, err := driver.SoakHTTP(srv[0], call, clients, d, 10*time.Second)
	fmt.Printf("%s http: %d clients for %v: %d tools/call (%.0f calls/s), %d failed, server peak RSS %d KiB\n",
		name, clients, d, ht.Requests, ht.CallsPerSecond(), ht.Failed, ht.PeakRSSKiB)
	if err != nil {
		return fmt.Errorf("http: %w", err)
	}
	if st.Failed+ht.Failed > 0 {
		return fmt.Errorf("%d requests failed", st.Failed+ht.Failed)
	}
	return nil
}
