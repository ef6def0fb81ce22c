// Package argschema derives JSON Schemas for MCP tool arguments and results
// from Go types and validates raw JSON arguments against them.
//
// Linking it is optional: it reflects on reflect.Type with
// github.com/invopop/jsonschema, for tools registered by hand with
// server.NewTool and no ToolInfo.InputSchema (its init lets the server
// derive them at start-up). The validator itself ([Compile],
// [Validator.Validate]) is the server's run-time one (internal/argcheck),
// which does not link the reflection library: a native checker for the
// subset of JSON Schema 2020-12 this package and `mcpgen tools` derive.
// [Compile] of a schema outside that subset needs the full validator
// linked (import _ "github.com/mcpgen/mcpgen/fullschema"); without it
// Compile fails naming the keyword and its JSON pointer.
//
// # Schema shape
//
// The schema of a struct type T is an inline JSON Schema 2020-12 object:
//
//   - "$schema": "https://json-schema.org/draft/2020-12/schema" at the root,
//     no "$id", no "$ref" and no "$defs": nested structs are inlined.
//   - The root is always "type": "object". A top-level pointer is treated as
//     its element; any other non-struct type except a map is rejected with
//     "argument type X is not a struct".
//   - Recursive types (a struct that contains itself through fields, slices,
//     maps or pointers) are rejected with an error naming the cycle, because
//     fully inlined schemas cannot express them. Use json.RawMessage or a map
//     for recursive payloads.
//   - Pointers never become nullable: a *string field is {"type":"string"}.
//     The invopop "nullable" tag option is ignored for the same reason (some
//     MCP clients drop tools whose schemas contain "null" types).
//   - "additionalProperties" is not emitted for structs: clients (models) may
//     send extra properties, which are accepted and ignored when binding.
//     Ignoring is the default because models often add members a tool does
//     not need and an error would cost a round trip for nothing; a tool
//     that wants them rejected declares "additionalProperties": false.
//     The MCP tools specification only recommends additionalProperties:false
//     for tools without parameters, so a struct without properties gets
//     {"type":"object","additionalProperties":false}. A type that wants
//     strictness can implement JSONSchemaExtend(*jsonschema.Schema) and set
//     AdditionalProperties to jsonschema.FalseSchema.
//   - time.Time is {"type":"string","format":"date-time"}; []byte is
//     {"type":"string","contentEncoding":"base64"}; json.Number is
//     {"type":"number"}, as encoding/json writes and reads it (an empty
//     one is written as 0), or {"type":"string"} with the ",string" tag
//     option, which quotes it, and a "pattern" that is a JSON number.
//   - A map is {"type":"object","additionalProperties":V}; with integer
//     keys (any size, signed or unsigned) also "propertyNames":
//     {"pattern":P}, where P matches exactly the canonical decimal text
//     of the key type's values ("-1" for an int, not "01", "+1" or "256"
//     for a uint8), the only member names the arguments decoder reads as
//     keys. A key type with its own UnmarshalText takes any member name.
//
// # Tag dialect
//
// There is exactly one tag dialect, invopop's:
//
//	Location string `json:"location" jsonschema:"required,description=City name or coordinates"`
//	Units    string `json:"units,omitempty" jsonschema:"enum=metric,enum=imperial,enum=kelvin,default=metric"`
//	Days     int    `json:"days,omitempty" jsonschema:"minimum=1,maximum=14,default=3"`
//	Zip      string `json:"zip,omitempty" jsonschema:"pattern=^[0-9]{5}$"`
//	When     string `json:"when,omitempty" jsonschema:"format=date"`
//
// Properties are required only when tagged `jsonschema:"required"`
// (omitempty does not matter). Other options: title=, minLength=,
// maxLength=, exclusiveMinimum=, exclusiveMaximum=, multipleOf=, minItems=,
// maxItems=, uniqueItems, example=, and `jsonschema:"-"` to hide a field.
// A comma inside a value must be escaped as `\,`. The separate tag
// `jsonschema_description:"..."` may hold a description with commas.
//
// # Validation
//
// [Validator.Validate] parses the raw JSON once (so a missing required
// property is visible, unlike validation after decoding; a member name
// repeated in one object is rejected), treats null on an optional property
// as absent (a property in "required", or whose schema allows null, keeps
// its null), applies "default" values of absent properties (nested objects
// and array items included), validates the result and returns it. Because
// defaults are applied before validation, a required property that has a
// default is never reported missing. Failures are reported as a
// [*ValidationError] whose message a model can act on.
//
// The server then binds exactly that validated tree to the Go struct: a
// member fills a field only when its name is the field's exact JSON name
// (encoding/json alone would also fill `units` from "Units", "UNITS" or
// "unitſ", none of which the schema looked at), undeclared members are
// dropped, and an integral number (3.0, 1e1) fills an integer field. A
// number that a float field (or an `any`, which holds a float64) cannot
// hold as written is checked again as the float it becomes, and refused
// when that float fails the schema: 1e-400 is 0, which "exclusiveMinimum":
// 0 refuses; 0.99999999999999999 is 1. A number the float reads back as
// (0.1, 19.99) is never refused for being inexact in binary.
package argschema
