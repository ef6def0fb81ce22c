// Package fullschema links the full JSON Schema validator
// (santhosh-tekuri/jsonschema: every keyword and format of drafts 4 to
// 2020-12) into a program. Import it for its side effect:
//
//	import _ "github.com/mcpgen/mcpgen/fullschema"
//
// Without it, tool input and output schemas are validated by mcpgen's
// native checker, which covers the subset of JSON Schema 2020-12 that
// `mcpgen tools` and package argschema derive from Go types (type,
// properties, required, additionalProperties, propertyNames, items, enum, const, the
// numeric, length, item and property-count bounds, uniqueItems, pattern,
// local $ref to $defs, allOf/anyOf/oneOf/not, contentEncoding base64 and
// the common formats), with the same verdicts and problems. A schema
// outside that subset (patternProperties, if/then/else, dependentRequired,
// $id, another draft, …) then fails at registration with an error naming
// the keyword and the import to add. `mcpgen tools` adds the import to
// the generated bindings when a tool's schema needs it.
//
// The full validator's package init compiles every draft's metaschema
// (about 4 ms and 1.7 MB at every process start), which is why it is
// not linked by default.
package fullschema

import (
	"github.com/mcpgen/mcpgen/internal/argcheck"
	"github.com/mcpgen/mcpgen/internal/fullcheck"
)

func init() {
	if err := argcheck.RegisterFull(compile); err != nil {
		panic(err)
	}
}

func compile(doc any) (argcheck.FullSchema, error) {
	s, err := fullcheck.Compile(doc)
	if err != nil {
		return nil, err
	}
	return full{s}, nil
}

// full adapts a fullcheck.Schema to argcheck.FullSchema.
type full struct{ s *fullcheck.Schema }

func (f full) Validate(doc any) []argcheck.Problem {
	probs := f.s.Validate(doc)
	if probs == nil {
		return nil
	}
	out := make([]argcheck.Problem, len(probs))
	for i, p := range probs {
		out[i] = argcheck.Problem(p)
	}
	return out
}
