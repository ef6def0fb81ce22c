//go:build !unix

package skills_test

import "time"

var processStart = time.Now()

// cpuTime stands in for the process's CPU time where getrusage is
// missing: the wall time since the tests started.
func cpuTime() time.Duration { return time.Since(processStart) }
