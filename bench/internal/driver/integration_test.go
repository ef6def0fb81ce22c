package driver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

var buildDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "driver-test-")
	if err != nil {
		panic(err)
	}
	buildDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// built compiles the benchmark servers once for all integration tests.
var built = sync.OnceValues(func() (map[string]Server, error) {
	srvs := []Server{
		{Name: "mcpgen", Package: "./servers/mcpgen"},
		{Name: "go-sdk", Package: "./servers/gosdk"},
		{Name: "mcp-go", Package: "./servers/mcpgo"},
		{Name: "floor", Package: "./servers/floor"},
	}
	if err := Build(context.Background(), "../..", buildDir, srvs); err != nil {
		return nil, err
	}
	m := map[string]Server{}
	for _, s := range srvs {
		m[s.Name] = s
	}
	return m, nil
})

func server(t *testing.T, name string, p Protocol) Server {
	t.Helper()
	m, err := built()
	if err != nil {
		t.Fatal(err)
	}
	s := m[name]
	s.Protocol = p
	return s
}

// shortLoad is a quick measurement; its Timeout only guards a hang (a
// loaded CI machine can take seconds to start a server or answer).
var shortLoad = LoadOptions{Concurrency: 4, Warmup: 20 * time.Millisecond, Duration: 200 * time.Millisecond, Timeout: 30 * time.Second}

// maxWindow is the longest measuring window measureLoad tries.
const maxWindow = 13 * time.Second

// measureLoad runs one load with run and checks its result. Only requests that
// end inside the window count, so a machine that stalls the server for the
// whole window (load of 15 on 2 cores) leaves a window with no request in
// it: that window is measured again four times as long, up to maxWindow,
// instead of failing on how many requests fit in 200 ms. A server that does
// not answer still fails (the call's Timeout), and so does a result that is
// implausible in any window.
func measureLoad(t *testing.T, run func(Server, Call, LoadOptions) (LoadResult, error), s Server, c Call, opt LoadOptions) {
	t.Helper()
	for {
		r, err := run(s, c, opt)
		if err != nil {
			t.Fatal(err)
		}
		if r.Requests == 0 && opt.Duration*4 <= maxWindow {
			t.Logf("%s: no request ended in the %v window; measuring over %v", s.Name, opt.Duration, opt.Duration*4)
			opt.Duration *= 4
			continue
		}
		if r.Requests == 0 || r.RPS <= 0 || r.P50 <= 0 || r.P99 < r.P50 {
			t.Errorf("%s: implausible result %+v", s.Name, r)
		}
		return
	}
}

func TestFloorStdioAndHTTPWithProfiles(t *testing.T) {
	s := server(t, "floor", Modern)
	dir := t.TempDir()
	for kind, run := range map[string]func(Server, Call, LoadOptions) (LoadResult, error){"stdio": RunStdio, "http": RunHTTP} {
		opt := shortLoad
		prof := filepath.Join(dir, kind+".pprof")
		opt.ExtraArgs = []string{"-cpuprofile", prof}
		measureLoad(t, run, s, testCall, opt)
		if fi, err := os.Stat(prof); err != nil || fi.Size() == 0 {
			t.Errorf("%s: CPU profile not written: %v", kind, err)
		}
	}
}

func TestPeersModernStdioAndHTTP(t *testing.T) {
	call := testCall
	call.Arguments = []byte(`{"location":"Paris","units":"metric"}`)
	for _, name := range []string{"mcpgen", "go-sdk", "mcp-go"} {
		s := server(t, name, Modern)
		measureLoad(t, RunStdio, s, call, shortLoad)
		measureLoad(t, RunHTTP, s, call, shortLoad)
	}
}

func TestPeersLegacyStdioAndHTTP(t *testing.T) {
	call := testCall
	call.Arguments = []byte(`{"location":"Oslo","units":"kelvin"}`)
	call.Expected = "Oslo: 294.65 (kelvin)"
	for _, name := range []string{"go-sdk", "mcp-go"} {
		s := server(t, name, Legacy)
		measureLoad(t, RunStdio, s, call, shortLoad)
		measureLoad(t, RunHTTP, s, call, shortLoad)
	}
}

func TestVerifyFailsLoudly(t *testing.T) {
	call := testCall
	call.Expected = "Paris: 99.00 (metric)"
	s := server(t, "floor", Modern)
	if _, err := RunStdio(s, call, shortLoad); err == nil || !strings.Contains(err.Error(), "verify") {
		t.Errorf("stdio: want verify error, got %v", err)
	}
	if _, err := RunHTTP(s, call, shortLoad); err == nil || !strings.Contains(err.Error(), "verify") {
		t.Errorf("http: want verify error, got %v", err)
	}
}

func TestBrokenServersDoNotHang(t *testing.T) {
	opt := shortLoad
	opt.Timeout = 500 * time.Millisecond
	for _, s := range []Server{
		{Name: "exits", Binary: "false"},
		{Name: "silent", Binary: "cat"}, // echoes requests, never replies
		{Name: "missing", Binary: "/nonexistent/server"},
	} {
		start := time.Now()
		if _, err := RunStdio(s, testCall, opt); err == nil {
			t.Errorf("%s stdio: want error", s.Name)
		}
		if _, err := RunHTTP(s, testCall, opt); err == nil {
			t.Errorf("%s http: want error", s.Name)
		}
		if d := time.Since(start); d > 8*time.Second {
			t.Errorf("%s took %v", s.Name, d)
		}
	}
}

type fakeInProc struct{ reply string }

func (f fakeInProc) Name() string { return "fake" }
func (f fakeInProc) Setup() (func([]byte) ([]byte, error), func(), error) {
	return func([]byte) ([]byte, error) { return []byte(f.reply), nil }, func() {}, nil
}

func TestRunInProcess(t *testing.T) {
	if err := SetBenchTime(10 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	ok := fakeInProc{reply: `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"Paris: 21.50 (metric)"}]}}`}
	r, err := RunInProcess(ok, testCall)
	if err != nil {
		t.Fatal(err)
	}
	if r.N == 0 || r.NsPerOp <= 0 {
		t.Errorf("result %+v", r)
	}
	bad := fakeInProc{reply: `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"wrong"}]}}`}
	if _, err := RunInProcess(bad, testCall); err == nil {
		t.Error("wrong text: want error")
	}
}

func TestSoakMcpgen(t *testing.T) {
	s := server(t, "mcpgen", Modern)
	call := testCall
	call.Arguments = []byte(`{"location":"Paris","units":"metric"}`)
	st, err := SoakStdio(s, call, 2000, 30*time.Second)
	if err != nil || st.Requests != 2000 || st.Failed != 0 || st.Elapsed <= 0 {
		t.Fatalf("stdio soak: %+v %v", st, err)
	}
	ht, err := SoakHTTP(s, call, 8, 300*time.Millisecond, 5*time.Second)
	if err != nil || ht.Requests == 0 || ht.Failed != 0 {
		t.Fatalf("http soak: %+v %v", ht, err)
	}
	if st.PeakRSSKiB == 0 || ht.PeakRSSKiB == 0 {
		t.Errorf("peak RSS not read: %d %d", st.PeakRSSKiB, ht.PeakRSSKiB)
	}
}

// TestRunGoesOnPastAFailedCell: a server that fails its measurement (it
// exits at once) costs only its own cells: Run measures the other server
// in every round, marks the failed cell in the report, and returns the
// report with an error naming each failure.
func TestRunGoesOnPastAFailedCell(t *testing.T) {
	floor := server(t, "floor", Modern)
	cfg := Config{
		Servers:      []Server{{Name: "exits", Binary: "false"}, floor},
		Measurements: []Measurement{{Name: "stdio-4", Kind: KindStdio, Concurrency: 4}},
		Rounds:       2, Warmup: shortLoad.Warmup, Duration: shortLoad.Duration, Call: testCall,
		Timeout: 5 * time.Second, Baseline: floor.Name,
	}
	rep, err := Run(cfg)
	if rep == nil || err == nil {
		t.Fatalf("report %v, error %v: want both", rep, err)
	}
	if n := strings.Count(err.Error(), "stdio-4, exits"); n != 2 {
		t.Errorf("error names %d failures of exits, want 2: %v", n, err)
	}
	cells := rep.Rows[0].Cells
	if got := len(cells["exits"].Failures); got != 2 {
		t.Errorf("exits: %d failures recorded, want 2", got)
	}
	if got := len(cells[floor.Name].Rounds); got != 2 {
		t.Errorf("floor measured in %d rounds, want 2", got)
	}
	var b strings.Builder
	if err := rep.WriteTable(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "failed") {
		t.Errorf("table does not mark the failed cell:\n%s", b.String())
	}
}
