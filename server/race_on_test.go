//go:build race

package server

// raceEnabled: the race detector is on. It changes allocation counts:
// slices.Grow allocates its n bytes once more (append of make is not
// fused when instrumented).
const raceEnabled = true
