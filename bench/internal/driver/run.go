package driver

import (
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"runtime"
	"time"
)

// Kind is how a measurement reaches the server.
type Kind string

// Measurement kinds.
const (
	KindInProc Kind = "inproc"
	KindStdio  Kind = "stdio"
	KindHTTP   Kind = "http"
)

// Measurement is one row of the table.
type Measurement struct {
	Name        string `json:"name"`
	Kind        Kind   `json:"kind"`
	Concurrency int    `json:"concurrency,omitzero"`
}

// DefaultMeasurements are the rows: inproc, stdio-1, stdio-16, http-1, http-32.
func DefaultMeasurements() []Measurement {
	return []Measurement{
		{Name: "inproc", Kind: KindInProc},
		{Name: "stdio-1", Kind: KindStdio, Concurrency: 1},
		{Name: "stdio-16", Kind: KindStdio, Concurrency: 16},
		{Name: "http-1", Kind: KindHTTP, Concurrency: 1},
		{Name: "http-32", Kind: KindHTTP, Concurrency: 32},
	}
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
	Call      Call
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
// so machine drift hits every server alike. Any failure aborts the run.
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
		Machine:  Machine{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, CPUs: runtime.NumCPU(), GoVersion: runtime.Version()},
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
	for r := 1; r <= rounds; r++ {
		for i, m := range cfg.Measurements {
			for _, s := range cfg.Servers {
				cell := rep.Rows[i].Cells[s.Name]
				start := time.Now()
				f, skipped, err := measure(cfg, s, m, r)
				if err != nil {
					return nil, fmt.Errorf("round %d, %s, %s: %w", r, m.Name, s.Name, err)
				}
				if skipped != "" {
					cell.Skipped = skipped
					continue
				}
				cell.Rounds = append(cell.Rounds, f)
				fmt.Fprintf(cfg.Progress, "round %d/%d  %-9s %-10s %s  (%.1fs)\n", r, rounds, m.Name, s.Name, f.summary(m.Kind), time.Since(start).Seconds())
			}
		}
	}
	for _, row := range rep.Rows {
		for _, c := range row.Cells {
			c.Median = medianFigures(c.Rounds)
		}
	}
	return rep, nil
}

var unsafeFileChars = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

func measure(cfg Config, s Server, m Measurement, round int) (Figures, string, error) {
	if m.Kind == KindInProc {
		if s.InProcess == nil {
			return Figures{}, "no in-process path", nil
		}
		r, err := RunInProcess(s.InProcess, cfg.Call)
		if err != nil {
			return Figures{}, "", err
		}
		return Figures{NsPerOp: r.NsPerOp, BytesPerOp: r.BytesPerOp, AllocsPerOp: r.AllocsPerOp, Requests: r.N}, "", nil
	}
	opt := LoadOptions{Concurrency: m.Concurrency, Warmup: cfg.Warmup, Duration: cfg.Duration}
	if cfg.ProfileDir != "" {
		name := unsafeFileChars.ReplaceAllString(fmt.Sprintf("%s-%s-r%d", s.Name, m.Name, round), "_")
		opt.ExtraArgs = []string{
			"-cpuprofile", filepath.Join(cfg.ProfileDir, name+".pprof"),
			"-memprofile", filepath.Join(cfg.ProfileDir, name+".alloc.pprof"),
		}
	}
	var (
		r   LoadResult
		err error
	)
	switch m.Kind {
	case KindStdio:
		r, err = RunStdio(s, cfg.Call, opt)
	case KindHTTP:
		r, err = RunHTTP(s, cfg.Call, opt)
	default:
		return Figures{}, "", fmt.Errorf("unknown measurement kind %q", m.Kind)
	}
	if err != nil {
		return Figures{}, "", err
	}
	return Figures{RPS: r.RPS, P50Ns: r.P50.Nanoseconds(), P99Ns: r.P99.Nanoseconds(), Requests: r.Requests}, "", nil
}
