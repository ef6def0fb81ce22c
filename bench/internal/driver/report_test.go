package driver

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func testReport() *Report {
	cell := func(fs ...Figures) *Cell { return &Cell{Rounds: fs, Median: medianFigures(fs)} }
	return &Report{
		Date:     "2026-11-30",
		Machine:  Machine{GOOS: "linux", GOARCH: "amd64", CPUs: 2, GoVersion: "go1.26.8"},
		Settings: Settings{Rounds: 3, WarmupNs: 1e8, DurationNs: 3e8},
		Baseline: "go-sdk",
		Floor:    "floor",
		Servers:  []string{"go-sdk", "mcp-go", "floor", "mcpgen"},
		Rows: []Row{
			{Measurement: Measurement{Name: "inproc", Kind: KindInProc}, Cells: map[string]*Cell{
				"go-sdk": cell(Figures{NsPerOp: 300e3, BytesPerOp: 4000, AllocsPerOp: 200}),
				"mcp-go": cell(Figures{NsPerOp: 60e3, BytesPerOp: 1000, AllocsPerOp: 300}),
				"floor":  cell(Figures{NsPerOp: 3e3, BytesPerOp: 640, AllocsPerOp: 10}),
				"mcpgen": {Skipped: "no in-process path"},
			}},
			{Measurement: Measurement{Name: "stdio-16", Kind: KindStdio, Concurrency: 16}, Cells: map[string]*Cell{
				"go-sdk": cell(Figures{RPS: 3000, P50Ns: 4e6, P99Ns: 9e6}, Figures{RPS: 3500, P50Ns: 3e6, P99Ns: 8e6}, Figures{RPS: 100, P50Ns: 5e6, P99Ns: 20e6}),
				"mcp-go": cell(Figures{RPS: 12300, P50Ns: 1e6, P99Ns: 5e6}),
				"floor":  cell(Figures{RPS: 41000, P50Ns: 150e3, P99Ns: 400e3}),
				"mcpgen": cell(Figures{RPS: 6000, P50Ns: 2e6, P99Ns: 9e6}, Figures{RPS: 14000, P50Ns: 1e6, P99Ns: 8e6}, Figures{RPS: 300, P50Ns: 5e6, P99Ns: 20e6}),
			}},
		},
	}
}

func TestWriteTable(t *testing.T) {
	var b bytes.Buffer
	if err := testReport().WriteTable(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	lines := map[string]string{}
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) > 0 {
			lines[f[0]+" "+f[1]] = l
		}
	}
	for _, tc := range []struct{ line, want string }{
		{"measurement go-sdk", "mcpgen"},
		{"inproc time/op", "300µs (1.00×)"},
		{"inproc time/op", "60.0µs (0.20×)"},
		{"inproc time/op", "n/a"},
		{"inproc allocs/op", "300 (1.50×)"},
		{"inproc B/op", "640 B (0.16×)"},
		// go-sdk median of 3000, 3500, 100 is 3000.
		{"stdio-16 req/s", "3.0k/s (1.00×) 7% of floor"},
		{"stdio-16 req/s", "12.3k/s (4.10×) 30% of floor"},
		{"stdio-16 req/s", "41.0k/s (13.7×)"},
		{"stdio-16 req/s", "-"},
		{"stdio-16 p50", "4.00ms / 9.00ms (1.00×)"},
		{"stdio-16 p50", "150µs / 400µs (0.04×)"},
		// mcpgen's median 6000 against 3000; per round 2, 4 and 3.
		{"stdio-16 req/s", "6.0k/s (2.00×, 2.00–4.00) 15% of floor"},
		{"stdio-16 CPU/req", "-"},
	} {
		if !strings.Contains(lines[tc.line], tc.want) {
			t.Errorf("line %q lacks %q:\n%s", tc.line, tc.want, out)
		}
	}
	if strings.Contains(lines["stdio-16 req/s"], "100% of floor") {
		t.Errorf("floor column must not show its own share: %s", lines["stdio-16 req/s"])
	}
	if !strings.Contains(out, "2 CPUs") || !strings.Contains(out, "median of 3 interleaved rounds") {
		t.Errorf("header lacks machine or rounds:\n%s", out)
	}
}

func TestWriteJSONRoundTrip(t *testing.T) {
	var b bytes.Buffer
	if err := testReport().WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	got := back.Rows[1].Cells["go-sdk"]
	if got.Median.RPS != 3000 || got.Median.P50Ns != 4e6 || got.Median.P99Ns != 9e6 || len(got.Rounds) != 3 {
		t.Errorf("go-sdk stdio-16 after round trip = %+v", got)
	}
	if back.Rows[0].Cells["mcpgen"].Skipped == "" || back.Rows[1].Kind != KindStdio || back.Rows[1].Concurrency != 16 {
		t.Errorf("rows after round trip = %+v", back.Rows)
	}
	if strings.Contains(b.String(), `"rps": 0`) {
		t.Error("zero figures should be omitted")
	}
}

func TestRatio(t *testing.T) {
	for _, tc := range []struct {
		v, base float64
		want    string
		ok      bool
	}{
		{3.6, 1, "3.60×", true},
		{12.34, 1, "12.3×", true},
		{250, 1, "250×", true},
		{1, 4, "0.25×", true},
		{1, 0, "", false},
		{1, -1, "", false},
	} {
		got, ok := ratio(tc.v, tc.base)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ratio(%v, %v) = %q, %v; want %q, %v", tc.v, tc.base, got, ok, tc.want, tc.ok)
		}
	}
}

func TestFormat(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{fmtRate(950), "950/s"},
		{fmtRate(12345), "12.3k/s"},
		{fmtRate(1.5e6), "1.50M/s"},
		{fmtDuration(850), "850ns"},
		{fmtDuration(12345), "12.3µs"},
		{fmtDuration(4.56e6), "4.56ms"},
		{fmtDuration(123e6), "123ms"},
		{fmtDuration(1.2e9), "1.20s"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

func TestMedianFigures(t *testing.T) {
	m := medianFigures([]Figures{
		{RPS: 10, P50Ns: 5, NsPerOp: 1, AllocsPerOp: 7},
		{RPS: 30, P50Ns: 1, NsPerOp: 3, AllocsPerOp: 9},
		{RPS: 20, P50Ns: 3, NsPerOp: 2, AllocsPerOp: 8},
	})
	if m.RPS != 20 || m.P50Ns != 3 || m.NsPerOp != 2 || m.AllocsPerOp != 8 {
		t.Errorf("medianFigures = %+v, want per-field medians 20/3/2/8", m)
	}
	if z := medianFigures(nil); z != (Figures{}) {
		t.Errorf("medianFigures(nil) = %+v", z)
	}
}
