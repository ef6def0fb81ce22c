package schema

// Flattening an allOf copies the properties of every schema it includes
// into one struct, so a chain of definitions, each the allOf of the next
// and a property of its own, holds n + (n-1) + … + 1 properties in all:
// quadratic output for linear input (500 links were 12 MB of Go). The
// properties of all merged schemas together are bounded by a multiple of
// those the schema declares; beyond it the schema is refused at the allOf
// that went over, before the rest is merged, so Load and Generate stay
// linear in the schema's size.
const (
	// FlattenFactor is how many times the properties a schema declares
	// the merged allOf schemas may hold in all, beyond FlattenAllowance.
	FlattenFactor = 4
	// FlattenAllowance is how many merged properties any schema may have.
	FlattenAllowance = 4096
)

// countFlattened adds the properties of a merged allOf schema, found at
// ptr, to the total, and refuses the schema once the total goes over the
// bound.
func (b *builder) countFlattened(merged *node, ptr string) {
	b.flattened += len(merged.Properties)
	if limit := FlattenFactor*b.declared + FlattenAllowance; b.flattened > limit && !b.overFlat {
		b.overFlat = true
		b.errorf(ptr, "allOf flattening too large: the merged schemas hold %d properties in all, more than %d (%d times the %d the schema declares, plus %d); each allOf copies the properties of the schemas it includes, so a long chain of allOfs grows quadratically: include fewer levels",
			b.flattened, limit, FlattenFactor, b.declared, FlattenAllowance)
	}
}
