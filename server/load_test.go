package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Load tests. The default (CI) variant runs in a few seconds; set
// MCPGEN_LOAD=long for the full issue-7 load: 100 000 pipelined tools/call
// over stdio and 64 HTTP clients for 30 s. Run with -v to see the figures:
//
//	go test ./server -run TestLoad -v
//	MCPGEN_LOAD=long go test ./server -run TestLoad -v -timeout 5m

func loadLong() bool { return os.Getenv("MCPGEN_LOAD") == "long" }

func loadServer(t testing.TB) *Server {
	t.Helper()
	s, err := New(Options{Name: "load", Version: "1", Tools: []Tool{weatherTool()},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// loadReply is the part of a tools/call reply the load tests check.
type loadReply struct {
	ID     int64 `json:"id"`
	Result *struct {
		Content           []struct{ Text string } `json:"content"`
		StructuredContent weatherReport           `json:"structuredContent"`
		IsError           bool                    `json:"isError"`
	} `json:"result"`
	Error json.RawMessage `json:"error"`
}

// checkLoadReply reports why a reply is not the expected weather result.
func checkLoadReply(line []byte) (int64, error) {
	var r loadReply
	if err := json.Unmarshal(line, &r); err != nil {
		return 0, fmt.Errorf("reply is not JSON: %v: %.200q", err, line)
	}
	if r.Result == nil || r.Result.IsError || len(r.Result.Content) != 1 ||
		r.Result.StructuredContent != (weatherReport{Location: "Paris", Units: "metric", Temperature: 21.5}) {
		return r.ID, fmt.Errorf("unexpected reply %.300q", line)
	}
	return r.ID, nil
}

// TestLoadStdioPipelined writes every request without waiting for replies
// (ServeStdio on OS pipes) and checks that each id is answered exactly once
// with the right result, that nothing leaks once ServeStdio returns, and
// reports throughput and peak RSS.
func TestLoadStdioPipelined(t *testing.T) {
	n := 20000
	if loadLong() {
		n = 100000
	}
	s := loadServer(t)
	before := resNow()
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		done <- s.ServeStdio(context.Background(), inR, outW)
		outW.Close()
	}()
	start := time.Now()
	writeErr := make(chan error, 1)
	go func() {
		bw := bufio.NewWriterSize(inW, 64<<10)
		for i := 1; i <= n; i++ {
			if _, err := bw.Write(benchCallLine(i)); err != nil {
				writeErr <- err
				return
			}
		}
		writeErr <- bw.Flush()
	}()
	seen := make([]bool, n+1)
	failed := 0
	sc := bufio.NewScanner(outR)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for got := 0; got < n; got++ {
		if !sc.Scan() {
			t.Fatalf("output ended after %d of %d replies: %v", got, n, sc.Err())
		}
		id, err := checkLoadReply(sc.Bytes())
		switch {
		case err != nil:
			failed++
			if failed < 5 {
				t.Error(err)
			}
		case id < 1 || id > int64(n) || seen[id]:
			failed++
			t.Errorf("id %d unexpected or answered twice", id)
		default:
			seen[id] = true
		}
	}
	elapsed := time.Since(start)
	if err := <-writeErr; err != nil {
		t.Fatal(err)
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Fatalf("ServeStdio: %v", err)
	}
	if sc.Scan() {
		t.Errorf("extra output after the last reply: %.200q", sc.Bytes())
	}
	inR.Close()
	outR.Close()
	after := resNoLeak(t, before, 2)
	if failed > 0 {
		t.Fatalf("%d of %d requests failed", failed, n)
	}
	t.Logf("stdio: %d pipelined tools/call in %v (%.0f calls/s), 0 failed; before %v, after %v; peak RSS (VmHWM, whole test process) %d KiB",
		n, elapsed.Round(time.Millisecond), float64(n)/elapsed.Seconds(), before, after, resPeakRSS("self"))
}

// TestLoadHTTPClients runs 64 closed-loop clients against the Streamable
// HTTP handler on a loopback listener for a fixed time (3 s, 30 s with
// MCPGEN_LOAD=long) and checks that no request fails and nothing leaks.
func TestLoadHTTPClients(t *testing.T) {
	const clients = 64
	d := 3 * time.Second
	if loadLong() {
		d = 30 * time.Second
	}
	s := loadServer(t)
	before := resNow()
	ts := httptest.NewServer(s.HTTPHandler(HTTPOptions{}))
	tr := &http.Transport{MaxIdleConnsPerHost: clients, MaxConnsPerHost: clients}
	hc := &http.Client{Transport: tr, Timeout: 10 * time.Second}
	body := bytes.TrimSuffix(benchCallLine(1), []byte("\n"))
	var ok, failed atomic.Int64
	var firstErr sync.Once
	stop := time.Now().Add(d)
	var wg sync.WaitGroup
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(stop) {
				if err := loadPost(hc, ts.URL, body); err != nil {
					failed.Add(1)
					firstErr.Do(func() { t.Error(err) })
					continue
				}
				ok.Add(1)
			}
		}()
	}
	wg.Wait()
	tr.CloseIdleConnections()
	ts.Close()
	after := resNoLeak(t, before, 2)
	if failed.Load() > 0 {
		t.Fatalf("%d of %d requests failed", failed.Load(), ok.Load()+failed.Load())
	}
	if ok.Load() == 0 {
		t.Fatal("no request completed")
	}
	t.Logf("http: %d clients for %v: %d tools/call (%.0f calls/s), 0 failed; before %v, after %v; peak RSS (VmHWM, whole test process) %d KiB",
		clients, d, ok.Load(), float64(ok.Load())/d.Seconds(), before, after, resPeakRSS("self"))
}

func loadPost(hc *http.Client, url string, body []byte) error {
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", "weather_current")
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("status %d: %.200q", resp.StatusCode, data)
	}
	_, err = checkLoadReply(data)
	return err
}
