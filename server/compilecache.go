package server

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/mcpgen/mcpgen/internal/argcheck"
	"github.com/mcpgen/mcpgen/internal/httpwire"
)

// schemaCache caches what NewTool derives from a schema, by schema text:
// compiling a validator (which checks the schema against the 2020-12
// metaschema) and reading the schema again for its checks and x-mcp-header
// parameters are most of what NewTool costs, and tools commonly share
// their input or output schema. Cached values are immutable and safe for
// concurrent use, so one serves every tool with that schema. Errors are
// not cached. The cache is bounded: when full it is emptied (the values
// stay with their tools).
type schemaCache[V any] struct {
	mu sync.Mutex
	m  map[string]V
}

const maxCachedSchemas = 4096

func (c *schemaCache[V]) get(schema json.RawMessage, build func() (V, error)) (V, error) {
	c.mu.Lock()
	v, ok := c.m[string(schema)]
	c.mu.Unlock()
	if ok {
		return v, nil
	}
	v, err := build()
	if err != nil {
		return v, err
	}
	c.mu.Lock()
	if len(c.m) >= maxCachedSchemas || c.m == nil {
		c.m = make(map[string]V)
	}
	c.m[string(schema)] = v
	c.mu.Unlock()
	return v, nil
}

// inputSchemaInfo is what a tool's inputSchema yields.
type inputSchemaInfo struct {
	validator    *argcheck.Validator
	paramHeaders []httpwire.ParamHeader
}

var (
	inputSchemas  schemaCache[inputSchemaInfo]
	outputSchemas schemaCache[*argcheck.Validator]
)

// compileInputSchema checks that schema describes an object, compiles its
// validator and reads its header parameters, once per schema text.
func compileInputSchema(schema json.RawMessage) (inputSchemaInfo, error) {
	return inputSchemas.get(schema, func() (inputSchemaInfo, error) {
		if err := checkObjectSchema(schema); err != nil {
			return inputSchemaInfo{}, fmt.Errorf("inputSchema: %w", err)
		}
		v, err := argcheck.Compile(schema)
		if err != nil {
			return inputSchemaInfo{}, err
		}
		headers, err := httpwire.ParamHeadersFromSchema(schema)
		if err != nil {
			return inputSchemaInfo{}, err
		}
		return inputSchemaInfo{validator: v, paramHeaders: headers}, nil
	})
}

// compileOutputSchema is argcheck.Compile, once per schema text.
func compileOutputSchema(schema json.RawMessage) (*argcheck.Validator, error) {
	return outputSchemas.get(schema, func() (*argcheck.Validator, error) { return argcheck.Compile(schema) })
}
