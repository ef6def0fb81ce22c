package driver

import (
	"fmt"
	"slices"
	"sync"
	"time"
)

// skippedLines counts the lines a reader skipped because they were not a
// response it could parse, and keeps the last one: a reply the server sent
// but the driver could not read would otherwise look like no reply at all.
type skippedLines struct {
	mu   sync.Mutex
	n    int
	last string
}

func (s *skippedLines) add(line []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n++
	s.last = fmt.Sprintf("%.300q", line)
}

func (s *skippedLines) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.n == 0 {
		return "no line skipped"
	}
	return fmt.Sprintf("%d lines skipped, the last %s", s.n, s.last)
}

// pendingIDs lists the ids still waiting for a reply, lowest first, at
// most 8 of them.
func pendingIDs(pending map[int64]time.Duration) []int64 {
	ids := make([]int64, 0, len(pending))
	for id := range pending {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids[:min(len(ids), 8)]
}
