package driver

import (
	"cmp"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// Kind is how a measurement reaches the server.
type Kind string

// Measurement kinds.
const (
	KindInProc Kind = "inproc"
	KindStdio  Kind = "stdio"
	KindHTTP   Kind = "http"
	// KindStartup builds a server with Tools tools in process
	// (testing.Benchmark of the server's Startup).
	KindStartup Kind = "startup"
	// KindColdStart starts the stdio binary with -tools N and times the
	// first reply.
	KindColdStart Kind = "coldstart"
	// KindListen opens Streams subscriptions/listen streams over HTTP,
	// measures the server's idle CPU, then the fan-out of a tools
	// list_changed to every stream.
	KindListen Kind = "listen"
)

// Measurement is one row of the table.
type Measurement struct {
	Name        string `json:"name"`
	Kind        Kind   `json:"kind"`
	Concurrency int    `json:"concurrency,omitzero"`
	// Workload names the request (a key of Config.Workloads); "" is
	// Config.Call, the weather_current call every server and floor answers.
	Workload string `json:"workload,omitzero"`
	// Tools is the server's tool count (start-up and cold start rows).
	Tools int `json:"tools,omitzero"`
	// Streams is the number of listen streams (listen rows).
	Streams int `json:"streams,omitzero"`
	// MaxRounds, if set, caps the rounds of a slow row (it runs in the
	// first MaxRounds rounds only).
	MaxRounds int `json:"maxRounds,omitzero"`
}

// Sweep is the concurrency sweep of the stdio and HTTP rows.
var Sweep = []int{1, 4, 16, 64, 256}

// DefaultMeasurements are the weather rows: inproc, then stdio-N and
// http-N for every N of Sweep.
func DefaultMeasurements() []Measurement {
	rows := []Measurement{{Name: "inproc", Kind: KindInProc}}
	for _, k := range []Kind{KindStdio, KindHTTP} {
		for _, n := range Sweep {
			rows = append(rows, Measurement{Name: fmt.Sprintf("%s-%d", k, n), Kind: k, Concurrency: n})
		}
	}
	return rows
}

// Config is a whole comparison run.
type Config struct {
	Servers      []Server
	Measurements []Measurement
	// Rounds of A B C … interleaving; the table shows per-cell medians.
	Rounds int
	// Warmup and Duration shape each stdio/HTTP run (see LoadOptions).
	Warmup, Duration time.Duration
	// BenchTime is testing.Benchmark's target time per in-process run.
	BenchTime time.Duration
	// MinRequests is the least number of requests a large-payload row
	// measures (LoadOptions.MinRequests); Timeout bounds every wait for a
	// reply (0: 10 s; the 10 MB rows need more on a busy machine).
	MinRequests int
	Timeout     time.Duration
	// ListenIdle is the idle window of the listen rows (0: Duration); a
	// keep-alive every 15 s per stream needs more than 15 s to show.
	ListenIdle time.Duration
	// Starts is how many times a cold-start row starts the server per
	// round (the median counts).
	Starts int
	Call   Call
	// Workloads are the other requests rows may name (Measurement.Workload).
	Workloads map[string]Call
	// Baseline and Floor name the servers used for ratios and floor shares.
	Baseline, Floor string
	// ProfileDir, if set, makes every started server write a CPU profile
	// there (-cpuprofile DIR/<server>-<row>-r<round>.pprof) and an
	// allocation profile (-memprofile DIR/<server>-<row>-r<round>.alloc.pprof).
	ProfileDir string
	// Progress receives one line per finished run (may be nil).
	Progress io.Writer
}

// Run measures every (row, server) pair Rounds times, interleaved: round 1
// runs row 1 on A, B, C, then row 2 on A, B, C, …; then round 2, and so on,
// so machine drift hits every server alike. A measurement that fails is
// recorded in its cell (Cell.Failures) and the run goes on, so that one
// server that stops answering does not cost the others' figures; Run then
// returns the report and an error listing the failures.
func Run(cfg Config) (*Report, error) {
	rounds := max(cfg.Rounds, 1)
	if cfg.Progress == nil {
		cfg.Progress = io.Discard
	}
	if cfg.BenchTime > 0 {
		if err := SetBenchTime(cfg.BenchTime); err != nil {
			return nil, err
		}
	}
	rep := &Report{
		Date:     time.Now().Format(time.DateOnly),
		Machine:  thisMachine(),
		Settings: Settings{Rounds: rounds, WarmupNs: cfg.Warmup.Nanoseconds(), DurationNs: cfg.Duration.Nanoseconds(), BenchTimeNs: cfg.BenchTime.Nanoseconds()},
		Baseline: cfg.Baseline,
		Floor:    cfg.Floor,
	}
	for _, s := range cfg.Servers {
		rep.Servers = append(rep.Servers, s.Name)
	}
	for _, m := range cfg.Measurements {
		row := Row{Measurement: m, Cells: map[string]*Cell{}}
		for _, s := range cfg.Servers {
			row.Cells[s.Name] = &Cell{}
		}
		rep.Rows = append(rep.Rows, row)
	}
	var failures []string
	for r := 1; r <= rounds; r++ {
		for i, m := range cfg.Measurements {
			if m.MaxRounds > 0 && r > m.MaxRounds {
				continue
			}
			for _, s := range cfg.Servers {
				cell := rep.Rows[i].Cells[s.Name]
				start := time.Now()
				f, skipped, err := measure(cfg, s, m, r)
				if err != nil {
					failure := fmt.Sprintf("round %d, %s, %s: %v", r, m.Name, s.Name, err)
					cell.Failures = append(cell.Failures, failure)
					failures = append(failures, failure)
					fmt.Fprintf(cfg.Progress, "round %d/%d  %-14s %-10s FAILED: %v\n", r, rounds, m.Name, s.Name, err)
					continue
				}
				if skipped != "" {
					cell.Skipped = skipped
					continue
				}
				cell.Rounds = append(cell.Rounds, f)
				fmt.Fprintf(cfg.Progress, "round %d/%d  %-14s %-10s %s  (%.1fs)\n", r, rounds, m.Name, s.Name, f.summary(m), time.Since(start).Seconds())
			}
		}
	}
	for _, row := range rep.Rows {
		for _, c := range row.Cells {
			c.Median = medianFigures(c.Rounds)
		}
	}
	rep.Machine.LoadAfter = loadAverage()
	if len(failures) > 0 {
		return rep, fmt.Errorf("%d measurement(s) failed:\n  %s", len(failures), strings.Join(failures, "\n  "))
	}
	return rep, nil
}

var unsafeFileChars = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

func measure(cfg Config, s Server, m Measurement, round int) (Figures, string, error) {
	if why := s.skips(m); why != "" {
		return Figures{}, why, nil
	}
	call := cfg.Call
	if m.Workload != "" {
		c, ok := cfg.Workloads[m.Workload]
		if !ok {
			return Figures{}, "", fmt.Errorf("row %s: no workload %q", m.Name, m.Workload)
		}
		call = c
	}
	switch m.Kind {
	case KindStartup:
		st, ok := s.InProcess.(Starter)
		if !ok {
			return Figures{}, "no in-process start-up", nil
		}
		r, err := RunStartup(st, m.Tools)
		if err != nil {
			return Figures{}, "", err
		}
		return Figures{NsPerOp: r.NsPerOp, BytesPerOp: r.BytesPerOp, AllocsPerOp: r.AllocsPerOp, Requests: r.N}, "", nil
	case KindListen:
		r, err := RunListen(s, call, ListenOptions{Streams: m.Streams, Idle: cmp.Or(cfg.ListenIdle, cfg.Duration), Triggers: 3, Timeout: time.Minute,
			ExtraArgs: profileArgs(cfg, s, m, round)})
		if err != nil {
			return Figures{}, "", err
		}
		return Figures{P50Ns: r.FanoutP50.Nanoseconds(), P99Ns: r.FanoutP99.Nanoseconds(), CPUNsPerReq: float64(r.FanoutCPU.Nanoseconds()),
			IdleCPUNsPerSec: float64(r.IdleCPU.Nanoseconds()), KeepAlivesPerSec: r.KeepAlives, PeakRSSKiB: int64(r.PeakRSSKiB), Requests: m.Streams}, "", nil
	case KindColdStart:
		d, err := RunColdStart(s, call, m.Tools, cfg.Starts, time.Minute)
		if err != nil {
			return Figures{}, "", err
		}
		return Figures{P50Ns: d.Nanoseconds(), Requests: max(cfg.Starts, 1)}, "", nil
	}
	if m.Kind == KindInProc {
		if s.InProcess == nil {
			return Figures{}, "no in-process path", nil
		}
		r, err := RunInProcess(s.InProcess, call)
		if err != nil {
			return Figures{}, "", err
		}
		return Figures{NsPerOp: r.NsPerOp, BytesPerOp: r.BytesPerOp, AllocsPerOp: r.AllocsPerOp, Requests: r.N}, "", nil
	}
	opt := LoadOptions{Concurrency: m.Concurrency, Warmup: cfg.Warmup, Duration: cfg.Duration,
		Sequential: m.Workload != "", MinRequests: cfg.MinRequests, Timeout: cfg.Timeout}
	opt.ExtraArgs = profileArgs(cfg, s, m, round)
	var (
		r   LoadResult
		err error
	)
	switch m.Kind {
	case KindStdio:
		r, err = RunStdio(s, call, opt)
	case KindHTTP:
		r, err = RunHTTP(s, call, opt)
	default:
		return Figures{}, "", fmt.Errorf("unknown measurement kind %q", m.Kind)
	}
	if err != nil {
		return Figures{}, "", err
	}
	return Figures{RPS: r.RPS, P50Ns: r.P50.Nanoseconds(), P99Ns: r.P99.Nanoseconds(), Requests: r.Requests,
		CPUNsPerReq: float64(r.CPUPerReq.Nanoseconds()), PeakRSSKiB: int64(r.PeakRSSKiB)}, "", nil
}

// profileArgs are the server arguments that make it write its CPU and
// allocation profiles into cfg.ProfileDir (none without one).
func profileArgs(cfg Config, s Server, m Measurement, round int) []string {
	if cfg.ProfileDir == "" {
		return nil
	}
	name := unsafeFileChars.ReplaceAllString(fmt.Sprintf("%s-%s-r%d", s.Name, m.Name, round), "_")
	return []string{
		"-cpuprofile", filepath.Join(cfg.ProfileDir, name+".pprof"),
		"-memprofile", filepath.Join(cfg.ProfileDir, name+".alloc.pprof"),
	}
}
