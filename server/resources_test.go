package server

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// resSnapshot is what a load or fault test compares before and after:
// goroutines and open file descriptors of the test process.
type resSnapshot struct{ goroutines, fds int }

func (r resSnapshot) String() string {
	return fmt.Sprintf("%d goroutines, %d fds", r.goroutines, r.fds)
}

func resNow() resSnapshot {
	return resSnapshot{goroutines: runtime.NumGoroutine(), fds: resOpenFDs()}
}

// resOpenFDs counts /proc/self/fd entries (-1 where there is no /proc).
func resOpenFDs() int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return -1
	}
	return len(ents)
}

// resPeakRSS returns the process's peak resident set (VmHWM) in KiB, -1
// where /proc is missing.
func resPeakRSS(pid string) int {
	f, err := os.Open("/proc/" + pid + "/status")
	if err != nil {
		return -1
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return n
		}
	}
	return -1
}

// resNoLeak waits (up to 5 s) until goroutines and fds are back to at most
// before plus slack, and fails the test with both counts otherwise.
func resNoLeak(t testing.TB, before resSnapshot, slack int) resSnapshot {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		now := resNow()
		ok := now.goroutines <= before.goroutines+slack && (before.fds < 0 || now.fds <= before.fds+slack)
		if ok {
			return now
		}
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			buf = buf[:runtime.Stack(buf, true)]
			t.Fatalf("leak: before %v, after %v\n%s", before, now, buf)
			return now
		}
		time.Sleep(20 * time.Millisecond)
	}
}
