package client

// A client validates the outputSchema a server declares, which may use any
// JSON Schema keyword, so it links the full validator.
import _ "github.com/mcpgen/mcpgen/fullschema"
