package argschema

import (
	"encoding/json"
	"reflect"

	"github.com/mcpgen/mcpgen/internal/argcheck"
	"github.com/mcpgen/mcpgen/internal/derive"
)

// Validator checks raw JSON arguments against one compiled schema; see
// [Compile]. It is the run-time validator the server uses (package
// internal/argcheck), which does not link the reflection library.
type Validator = argcheck.Validator

// ValidationError lists every way the arguments of a call failed their schema.
type ValidationError = argcheck.ValidationError

// Problem is one failed rule of a [ValidationError].
type Problem = argcheck.Problem

// PromptArg is one MCP PromptArgument derived from a struct field.
type PromptArg = derive.PromptArg

// Compile compiles schema (JSON Schema 2020-12 unless it says otherwise)
// once; see the package documentation for what Validate does per call.
func Compile(schema json.RawMessage) (*Validator, error) { return argcheck.Compile(schema) }

// Linking this package lets server.NewTool and server.NewPrompt derive the
// schemas of hand-registered tools whose ToolInfo carries none.
func init() {
	derive.Schema = For
	derive.PromptArguments = func(t reflect.Type) ([]derive.PromptArg, error) { return PromptArguments(t) }
}
