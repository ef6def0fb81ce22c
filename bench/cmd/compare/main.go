// Command compare builds the benchmark servers and compares them side by
// side: in-process dispatch, stdio and Streamable HTTP, interleaved rounds,
// one table on stdout (progress on stderr), optionally JSON.
//
// Run from the bench module directory:
//
//	go run ./cmd/compare -quick
//	go run ./cmd/compare -rounds 7 -duration 3s -json out.json
//	go run ./cmd/compare -only stdio-16,go-sdk,floor -profile /tmp/prof
//	go run ./cmd/compare -only stdio-16,mcpgen,before -with before=/tmp/mcpgen-before
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/bench/internal/driver"
	"github.com/mcpgen/mcpgen/bench/internal/peers/floorpeer"
	"github.com/mcpgen/mcpgen/bench/internal/peers/gosdkpeer"
	"github.com/mcpgen/mcpgen/bench/internal/peers/mcpgenpeer"
	"github.com/mcpgen/mcpgen/bench/internal/peers/mcpgopeer"
	"github.com/mcpgen/mcpgen/bench/internal/weather"
)

// servers lists the columns: a main under ./servers/<name> (stdio by
// default, -http ADDR at /mcp, -cpuprofile FILE; servermain does all three)
// and an InProcess next to it.
func servers() []driver.Server {
	return []driver.Server{
		{Name: "mcpgen", Package: "./servers/mcpgen", Protocol: driver.Modern, InProcess: mcpgenpeer.InProcess{}},
		{Name: "go-sdk", Package: "./servers/gosdk", Protocol: driver.Modern, InProcess: gosdkpeer.InProcess{}},
		{Name: "mcp-go", Package: "./servers/mcpgo", Protocol: driver.Modern, InProcess: mcpgopeer.InProcess{}},
		{Name: "floor-raw", Package: "./servers/floor", Args: []string{"-mode", "raw"}, Protocol: driver.Modern,
			InProcess: floorpeer.InProcess{}, Floor: true},
		{Name: "floor-conc", Package: "./servers/floor", Args: []string{"-mode", "concurrent"}, Protocol: driver.Modern,
			Floor: true, NoHTTP: true},
		// mcpgen with HTTPOptions.KeepAlive negative: on the listen rows it
		// does the peers' work (they send no keep-alive comments), so its
		// idle CPU is comparable; the mcpgen column is the default's cost.
		{Name: "mcpgen-noka", Package: "./servers/mcpgen", Args: []string{"-keepalive", "-1s"}, Protocol: driver.Modern,
			Kinds: []driver.Kind{driver.KindListen}},
	}
}

// legacyKinds are the rows a legacy-session column runs.
var legacyKinds = []driver.Kind{driver.KindStdio, driver.KindHTTP}

// legacyServers are -legacy's columns: mcpgen, go-sdk and mcp-go spoken to
// through a legacy session (initialize, then plain requests), which most
// deployed clients still open; mcpgen serves it from the same handlers by
// converting each request and result (server/legacy*.go).
func legacyServers(all []driver.Server) []driver.Server {
	var out []driver.Server
	for _, s := range all {
		switch s.Name {
		case "mcpgen", "go-sdk", "mcp-go":
			s.Name += "-legacy"
			s.Protocol, s.Kinds, s.InProcess = driver.Legacy, legacyKinds, nil
			s.ModernOnly = []string{"mrtr-"} // multi round-trip results are 2026-07-28's
			out = append(out, s)
		}
	}
	return out
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "compare:", err)
		os.Exit(1)
	}
}

type options struct {
	quick                       bool
	rounds                      int
	warmup, duration, benchTime time.Duration
	only, jsonOut, profile, dir string
	baseline, floor             string
	quiet                       bool
	minRequests, maxSize        int
	maxTools, starts            int
	listenIdle                  time.Duration
	smoke                       bool
	with                        []driver.Server
	legacy                      bool
}

func parseFlags() options {
	var o options
	flag.BoolVar(&o.quick, "quick", false, "short run: 3 rounds, 100ms warm-up, 300ms windows, 200ms benchtime, 1 request per payload row, payloads up to 1 MB, up to 1000 tools")
	flag.BoolVar(&o.smoke, "smoke", false, "CI smoke run: every kind of row once, tiny windows, payloads of 1 KB; proves the harness, measures nothing")
	flag.IntVar(&o.maxTools, "max-tools", 0, "leave out start-up and cold-start rows above `N` tools (0: all; -quick: 1000, -smoke: 1)")
	flag.IntVar(&o.starts, "starts", 3, "process starts per cold-start cell and round (the median counts)")
	flag.DurationVar(&o.listenIdle, "listen-idle", 16*time.Second, "idle window of the listen rows (mcpgen's keep-alive period is 15 s; -quick 1s, -smoke 50ms)")
	flag.IntVar(&o.maxSize, "max-size", 0, "leave out payload rows above `BYTES` (0: all; -quick: 1 MiB, -smoke: 1 KiB)")
	flag.IntVar(&o.rounds, "rounds", 5, "interleaved rounds; the table shows medians")
	flag.DurationVar(&o.warmup, "warmup", 500*time.Millisecond, "load before each measuring window (results dropped)")
	flag.DurationVar(&o.duration, "duration", 2*time.Second, "measuring window of each stdio/HTTP run")
	flag.DurationVar(&o.benchTime, "benchtime", time.Second, "testing.Benchmark time per in-process run")
	flag.StringVar(&o.only, "only", "", "comma-separated rows (inproc, stdio-16, http-256, …, or a kind: inproc, stdio, http, startup, coldstart, listen) and/or servers (mcpgen, go-sdk, mcp-go, floor-raw, floor-conc, mcpgen-noka)")
	flag.StringVar(&o.jsonOut, "json", "", "also write the report as JSON to `FILE`")
	flag.StringVar(&o.profile, "profile", "", "servers write CPU profiles into `DIR` (<server>-<row>-r<round>.pprof)")
	flag.StringVar(&o.dir, "dir", ".", "bench module directory (holds go.mod and ./servers)")
	flag.StringVar(&o.baseline, "baseline", "go-sdk", "server the ratios are relative to")
	flag.StringVar(&o.floor, "floor", "floor-raw", "server whose throughput is the 100% mark")
	flag.BoolVar(&o.quiet, "q", false, "no progress lines on stderr")
	flag.IntVar(&o.minRequests, "min-requests", 3, "least requests a large-payload row measures (one at a time) however long they take")
	with := func(p driver.Protocol, kinds []driver.Kind) func(string) error {
		return func(v string) error {
			name, bin, ok := strings.Cut(v, "=")
			if !ok || name == "" || bin == "" {
				return fmt.Errorf("want NAME=BINARY, got %q", v)
			}
			abs, err := filepath.Abs(bin)
			if err != nil {
				return err
			}
			srv := driver.Server{Name: name, Binary: abs, Protocol: p, Kinds: kinds}
			if p == driver.Legacy {
				srv.ModernOnly = []string{"mrtr-"}
			}
			o.with = append(o.with, srv)
			return nil
		}
	}
	flag.Func("with", "add a column `NAME=BINARY`: a prebuilt 2026-07-28 server binary (stdio; -http ADDR), e.g. the mcpgen server built before a change, for A/B runs (repeatable)", with(driver.Modern, nil))
	flag.Func("with-legacy", "as -with, but the driver speaks to `NAME=BINARY` through a legacy session (initialize, "+driver.LegacyVersion+"), on the stdio and HTTP rows", with(driver.Legacy, legacyKinds))
	flag.BoolVar(&o.legacy, "legacy", false, "add the columns mcpgen-legacy, go-sdk-legacy and mcp-go-legacy: the same servers through a legacy session (initialize, "+driver.LegacyVersion+"), on the stdio and HTTP rows")
	flag.Parse()
	set := map[string]bool{}
	flag.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if o.smoke {
		smoke := map[string]func(){
			"rounds":       func() { o.rounds = 1 },
			"warmup":       func() { o.warmup = 10 * time.Millisecond },
			"duration":     func() { o.duration = 40 * time.Millisecond },
			"benchtime":    func() { o.benchTime = 20 * time.Millisecond },
			"min-requests": func() { o.minRequests = 1 },
			"max-size":     func() { o.maxSize = 1 << 10 },
			"max-tools":    func() { o.maxTools = 1 },
			"starts":       func() { o.starts = 1 },
			"listen-idle":  func() { o.listenIdle = 50 * time.Millisecond },
		}
		for name, apply := range smoke {
			if !set[name] {
				apply()
			}
		}
	}
	if o.quick {
		quick := map[string]func(){
			"rounds":       func() { o.rounds = 3 },
			"warmup":       func() { o.warmup = 100 * time.Millisecond },
			"duration":     func() { o.duration = 300 * time.Millisecond },
			"benchtime":    func() { o.benchTime = 200 * time.Millisecond },
			"min-requests": func() { o.minRequests = 1 },
			"max-size":     func() { o.maxSize = 1 << 20 },
			"max-tools":    func() { o.maxTools = 1000 },
			"starts":       func() { o.starts = 2 },
			"listen-idle":  func() { o.listenIdle = time.Second },
		}
		for name, apply := range quick {
			if !set[name] {
				apply()
			}
		}
	}
	return o
}

func run() error {
	o := parseFlags()
	if flag.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", flag.Args())
	}
	if o.rounds < 1 || o.duration <= 0 || o.warmup < 0 || o.benchTime <= 0 {
		return fmt.Errorf("need -rounds >= 1, -duration > 0, -warmup >= 0, -benchtime > 0")
	}
	if _, err := os.Stat(filepath.Join(o.dir, "go.mod")); err != nil {
		return fmt.Errorf("-dir %q is not the bench module (run from bench/ or pass -dir): %w", o.dir, err)
	}
	all := servers()
	if o.legacy {
		all = append(all, legacyServers(all)...)
	}
	srvs, rows, err := selectOnly(o.only, append(all, o.with...), allRows(o.maxSize, o.maxTools))
	if err != nil {
		return err
	}
	if o.profile != "" {
		if err := os.MkdirAll(o.profile, 0o755); err != nil {
			return err
		}
		if o.profile, err = filepath.Abs(o.profile); err != nil {
			return err
		}
	}
	tmp, err := os.MkdirTemp("", "mcpbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	progress := os.Stderr
	if o.quiet {
		progress = nil
	}
	start := time.Now()
	if err := driver.Build(context.Background(), o.dir, tmp, srvs); err != nil {
		return err
	}
	if progress != nil {
		fmt.Fprintf(progress, "built %d servers in %.1fs\n", len(srvs), time.Since(start).Seconds())
	}
	cfg := driver.Config{
		Servers: srvs, Measurements: rows, Rounds: o.rounds,
		Warmup: o.warmup, Duration: o.duration, BenchTime: o.benchTime,
		Call: driver.Call{
			Tool:      weather.ToolName,
			Arguments: json.RawMessage(`{"location":"Paris","units":"metric"}`),
			Expected:  weather.Text("Paris", "metric"),
		},
		Workloads: workloads(), MinRequests: o.minRequests, Timeout: time.Minute, Starts: o.starts, ListenIdle: o.listenIdle,
		Baseline: o.baseline, Floor: o.floor, ProfileDir: o.profile,
	}
	if progress != nil {
		cfg.Progress = progress
	}
	rep, runErr := driver.Run(cfg)
	if rep == nil {
		return runErr
	}
	if progress != nil {
		fmt.Fprintf(progress, "done in %.1fs\n\n", time.Since(start).Seconds())
	}
	if err := rep.WriteTable(os.Stdout); err != nil {
		return err
	}
	if o.jsonOut != "" {
		f, err := os.Create(o.jsonOut)
		if err != nil {
			return err
		}
		if err := rep.WriteJSON(f); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	return runErr // the figures are out: now the failures, if any
}

// selectOnly filters servers and rows by the -only list. A token may name a
// row, a row kind or a server; a dimension no token names stays complete.
func selectOnly(only string, srvs []driver.Server, rows []driver.Measurement) ([]driver.Server, []driver.Measurement, error) {
	if strings.TrimSpace(only) == "" {
		return srvs, rows, nil
	}
	var keepS []driver.Server
	var keepM []driver.Measurement
	for tok := range strings.SplitSeq(only, ",") {
		tok = strings.TrimSpace(tok)
		if tok == "" {
			continue
		}
		found := false
		for _, s := range srvs {
			if s.Name == tok && !slices.ContainsFunc(keepS, func(k driver.Server) bool { return k.Name == tok }) {
				keepS = append(keepS, s)
			}
			found = found || s.Name == tok
		}
		for _, m := range rows {
			if m.Name == tok || string(m.Kind) == tok || strings.HasPrefix(m.Name, tok+"-") {
				found = true
				if !slices.Contains(keepM, m) {
					keepM = append(keepM, m)
				}
			}
		}
		if !found {
			return nil, nil, fmt.Errorf("-only: %q is neither a row nor a server", tok)
		}
	}
	if keepS == nil {
		keepS = srvs
	}
	if keepM == nil {
		keepM = rows
	}
	return keepS, keepM, nil
}
