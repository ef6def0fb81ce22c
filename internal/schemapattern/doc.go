// Package schemapattern holds the "pattern" regular expressions derived
// schemas give the strings the arguments decoder reads as something else:
// a Go map's integer keys and a json.Number quoted by the ",string" tag
// option. `mcpgen tools` (package bind, at build time) and argschema (at
// run time) derive them from here, so both say the same.
package schemapattern
