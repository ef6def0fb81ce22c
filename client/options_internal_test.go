package client

import (
	"testing"
	"time"
)

// TestProbeTimeoutFollowsShorterRequestTimeout: connecting is requests
// too (server/discover, then initialize): a RequestTimeout shorter than
// the 10 s default probe bounds each of them, so a silent server does not
// hold a caller that asked for 1 s for 20 s. An explicit ProbeTimeout
// wins; no RequestTimeout leaves the default.
func TestProbeTimeoutFollowsShorterRequestTimeout(t *testing.T) {
	for _, c := range []struct {
		opts Options
		want time.Duration
	}{
		{Options{}, 10 * time.Second},
		{Options{RequestTimeout: time.Second}, time.Second},
		{Options{RequestTimeout: time.Minute}, 10 * time.Second},
		{Options{RequestTimeout: -1}, 10 * time.Second},
		{Options{RequestTimeout: time.Second, ProbeTimeout: 5 * time.Second}, 5 * time.Second},
	} {
		if got := c.opts.probeTimeout(); got != c.want {
			t.Errorf("RequestTimeout %v, ProbeTimeout %v: probe timeout %v, want %v", c.opts.RequestTimeout, c.opts.ProbeTimeout, got, c.want)
		}
	}
}
