package driver

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

// Report is the result of Run: one row per measurement, one cell per server.
type Report struct {
	Date     string   `json:"date"`
	Machine  Machine  `json:"machine"`
	Settings Settings `json:"settings"`
	Baseline string   `json:"baseline,omitzero"`
	Floor    string   `json:"floor,omitzero"`
	Servers  []string `json:"servers"`
	Rows     []Row    `json:"rows"`
}

// Machine is where the run happened and how busy it was.
type Machine struct {
	GOOS      string `json:"goos"`
	GOARCH    string `json:"goarch"`
	CPUs      int    `json:"cpus"`
	CPUModel  string `json:"cpuModel,omitzero"`
	GoVersion string `json:"goVersion"`
	// LoadBefore and LoadAfter are /proc/loadavg's 1, 5 and 15 minute
	// load averages at the start and the end of the run.
	LoadBefore string `json:"loadBefore,omitzero"`
	LoadAfter  string `json:"loadAfter,omitzero"`
}

// Settings are the run parameters.
type Settings struct {
	Rounds      int   `json:"rounds"`
	WarmupNs    int64 `json:"warmupNs"`
	DurationNs  int64 `json:"durationNs"`
	BenchTimeNs int64 `json:"benchTimeNs,omitzero"`
}

// Row is one measurement across all servers.
type Row struct {
	Measurement
	Cells map[string]*Cell `json:"cells"`
}

// Cell is one server's figures for one measurement.
type Cell struct {
	Median  Figures   `json:"median"`
	Rounds  []Figures `json:"rounds,omitempty"`
	Skipped string    `json:"skipped,omitzero"`
	// Failures are the rounds whose measurement failed (a server that
	// stopped answering, …): the median is of the others.
	Failures []string `json:"failures,omitempty"`
}

// Figures are the numbers of one run (or the per-field medians of several).
// Load rows use RPS/P50Ns/P99Ns (and CPUNsPerReq, PeakRSSKiB), in-process
// and start-up rows NsPerOp/BytesPerOp/AllocsPerOp, cold start P50Ns,
// listen rows P50Ns/P99Ns and CPUNsPerReq (fan-out) and IdleCPUNsPerSec.
type Figures struct {
	RPS         float64 `json:"rps,omitzero"`
	P50Ns       int64   `json:"p50Ns,omitzero"`
	P99Ns       int64   `json:"p99Ns,omitzero"`
	NsPerOp     float64 `json:"nsPerOp,omitzero"`
	BytesPerOp  int64   `json:"bytesPerOp,omitzero"`
	AllocsPerOp int64   `json:"allocsPerOp,omitzero"`
	// CPUNsPerReq is the server process's CPU time (user+system) in the
	// measuring window divided by the requests answered in it; on listen
	// rows, its CPU time per fan-out (ListenResult.FanoutCPU).
	CPUNsPerReq float64 `json:"cpuNsPerReq,omitzero"`
	// PeakRSSKiB is the server process's VmHWM at the end of the run.
	PeakRSSKiB int64 `json:"peakRSSKiB,omitzero"`
	// IdleCPUNsPerSec is the server's CPU time per second of wall time
	// while it only holds open streams.
	IdleCPUNsPerSec float64 `json:"idleCPUNsPerSec,omitzero"`
	// KeepAlivesPerSec is the SSE comments (keep-alives) all streams
	// received per second of that idle window: the work the server did in
	// it (a server that sends none does nothing for its idle CPU).
	KeepAlivesPerSec float64 `json:"keepAlivesPerSec,omitzero"`
	// Requests counted (load) or b.N (in-process).
	Requests int `json:"requests,omitzero"`
}

func (f Figures) summary(m Measurement) string {
	switch m.Kind {
	case KindInProc, KindStartup:
		return fmt.Sprintf("%s/op %d B/op %d allocs/op", fmtDuration(f.NsPerOp), f.BytesPerOp, f.AllocsPerOp)
	case KindColdStart:
		return "first reply after " + fmtDuration(float64(f.P50Ns))
	case KindListen:
		return fmt.Sprintf("fan-out p50 %s p99 %s cpu %s, idle %s CPU/s with %.1f keep-alives/s, %s", fmtDuration(float64(f.P50Ns)), fmtDuration(float64(f.P99Ns)),
			fmtDuration(f.CPUNsPerReq), fmtDuration(f.IdleCPUNsPerSec), f.KeepAlivesPerSec, fmtRSS(f.PeakRSSKiB))
	}
	return fmt.Sprintf("%s p50 %s p99 %s cpu %s/req %s", fmtRate(f.RPS), fmtDuration(float64(f.P50Ns)), fmtDuration(float64(f.P99Ns)),
		fmtDuration(f.CPUNsPerReq), fmtRSS(f.PeakRSSKiB))
}

// medianFigures takes the median of every field independently.
func medianFigures(fs []Figures) Figures {
	if len(fs) == 0 {
		return Figures{}
	}
	col := func(get func(Figures) float64) float64 {
		xs := make([]float64, len(fs))
		for i, f := range fs {
			xs[i] = get(f)
		}
		return median(xs)
	}
	i64 := func(get func(Figures) int64) int64 {
		return int64(math.Round(col(func(f Figures) float64 { return float64(get(f)) })))
	}
	return Figures{
		RPS:              col(func(f Figures) float64 { return f.RPS }),
		P50Ns:            i64(func(f Figures) int64 { return f.P50Ns }),
		P99Ns:            i64(func(f Figures) int64 { return f.P99Ns }),
		NsPerOp:          col(func(f Figures) float64 { return f.NsPerOp }),
		BytesPerOp:       i64(func(f Figures) int64 { return f.BytesPerOp }),
		AllocsPerOp:      i64(func(f Figures) int64 { return f.AllocsPerOp }),
		CPUNsPerReq:      col(func(f Figures) float64 { return f.CPUNsPerReq }),
		PeakRSSKiB:       i64(func(f Figures) int64 { return f.PeakRSSKiB }),
		IdleCPUNsPerSec:  col(func(f Figures) float64 { return f.IdleCPUNsPerSec }),
		KeepAlivesPerSec: col(func(f Figures) float64 { return f.KeepAlivesPerSec }),
		Requests:         int(math.Round(col(func(f Figures) float64 { return float64(f.Requests) }))),
	}
}

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// line is one printed table line: a label and how to read a figure from a cell.
type line struct {
	label string
	value func(Figures) float64
	cell  func(Figures) string
	floor bool // show the share of the floor server
}

func durLine(label string, get func(Figures) float64) line {
	return line{label: label, value: get, cell: func(f Figures) string { return fmtDuration(get(f)) }}
}

func linesFor(m Measurement) []line {
	p50 := func(f Figures) float64 { return float64(f.P50Ns) }
	rss := line{label: m.Name + " peak RSS", value: func(f Figures) float64 { return float64(f.PeakRSSKiB) },
		cell: func(f Figures) string { return fmtRSS(f.PeakRSSKiB) }}
	switch m.Kind {
	case KindInProc, KindStartup:
		return []line{
			durLine(m.Name+" time/op", func(f Figures) float64 { return f.NsPerOp }),
			{label: m.Name + " B/op", value: func(f Figures) float64 { return float64(f.BytesPerOp) },
				cell: func(f Figures) string { return fmtBytes(f.BytesPerOp) }},
			{label: m.Name + " allocs/op", value: func(f Figures) float64 { return float64(f.AllocsPerOp) },
				cell: func(f Figures) string { return fmt.Sprint(f.AllocsPerOp) }},
		}
	case KindColdStart:
		return []line{durLine(m.Name+" first reply", p50)}
	case KindListen:
		return []line{
			{label: m.Name + " fan-out p50 / p99", value: p50, cell: func(f Figures) string {
				return fmtDuration(float64(f.P50Ns)) + " / " + fmtDuration(float64(f.P99Ns))
			}},
			durLine(m.Name+" fan-out CPU", func(f Figures) float64 { return f.CPUNsPerReq }),
			durLine(m.Name+" idle CPU/s", func(f Figures) float64 { return f.IdleCPUNsPerSec }),
			{label: m.Name + " idle keep-alives/s", value: func(f Figures) float64 { return f.KeepAlivesPerSec },
				cell: func(f Figures) string { return fmt.Sprintf("%.1f", f.KeepAlivesPerSec) }},
			rss,
		}
	}
	lines := []line{
		{label: m.Name + " req/s", value: func(f Figures) float64 { return f.RPS },
			cell: func(f Figures) string { return fmtRate(f.RPS) }, floor: true},
		{label: m.Name + " p50 / p99", value: p50,
			cell: func(f Figures) string {
				return fmtDuration(float64(f.P50Ns)) + " / " + fmtDuration(float64(f.P99Ns))
			}},
		durLine(m.Name+" CPU/req", func(f Figures) float64 { return f.CPUNsPerReq }),
	}
	if m.Workload != "" {
		lines = append(lines, rss)
	}
	return lines
}

// WriteTable prints the comparison: rows = measurements, columns = servers.
// Every figure carries its ratio to the baseline server's (of the medians)
// and the spread of that ratio (lowest–highest over the rounds, each
// round's figure against the baseline's in the same round); throughput
// figures also carry their share of the floor server's.
func (r *Report) WriteTable(w io.Writer) error {
	fmt.Fprintf(w, "MCP server comparison, %s, %s/%s, %d CPUs (%s), %s\n", r.Date, r.Machine.GOOS, r.Machine.GOARCH, r.Machine.CPUs, r.Machine.CPUModel, r.Machine.GoVersion)
	if r.Machine.LoadBefore != "" {
		fmt.Fprintf(w, "load average (1/5/15 min) %s at the start, %s at the end\n", r.Machine.LoadBefore, r.Machine.LoadAfter)
	}
	fmt.Fprintf(w, "median of %d interleaved rounds; load runs: %v warm-up + %v window; driver and servers share the CPUs\n",
		r.Settings.Rounds, time.Duration(r.Settings.WarmupNs), time.Duration(r.Settings.DurationNs))
	if r.Baseline != "" {
		fmt.Fprintf(w, "(N×, lo–hi) = figure / %s's figure: the ratio of the medians, then the lowest and highest ratio of one round's figures (higher is better for req/s, lower for times, bytes, allocs, RSS; p50 ratio on latency rows)\n", r.Baseline)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 3, ' ', 0)
	fmt.Fprint(tw, "measurement")
	for _, s := range r.Servers {
		fmt.Fprint(tw, "\t", s)
	}
	fmt.Fprintln(tw)
	for _, row := range r.Rows {
		for _, l := range linesFor(row.Measurement) {
			fmt.Fprint(tw, l.label)
			for _, s := range r.Servers {
				fmt.Fprint(tw, "\t", r.cellText(row, s, l))
			}
			fmt.Fprintln(tw)
		}
	}
	return tw.Flush()
}

func (r *Report) cellText(row Row, server string, l line) string {
	c := row.Cells[server]
	if c == nil || len(c.Rounds) == 0 {
		switch {
		case c != nil && len(c.Failures) > 0:
			return "failed"
		case c != nil && c.Skipped != "":
			return "n/a"
		}
		return "-"
	}
	v := l.value(c.Median)
	parts := []string{l.cell(c.Median)}
	if b := row.Cells[r.Baseline]; b != nil && len(b.Rounds) > 0 {
		if rt, ok := ratio(v, l.value(b.Median)); ok {
			if lo, hi, ok := spread(c.Rounds, b.Rounds, l.value); ok && server != r.Baseline {
				rt += ", " + trimX(lo) + "–" + trimX(hi)
			}
			parts = append(parts, "("+rt+")")
		}
	}
	if f := row.Cells[r.Floor]; l.floor && server != r.Floor && f != nil && len(f.Rounds) > 0 {
		if fv := l.value(f.Median); fv > 0 {
			parts = append(parts, fmt.Sprintf("%.0f%% of floor", 100*v/fv))
		}
	}
	if n := len(c.Failures); n > 0 {
		parts = append(parts, fmt.Sprintf("[%d round(s) failed]", n))
	}
	return strings.Join(parts, " ")
}

// spread returns the lowest and highest per-round ratio of a cell's rounds
// to the baseline's rounds of the same index (the same interleaved round).
func spread(rounds, base []Figures, value func(Figures) float64) (lo, hi string, ok bool) {
	var xs []float64
	for i := range min(len(rounds), len(base)) {
		if b := value(base[i]); b > 0 {
			xs = append(xs, value(rounds[i])/b)
		}
	}
	if len(xs) < 2 {
		return "", "", false
	}
	lo, _ = ratio(slices.Min(xs), 1)
	hi, _ = ratio(slices.Max(xs), 1)
	return lo, hi, true
}

func trimX(s string) string { return strings.TrimSuffix(s, "×") }

// ratio formats v/base as "3.60×"; ok is false when base is not positive.
func ratio(v, base float64) (string, bool) {
	if base <= 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return "", false
	}
	x := v / base
	switch {
	case x >= 100:
		return fmt.Sprintf("%.0f×", x), true
	case x >= 10:
		return fmt.Sprintf("%.1f×", x), true
	}
	return fmt.Sprintf("%.2f×", x), true
}

// fmtRate formats requests per second: 950/s, 12.3k/s, 1.23M/s.
func fmtRate(v float64) string {
	switch {
	case v >= 1e6:
		return fmt.Sprintf("%.2fM/s", v/1e6)
	case v >= 1e3:
		return fmt.Sprintf("%.1fk/s", v/1e3)
	case v >= 10:
		return fmt.Sprintf("%.0f/s", v)
	}
	return fmt.Sprintf("%.2f/s", v)
}

// fmtBytes formats a byte count: 640 B, 12.3 kB, 4.56 MB.
func fmtBytes(n int64) string {
	switch v := float64(n); {
	case v >= 1e6:
		return fmt.Sprintf("%.3g MB", v/1e6)
	case v >= 1e4:
		return fmt.Sprintf("%.3g kB", v/1e3)
	}
	return fmt.Sprintf("%d B", n)
}

// fmtRSS formats a VmHWM in KiB as MiB.
func fmtRSS(kib int64) string {
	if kib <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f MiB", float64(kib)/1024)
}

// fmtDuration formats nanoseconds with three significant digits: 850ns, 12.3µs, 4.56ms, 1.20s.
func fmtDuration(ns float64) string {
	unit, div := "ns", 1.0
	switch {
	case ns >= 1e9:
		unit, div = "s", 1e9
	case ns >= 1e6:
		unit, div = "ms", 1e6
	case ns >= 1e3:
		unit, div = "µs", 1e3
	}
	v := ns / div
	switch {
	case div == 1 || v >= 100:
		return fmt.Sprintf("%.0f%s", v, unit)
	case v >= 10:
		return fmt.Sprintf("%.1f%s", v, unit)
	}
	return fmt.Sprintf("%.2f%s", v, unit)
}
