package main

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// parkedForTest waits on release: a goroutine with a known first frame.
func parkedForTest(wg *sync.WaitGroup, release <-chan struct{}) {
	wg.Done()
	<-release
}

func TestStackSummaryCountsGoroutinesByTheirOwnFrame(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	var wg sync.WaitGroup
	wg.Add(3)
	for range 3 {
		go parkedForTest(&wg, release)
	}
	wg.Wait()
	sum := stackSummary()
	// A test binary names package main by its import path.
	for _, want := range []string{"parkedForTest", "stackSummary"} {
		n := 3
		if want == "stackSummary" {
			n = 1
		}
		found := false
		for line := range strings.Lines(sum) {
			var count int
			var frame string
			if _, err := fmt.Sscanf(line, "%d %s", &count, &frame); err == nil && strings.HasSuffix(frame, "."+want) {
				found = count == n
			}
		}
		if !found {
			t.Errorf("summary lacks %d %s:\n%s", n, want, sum)
		}
	}
	if strings.Contains(sum, " runtime.gopark") {
		t.Errorf("summary names the runtime's frames:\n%s", sum)
	}
}
