package schema

import (
	"fmt"
	"strings"
	"testing"
)

// TestResolvedFollowsLongAliasChains checks that an alias resolves to the
// type at the end of its chain however long the chain is (the loops that
// resolved aliases gave up after 32 or 64 steps), and that a type that is
// not an alias resolves to itself.
func TestResolvedFollowsLongAliasChains(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"$defs":{`)
	for i := range 100 {
		fmt.Fprintf(&b, `"D%d":{"$ref":"#/$defs/D%d"},`, i, i+1)
	}
	b.WriteString(`"D100":{"type":"object","properties":{"x":{"type":"string"}}}}}`)
	m, err := LoadBytes("chain.json", []byte(b.String()), Options{Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	end := m.Type("D100")
	for _, name := range []string{"D0", "D50", "D99", "D100"} {
		if got := m.Type(name).Resolved(); got != end {
			t.Errorf("%s.Resolved() = %v, want D100", name, got)
		}
	}
}

// TestAliasChainToARefusedRefLoadsInLinearTime — an alias chain that ends
// at a $ref Load refuses (a dangling one) resolves to nil, which is also
// what marked an alias not yet walked: every alias of the chain walked it
// again to its end, n²/2 steps (8 000 aliases took some 10 s, a 32 MB
// schema holds hundreds of thousands). 30 000 such aliases load about as
// fast as 30 000 aliases ending at a type.
func TestAliasChainToARefusedRefLoadsInLinearTime(t *testing.T) {
	chain := func(n int, end string) string {
		var b strings.Builder
		b.WriteString(`{"$defs":{"T":{"type":"object","properties":{"x":{"type":"string"}}},`)
		for i := range n {
			fmt.Fprintf(&b, `"A%06d":{"$ref":"#/$defs/A%06d"},`, i, i+1)
		}
		fmt.Fprintf(&b, `"A%06d":{"$ref":"#/$defs/%s"}}}`, n, end)
		return b.String()
	}
	load := func(text string) func() {
		return func() { LoadBytes("chain.json", []byte(text), Options{Version: "test"}) }
	}
	loadsInTime(t, "Load of 30 000 aliases ending at a dangling $ref", 5, 0, load(chain(30_000, "T")), load(chain(30_000, "Missing")))
}
