// Package budget is the allocation regression guard of the in-process
// rows: allocations and bytes per operation of mcpgen's in-memory paths
// (the weather call, the 1 MB-class payloads, start-up), measured with
// runtime.MemStats over a fixed number of operations and checked against
// the committed bench/budgets.json. Allocation counts are nearly
// deterministic where timings are not, and the fewest of many single
// operations removes what noise is left, so the guard can run in CI.
package budget

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"runtime"
	"sort"
)

// Tolerance is how far over its budget an operation may go (10 %).
const Tolerance = 0.10

// Budget is one operation's allowance.
type Budget struct {
	AllocsPerOp int64 `json:"allocsPerOp"`
	BytesPerOp  int64 `json:"bytesPerOp"`
}

// Measured is one operation's measured cost.
type Measured = Budget

// Op is one guarded operation.
type Op struct {
	Name string
	// N operations are measured after one warm-up.
	N int
	// Setup returns the operation (run N+1 times) and a cleanup.
	Setup func() (op func() error, cleanup func(), err error)
}

// Rounds is how many times Measure repeats its N operations.
const Rounds = 5

// Measure runs op once to warm up, then Rounds rounds of N operations
// (each round after a GC), and returns the fewest allocations and bytes of
// any single operation. Noise only ever adds allocations: a GC, which the
// 1 MB rows trigger every few operations, empties the sync.Pools and makes
// the next call allocate its buffers anew; a runtime goroutine allocates
// its own. An average over a few operations therefore depends on where the
// GCs fall (the string row read 15 or 17 per call by that alone), while
// the minimum is the operation's own cost, and a real regression, which
// adds to every call, still raises it.
func Measure(o Op) (Measured, error) {
	op, cleanup, err := o.Setup()
	if err != nil {
		return Measured{}, fmt.Errorf("%s: %w", o.Name, err)
	}
	defer cleanup()
	if err := op(); err != nil {
		return Measured{}, fmt.Errorf("%s: %w", o.Name, err)
	}
	n := max(o.N, 1)
	best := Measured{AllocsPerOp: math.MaxInt64, BytesPerOp: math.MaxInt64}
	var before, after runtime.MemStats
	for range Rounds {
		runtime.GC()
		for range n {
			runtime.ReadMemStats(&before)
			if err := op(); err != nil {
				return Measured{}, fmt.Errorf("%s: %w", o.Name, err)
			}
			runtime.ReadMemStats(&after)
			best.AllocsPerOp = min(best.AllocsPerOp, int64(after.Mallocs-before.Mallocs))
			best.BytesPerOp = min(best.BytesPerOp, int64(after.TotalAlloc-before.TotalAlloc))
		}
	}
	return best, nil
}

// Check compares got with its budget: an error if either figure is more
// than Tolerance over; slack is true if both are well under (20 %), so the
// budget should be lowered.
func Check(name string, got Measured, b Budget) (slack bool, err error) {
	over := func(v, limit int64) bool { return float64(v) > float64(limit)*(1+Tolerance) }
	if over(got.AllocsPerOp, b.AllocsPerOp) || over(got.BytesPerOp, b.BytesPerOp) {
		return false, fmt.Errorf("%s: %d allocs/op, %d B/op; budget %d allocs/op, %d B/op (+%.0f%%)",
			name, got.AllocsPerOp, got.BytesPerOp, b.AllocsPerOp, b.BytesPerOp, 100*Tolerance)
	}
	under := func(v, limit int64) bool { return float64(v) < float64(limit)*0.8 }
	return under(got.AllocsPerOp, b.AllocsPerOp) && under(got.BytesPerOp, b.BytesPerOp), nil
}

// Load reads a budgets file.
func Load(path string) (map[string]Budget, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var m map[string]Budget
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// Save writes a budgets file, keys sorted, one operation per line.
func Save(path string, m map[string]Budget) error {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	out := []byte("{\n")
	for i, k := range names {
		key, _ := json.Marshal(k)
		out = fmt.Appendf(out, "  %s: {\"allocsPerOp\": %d, \"bytesPerOp\": %d}", key, m[k].AllocsPerOp, m[k].BytesPerOp)
		if i < len(names)-1 {
			out = append(out, ',')
		}
		out = append(out, '\n')
	}
	out = append(out, "}\n"...)
	return os.WriteFile(path, out, 0o644)
}
