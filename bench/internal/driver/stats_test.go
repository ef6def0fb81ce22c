package driver

import (
	"testing"
	"time"
)

func TestPercentile(t *testing.T) {
	var xs []time.Duration
	for i := 1; i <= 100; i++ {
		xs = append(xs, time.Duration(i))
	}
	for _, tc := range []struct {
		p    float64
		want time.Duration
	}{{50, 50}, {99, 99}, {100, 100}, {1, 1}, {0.5, 1}, {99.5, 100}} {
		if got := percentile(xs, tc.p); got != tc.want {
			t.Errorf("percentile(1..100, %v) = %v, want %v", tc.p, got, tc.want)
		}
	}
	if got := percentile(nil, 50); got != 0 {
		t.Errorf("percentile(nil) = %v, want 0", got)
	}
	if got := percentile([]time.Duration{7}, 99); got != 7 {
		t.Errorf("percentile([7], 99) = %v, want 7", got)
	}
	three := []time.Duration{10, 20, 30}
	if got := percentile(three, 50); got != 20 {
		t.Errorf("percentile(10,20,30; 50) = %v, want 20", got)
	}
}

func TestMedian(t *testing.T) {
	in := []float64{5, 1, 3}
	if got := median(in); got != 3 {
		t.Errorf("median odd = %v", got)
	}
	if in[0] != 5 {
		t.Error("median modified its input")
	}
	if got := median([]float64{4, 1, 3, 2}); got != 2.5 {
		t.Errorf("median even = %v, want 2.5", got)
	}
	if got := median(nil); got != 0 {
		t.Errorf("median(nil) = %v", got)
	}
}

func TestSummarizeWindow(t *testing.T) {
	ms := time.Millisecond
	samples := []sample{
		{end: 50 * ms, lat: 100 * ms}, // warm-up: excluded
		{end: 100 * ms, lat: 1 * ms},
		{end: 500 * ms, lat: 3 * ms},
		{end: 1099 * ms, lat: 2 * ms},
		{end: 1100 * ms, lat: 9 * ms}, // at the end bound: excluded (drain)
	}
	r := summarize(samples, 100*ms, 1100*ms)
	if r.Requests != 3 || r.RPS != 3 || r.P50 != 2*ms || r.P99 != 3*ms {
		t.Errorf("summarize = %+v, want 3 requests, 3/s, p50 2ms, p99 3ms", r)
	}
	if z := summarize(nil, 0, 0); z.Requests != 0 || z.RPS != 0 {
		t.Errorf("empty summarize = %+v", z)
	}
}
