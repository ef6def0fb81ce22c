package driver

import (
	"slices"
	"time"
)

// sample is one completed request: when it completed and how long it took,
// both relative to the run's base time.
type sample struct {
	end, lat time.Duration
}

// LoadResult is one stdio or HTTP measurement.
type LoadResult struct {
	// Requests completed inside the measuring window.
	Requests int
	// RPS is Requests divided by the window length.
	RPS float64
	// P50 and P99 are per-request latency percentiles (nearest rank).
	P50, P99 time.Duration
	// CPUPerReq is the server process's CPU time in the window divided by
	// Requests (0 where /proc is not available).
	CPUPerReq time.Duration
	// PeakRSSKiB is the server process's VmHWM after the window (-1 if unknown).
	PeakRSSKiB int
}

// withServer adds the server-side figures: cpu used in the window and the
// peak RSS.
func (r LoadResult) withServer(cpu time.Duration, rssKiB int) LoadResult {
	if r.Requests > 0 && cpu > 0 {
		r.CPUPerReq = cpu / time.Duration(r.Requests)
	}
	r.PeakRSSKiB = rssKiB
	return r
}

// summarize keeps the samples that completed inside [from, to) and computes
// throughput and latency percentiles over them.
func summarize(samples []sample, from, to time.Duration) LoadResult {
	var lats []time.Duration
	for _, s := range samples {
		if s.end >= from && s.end < to {
			lats = append(lats, s.lat)
		}
	}
	slices.Sort(lats)
	r := LoadResult{Requests: len(lats), P50: percentile(lats, 50), P99: percentile(lats, 99)}
	if to > from {
		r.RPS = float64(len(lats)) / (to - from).Seconds()
	}
	return r
}

// percentile returns the nearest-rank p-th percentile (0 < p <= 100) of
// sorted, or 0 for an empty slice.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(p/100*float64(len(sorted)) + 0.999999999)
	rank = min(max(rank, 1), len(sorted))
	return sorted[rank-1]
}

// median returns the median of xs (mean of the middle two for even
// lengths), or 0 for none. xs is not modified.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
