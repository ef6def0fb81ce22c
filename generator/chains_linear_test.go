package generator_test

import (
	"fmt"
	"strings"
	"testing"
)

// chainDefs returns n definitions D0…D(n-1) made by part(i), which may
// name "#/$defs/D(i+1)" as next, and a last one, an object.
func chainDefs(n int, part func(i int, next string) string) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		fmt.Fprintf(&b, `"D%d":%s,`, i, part(i, fmt.Sprintf("#/$defs/D%d", i+1)))
	}
	fmt.Fprintf(&b, `"D%d":{"type":"object","properties":{"x":{"type":"string"}}},"R":{"type":"object","properties":{"x":{"type":"string"}}}}`, n)
	return b.String()
}

// TestAliasChainLoadsInLinearTime holds a chain of $ref aliases to
// load.go's promise (MaxSchemaBytes: every pass of Load and of the
// generator is linear in the schema's size). A chain of 4000 aliases (D0 →
// D1 → … → an object; 140 KB, smaller than the 2026-07-28 schema) must
// cost about what 4000 aliases of one object cost; the alias cycle check
// walked the rest of the chain from every alias (5000 took 16 s, 1000
// 0.4 s).
func TestAliasChainLoadsInLinearTime(t *testing.T) {
	generateBounded(t,
		chainDefs(4000, func(i int, next string) string { return `{"$ref":"#/$defs/R"}` }),
		chainDefs(4000, func(i int, next string) string { return `{"$ref":"` + next + `"}` }))
}
