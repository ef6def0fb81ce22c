//go:build unix

package skills_test

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the test process has used so far (user and
// system, every thread), which a loaded machine does not stretch as it
// does wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
