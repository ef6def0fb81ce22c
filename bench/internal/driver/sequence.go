package driver

import (
	"fmt"
	"slices"
	"time"
)

// sequence is the load of the large-payload rows: one request at a time,
// each reply read in full before the next request, so a slow server still
// completes MinRequests inside the window (a fixed window could hold none
// of its 10 MB replies). Warm-up sends at least one request; the measured
// phase runs until Duration has passed and at least MinRequests (default 3)
// have completed. send returns the reply to one request.
func sequence(pid int, opt LoadOptions, send func(id int64) ([]byte, error)) (LoadResult, error) {
	id := int64(firstID)
	call := func() (time.Duration, error) {
		start := time.Now()
		reply, err := send(id)
		if err != nil {
			return 0, err
		}
		lat := time.Since(start)
		got, failed, ok := parseResponse(reply)
		switch {
		case !ok || got != id:
			return 0, fmt.Errorf("reply does not answer request %d: %.300s", id, reply)
		case failed:
			return 0, fmt.Errorf("error reply: %.300s", reply)
		}
		id++
		return lat, nil
	}
	for warm := time.Now(); ; {
		if _, err := call(); err != nil {
			return LoadResult{}, err
		}
		if time.Since(warm) >= opt.Warmup {
			break
		}
	}
	minReq := opt.MinRequests
	if minReq <= 0 {
		minReq = 3
	}
	cpu0 := processCPU(pid)
	start := time.Now()
	var lats []time.Duration
	for len(lats) < minReq || time.Since(start) < opt.Duration {
		lat, err := call()
		if err != nil {
			return LoadResult{}, err
		}
		lats = append(lats, lat)
	}
	elapsed := time.Since(start)
	cpu1 := processCPU(pid)
	slices.Sort(lats)
	r := LoadResult{Requests: len(lats), RPS: float64(len(lats)) / elapsed.Seconds(),
		P50: percentile(lats, 50), P99: percentile(lats, 99)}
	var used time.Duration
	if cpu0 >= 0 && cpu1 >= 0 {
		used = cpu1 - cpu0
	}
	return r.withServer(used, peakRSS(pid)), nil
}
