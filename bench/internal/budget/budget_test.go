//go:build !race

package budget

import (
	"flag"
	"testing"
)

var update = flag.Bool("update", false, "rewrite ../../budgets.json with the measured figures")

const budgetsFile = "../../budgets.json"

// TestAllocationBudgets fails when an in-process operation allocates more
// than 10 % over its committed budget (bench/budgets.json). After a change
// that lowers allocations, run `go test ./internal/budget -update` in
// bench/ and commit the file, so the guard keeps the gain.
func TestAllocationBudgets(t *testing.T) {
	budgets := map[string]Budget{}
	if !*update {
		var err error
		if budgets, err = Load(budgetsFile); err != nil {
			t.Fatal(err)
		}
	}
	measured := map[string]Budget{}
	for _, op := range Ops() {
		got, err := Measure(op)
		if err != nil {
			t.Fatal(err)
		}
		measured[op.Name] = got
		if *update {
			continue
		}
		b, ok := budgets[op.Name]
		if !ok {
			t.Errorf("%s: no budget in %s (run with -update)", op.Name, budgetsFile)
			continue
		}
		slack, err := Check(op.Name, got, b)
		if err != nil {
			t.Error(err)
		} else if slack {
			t.Logf("%s: %d allocs/op, %d B/op, well under its budget (%d, %d): lower it with -update", op.Name, got.AllocsPerOp, got.BytesPerOp, b.AllocsPerOp, b.BytesPerOp)
		}
	}
	if *update {
		if err := Save(budgetsFile, measured); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", budgetsFile)
	}
}

func TestCheck(t *testing.T) {
	b := Budget{AllocsPerOp: 100, BytesPerOp: 1000}
	for _, tc := range []struct {
		got         Measured
		fail, slack bool
	}{
		{Measured{100, 1000}, false, false},
		{Measured{110, 1100}, false, false},
		{Measured{111, 1000}, true, false},
		{Measured{100, 1101}, true, false},
		{Measured{70, 700}, false, true},
		{Measured{70, 900}, false, false},
	} {
		slack, err := Check("x", tc.got, b)
		if (err != nil) != tc.fail || slack != tc.slack {
			t.Errorf("Check(%+v) = %v, %v; want fail %v slack %v", tc.got, slack, err, tc.fail, tc.slack)
		}
	}
}

var sink [][]byte

// TestMeasureKeepsTheCallsOwnCost: an operation that allocates once per
// call, and three times more on every fourth (as a call after a GC does
// when its pooled buffers are gone), measures as one allocation whatever
// the rounds' phase, and one that always allocates twice as two.
func TestMeasureKeepsTheCallsOwnCost(t *testing.T) {
	for _, tc := range []struct {
		extraEvery int
		want       int64
	}{{4, 1}, {0, 2}} {
		calls := 0
		got, err := Measure(Op{Name: "x", N: 5, Setup: func() (func() error, func(), error) {
			return func() error {
				calls++
				sink = append(sink[:0], make([]byte, 64))
				if tc.extraEvery == 0 {
					sink = append(sink, make([]byte, 64))
				} else if calls%tc.extraEvery == 0 {
					sink = append(sink, make([]byte, 64), make([]byte, 64), make([]byte, 64))
				}
				return nil
			}, func() {}, nil
		}})
		if err != nil {
			t.Fatal(err)
		}
		if got.AllocsPerOp != tc.want {
			t.Errorf("extra every %d: %d allocs/op, want %d", tc.extraEvery, got.AllocsPerOp, tc.want)
		}
	}
}
