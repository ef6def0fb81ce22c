package schema

import (
	"runtime"
	"testing"

	"github.com/mcpgen/mcpgen/internal/specdir"
)

// TestLoadSpecBytesDidNotGrow: the merge that reads the schema file
// in one jsonscan parse (README: "The schema file is read in one parse …
// each value once") made loading the real 2026-07-28 schema allocate
// about 35 MB instead of the 20.1 MB it took at 07ec771 (measured with
// the same Load call): the decoder builds a JSON pointer for every
// keyword and property it reads, each through escapePointer, which
// builds a new strings.Replacer per call (84 % of the bytes allocated).
// The pointers are only needed for an error. Held to 07ec771 + 10 %.
func TestLoadSpecBytesDidNotGrow(t *testing.T) {
	p := specdir.Schema(t, "2026-07-28")
	if _, err := Load(p, Options{}); err != nil { // warm up
		t.Fatal(err)
	}
	const runs = 3
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range runs {
		if _, err := Load(p, Options{}); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	per := (after.TotalAlloc - before.TotalAlloc) / runs
	const base = 20_150_000 // bytes per Load at 07ec771
	if per > base*11/10 {
		t.Fatalf("Load of the 2026-07-28 schema allocates %.1f MB, want at most %.1f MB (07ec771: %.1f MB)",
			float64(per)/1e6, float64(base*11/10)/1e6, float64(base)/1e6)
	}
}
