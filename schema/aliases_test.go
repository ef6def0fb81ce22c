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
