package server

// The tests register tools and prompts by hand without schemas, so they
// derive them from Go types at start-up through package argschema.
import _ "github.com/mcpgen/mcpgen/argschema"
