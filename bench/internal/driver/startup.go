package driver

import (
	"bufio"
	"fmt"
	"strconv"
	"testing"
	"time"
)

// Starter is implemented by an InProcess that can also build its server
// with a given number of tools (the start-up rows).
type Starter interface {
	// Start builds a server with tools tools and releases it.
	Start(tools int) error
}

// RunStartup benchmarks building st's server with tools tools.
func RunStartup(st Starter, tools int) (InProcResult, error) {
	if err := st.Start(1); err != nil { // once outside the timing: errors, lazy package state
		return InProcResult{}, err
	}
	var startErr error
	r := testing.Benchmark(func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := st.Start(tools); err != nil {
				startErr = err
				b.FailNow()
			}
		}
	})
	if startErr != nil {
		return InProcResult{}, startErr
	}
	if r.N == 0 {
		return InProcResult{}, fmt.Errorf("start-up benchmark did not run")
	}
	return InProcResult{N: r.N, NsPerOp: float64(r.T.Nanoseconds()) / float64(r.N),
		BytesPerOp: r.AllocedBytesPerOp(), AllocsPerOp: r.AllocsPerOp()}, nil
}

// RunColdStart starts s's stdio binary with -tools tools, writes c at
// once and returns the median, over starts starts, of the time from exec
// to the whole reply (process start, runtime and package init,
// registration, the first call).
func RunColdStart(s Server, c Call, tools, starts int, timeout time.Duration) (time.Duration, error) {
	enc, err := newEncoder(s.Protocol, c)
	if err != nil {
		return 0, err
	}
	if s.Protocol != Modern {
		return 0, fmt.Errorf("cold start: only 2026-07-28 servers")
	}
	req := append(enc.appendRequest(nil, verifyID), '\n')
	var times []float64
	for range max(starts, 1) {
		start := time.Now()
		proc, w, r, err := startPiped(s.Binary, append(append([]string{}, s.Args...), "-tools", strconv.Itoa(tools)))
		if err != nil {
			return 0, err
		}
		if _, err := w.Write(req); err != nil {
			w.Close()
			r.Close()
			proc.stop(time.Second)
			return 0, proc.describe(err)
		}
		kill := time.AfterFunc(timeout, proc.kill)
		line, rerr := bufio.NewReaderSize(r, 1<<20).ReadBytes('\n')
		elapsed := time.Since(start)
		kill.Stop()
		w.Close()
		r.Close()
		proc.stop(3 * time.Second)
		if rerr != nil {
			return 0, proc.describe(fmt.Errorf("cold start with %d tools: %w", tools, rerr))
		}
		if err := c.verify(line, verifyID); err != nil {
			return 0, fmt.Errorf("cold start with %d tools: %w", tools, err)
		}
		times = append(times, float64(elapsed))
	}
	return time.Duration(median(times)), nil
}
