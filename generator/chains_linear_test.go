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

// TestAllOfChainIsRefusedInLinearTime holds allOf to the same promise. A
// chain of definitions, each the allOf of the next one and one property
// of its own, flattens every definition into all the properties after it:
// quadratic work and output (500 links took 39 s and 12 MB of Go, 1000
// took 106 s and 47 MB) where 200 definitions each extending one base
// object are instant. The merged properties are bounded (schema
// FlattenFactor, FlattenAllowance): a chain of 120 (7260 merged
// properties; a chain deeper than schema.MaxDepth is refused for its depth
// first) is refused at a pointer, in about the time the base takes.
func TestAllOfChainIsRefusedInLinearTime(t *testing.T) {
	refuseBounded(t,
		chainDefs(120, func(i int, next string) string {
			return fmt.Sprintf(`{"allOf":[{"$ref":"#/$defs/R"},{"type":"object","properties":{"p%d":{"type":"string"}}}]}`, i)
		}),
		chainDefs(120, allOfLink), "allOf flattening too large")
}

// allOfLink is a link of an allOf chain: the next definition and one
// property of its own.
func allOfLink(i int, next string) string {
	return fmt.Sprintf(`{"allOf":[{"$ref":"%s"},{"type":"object","properties":{"p%d":{"type":"string"}}}]}`, next, i)
}

// TestAllOfChainWithinBoundIsFlattened checks that the bound on flattening
// leaves ordinary chains alone: each of 60 links holds every property
// after it.
func TestAllOfChainWithinBoundIsFlattened(t *testing.T) {
	m, err := loadDefs(t, chainDefs(60, allOfLink))
	if err != nil {
		t.Fatalf("a chain of 60 allOfs: %v", err)
	}
	if d0 := m.Type("D0"); d0 == nil || len(d0.Fields) != 61 {
		t.Fatalf("D0 of a chain of 60 allOfs: %+v, want 61 fields", d0)
	}
}
