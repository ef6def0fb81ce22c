package main

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
)

// stackSummary counts the process's goroutines by the first frame of each
// stack that is not in the runtime (where it waits), most common first:
// what the soak reports when goroutines outlive the disconnects.
func stackSummary() string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	counts := map[string]int{}
	for _, g := range strings.Split(string(buf), "\n\n") {
		counts[firstOwnFrame(g)]++
	}
	frames := make([]string, 0, len(counts))
	for f := range counts {
		frames = append(frames, f)
	}
	slices.SortFunc(frames, func(a, b string) int {
		if d := counts[b] - counts[a]; d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	var b strings.Builder
	for _, f := range frames {
		fmt.Fprintf(&b, "%d %s\n", counts[f], f)
	}
	return b.String()
}

// firstOwnFrame is the function of a goroutine's first frame outside the
// runtime and the standard library's internals (its header line skipped).
func firstOwnFrame(g string) string {
	lines := strings.Split(g, "\n")
	for i := 1; i < len(lines); i += 2 {
		fn := lines[i]
		if at := strings.LastIndexByte(fn, '('); at > 0 {
			fn = fn[:at]
		}
		if !strings.HasPrefix(fn, "runtime.") && !strings.HasPrefix(fn, "internal/") && !strings.HasPrefix(fn, "sync.") && fn != "" {
			return fn
		}
	}
	if len(lines) > 1 {
		return lines[1]
	}
	return "?"
}
