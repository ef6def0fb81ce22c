package bind

import (
	"fmt"

	"github.com/mcpgen/mcpgen/internal/argcheck"
)

// FullSchemaPackagePath is the package that links the full JSON Schema
// validator; generated bindings import it only when a tool's schema is
// outside the runtime's native subset.
const FullSchemaPackagePath = argcheck.FullImport

// fullSchemaReason names the first tool schema of pkg that the runtime's
// native checker does not take, or "" when it takes them all.
func fullSchemaReason(pkg *Package) string {
	for _, t := range pkg.Tools {
		for _, s := range []struct {
			which  string
			schema Schema
		}{{"inputSchema", t.InputSchema}, {"outputSchema", t.OutputSchema}} {
			text := s.schema.JSON
			if s.schema.Const != "" {
				text = s.schema.Text
			}
			if text == "" {
				continue
			}
			if err := argcheck.InNativeSubset([]byte(text)); err != nil {
				return fmt.Sprintf("the %s of tool %q: %v", s.which, t.Name, err)
			}
		}
	}
	return ""
}

// linkFullSchema imports the full validator when a schema needs it.
func (e *emitter) linkFullSchema() {
	why := fullSchemaReason(e.pkg)
	if why == "" {
		return
	}
	e.f.Anon(FullSchemaPackagePath)
	e.f.Comment("The full JSON Schema validator is linked (the blank import of fullschema): " + why + ".")
}
