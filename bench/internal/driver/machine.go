package driver

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// thisMachine describes the machine and its load now.
func thisMachine() Machine {
	return Machine{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, CPUs: runtime.NumCPU(), CPUModel: cpuModel(),
		GoVersion: runtime.Version(), LoadBefore: loadAverage()}
}

// cpuModel is /proc/cpuinfo's first "model name" ("" if unknown).
func cpuModel() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	for l := range strings.SplitSeq(string(data), "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// loadAverage is /proc/loadavg's first three fields ("" if unknown).
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}

// clockTick is USER_HZ, the unit of /proc/<pid>/stat's CPU times (100 on
// every Linux architecture Go supports).
const clockTick = 10 * time.Millisecond

// processCPU returns the user+system CPU time a process has used so far
// (its threads included), or -1 if /proc is not available.
func processCPU(pid int) time.Duration {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return -1
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')') // the command name may hold spaces
	if i < 0 {
		return -1
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 13 { // f[0] is field 3 (state); utime and stime are fields 14 and 15
		return -1
	}
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return -1
	}
	return time.Duration(u+st) * clockTick
}

// cpuWindow samples a process's CPU time at base+from and base+to; wait
// returns the difference (0 if either sample failed).
type cpuWindow struct {
	from, to chan time.Duration
}

func newCPUWindow(pid int, base time.Time, from, to time.Duration) *cpuWindow {
	w := &cpuWindow{from: make(chan time.Duration, 1), to: make(chan time.Duration, 1)}
	time.AfterFunc(time.Until(base.Add(from)), func() { w.from <- processCPU(pid) })
	time.AfterFunc(time.Until(base.Add(to)), func() { w.to <- processCPU(pid) })
	return w
}

func (w *cpuWindow) wait() time.Duration {
	a, b := <-w.from, <-w.to
	if a < 0 || b < 0 {
		return 0
	}
	return b - a
}

// threadsCPU is the CPU time of a process's live threads in nanoseconds,
// from /proc/<pid>/task/*/schedstat (nanosecond resolution, where
// /proc/<pid>/stat counts 10 ms ticks), or -1. Threads that exit take their
// time with them, so it suits windows where the thread set is stable (an
// idle server).
func threadsCPU(pid int) time.Duration {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return -1
	}
	var sum int64
	for _, t := range tasks {
		data, err := os.ReadFile(dir + "/" + t.Name() + "/schedstat")
		if err != nil {
			continue // the thread exited
		}
		f := strings.Fields(string(data))
		if len(f) == 0 {
			continue
		}
		if ns, err := strconv.ParseInt(f[0], 10, 64); err == nil {
			sum += ns
		}
	}
	return time.Duration(sum)
}
