package driver

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// SoakResult is the outcome of a soak run against one server process.
type SoakResult struct {
	Requests int64         // replies received and checked
	Failed   int64         // error replies, wrong text, unknown or repeated ids, transport errors
	Elapsed  time.Duration // first request to last reply
	// PeakRSSKiB is the server process's VmHWM (/proc/<pid>/status) read
	// just before it is stopped; -1 where /proc is not available.
	PeakRSSKiB int
}

// CallsPerSecond is Requests / Elapsed.
func (r SoakResult) CallsPerSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Requests) / r.Elapsed.Seconds()
}

// SoakStdio starts s and writes n tools/call requests on its stdin without
// waiting for any reply (fully pipelined), while reading and checking every
// reply (the text must be c.Expected; each id answered once).
func SoakStdio(s Server, c Call, n int, timeout time.Duration) (SoakResult, error) {
	enc, err := newEncoder(s.Protocol, c)
	if err != nil {
		return SoakResult{}, err
	}
	if s.Protocol != Modern {
		return SoakResult{}, fmt.Errorf("soak: only 2026-07-28 servers")
	}
	proc, w, r, err := startPiped(s.Binary, s.Args)
	if err != nil {
		return SoakResult{}, err
	}
	defer r.Close()
	defer proc.stop(5 * time.Second)
	start := time.Now()
	werr := make(chan error, 1)
	go func() {
		bw := bufio.NewWriterSize(w, 64<<10)
		buf := make([]byte, 0, 512)
		for id := int64(firstID); id < firstID+int64(n); id++ {
			buf = append(enc.appendRequest(buf[:0], id), '\n')
			if _, err := bw.Write(buf); err != nil {
				werr <- err
				return
			}
		}
		werr <- bw.Flush()
	}()
	res := SoakResult{PeakRSSKiB: -1}
	seen := make([]bool, n)
	br := bufio.NewReaderSize(r, 64<<10)
	deadline := time.AfterFunc(timeout, func() { r.Close() })
	defer deadline.Stop()
	for res.Requests < int64(n) {
		line, err := br.ReadBytes('\n')
		if err != nil {
			w.Close()
			return res, proc.describe(fmt.Errorf("after %d of %d replies: %w", res.Requests, n, err))
		}
		id, _, ok := parseResponse(line)
		if !ok {
			continue // a notification
		}
		res.Requests++
		i := id - firstID
		if i < 0 || i >= int64(n) || seen[i] || c.verify(bytes.TrimSpace(line), id) != nil {
			res.Failed++
			continue
		}
		seen[i] = true
	}
	res.Elapsed = time.Since(start)
	res.PeakRSSKiB = peakRSS(proc.cmd.Process.Pid)
	if err := <-werr; err != nil {
		res.Failed++
	}
	w.Close() // stdin EOF: the server exits
	return res, nil
}

// SoakHTTP starts s with -http and runs clients closed-loop clients for d.
func SoakHTTP(s Server, c Call, clients int, d, timeout time.Duration) (SoakResult, error) {
	enc, err := newEncoder(s.Protocol, c)
	if err != nil {
		return SoakResult{}, err
	}
	addr, err := freeAddr()
	if err != nil {
		return SoakResult{}, err
	}
	proc, err := startProcess(s.Binary, append(append([]string{}, s.Args...), "-http", addr), nil, nil)
	if err != nil {
		return SoakResult{}, err
	}
	defer proc.stop(0)
	if err := waitListening(proc, addr, timeout); err != nil {
		return SoakResult{}, proc.describe(err)
	}
	h := &httpTarget{url: "http://" + addr + s.httpPath(), enc: enc, proto: s.Protocol, method: c.method(), name: c.headerName(),
		timeout: timeout, client: newHTTPClient(clients, timeout)}
	defer h.client.CloseIdleConnections()
	var ok, failed atomic.Int64
	var firstErr atomic.Value
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	start := time.Now()
	var wg sync.WaitGroup
	for w := range clients {
		wg.Go(func() {
			sess := &session{}
			for id := int64(firstID + w); ctx.Err() == nil; id += int64(clients) {
				reply, err := h.call(sess, id)
				if err == nil {
					err = c.verify(reply, id)
				}
				if err != nil {
					failed.Add(1)
					firstErr.CompareAndSwap(nil, err.Error())
					continue
				}
				ok.Add(1)
			}
		})
	}
	wg.Wait()
	res := SoakResult{Requests: ok.Load() + failed.Load(), Failed: failed.Load(), Elapsed: time.Since(start),
		PeakRSSKiB: peakRSS(proc.cmd.Process.Pid)}
	if e := firstErr.Load(); e != nil {
		return res, fmt.Errorf("first failure: %s", e)
	}
	return res, nil
}

// peakRSS reads VmHWM of a process in KiB (-1 if unavailable).
func peakRSS(pid int) int {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return -1
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			if err == nil {
				return n
			}
		}
	}
	return -1
}
