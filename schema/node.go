package schema

import "encoding/json"

// node is one JSON Schema object as it appears in a schema file, each field
// the keyword of its name (Ref is $ref), as decodeFile reads them. Only the keywords mcpgen
// understands are decoded; any other keyword is reported by checkKeywords
// so that a schema never loses meaning silently.
type node struct {
	Ref                  string
	Type                 typeList
	Description          string
	Properties           map[string]*node
	Required             []string
	Items                *node
	AdditionalProperties *additional
	AnyOf                []*node
	OneOf                []*node
	AllOf                []*node
	Const                json.RawMessage
	Enum                 []json.RawMessage
	Format               string
	Default              json.RawMessage
	Deprecated           bool
	Minimum              *float64
	Maximum              *float64
	MinItems             *int
	MaxItems             *int
	MinLength            *int
	MaxLength            *int

	// minimumText and maximumText are the bounds as the file writes them
	// (Minimum and Maximum are their nearest float64s), for checkInt64.
	minimumText, maximumText string

	keywords []string // every keyword present, for checkKeywords
	// False is set for the boolean schema false, which admits nothing; the
	// boolean schema true is an empty node (any value).
	False bool
}

// knownKeywords lists the JSON Schema keywords mcpgen models or may safely
// ignore (annotations without effect on Go types).
var knownKeywords = map[string]bool{
	"$ref": true, "type": true, "description": true, "properties": true,
	"required": true, "items": true, "additionalProperties": true,
	"anyOf": true, "oneOf": true, "allOf": true, "const": true, "enum": true,
	"format": true, "default": true, "deprecated": true, "minimum": true,
	"maximum": true, "minItems": true, "maxItems": true, "minLength": true,
	"maxLength": true, "title": true, "$comment": true, "examples": true,
}

// typeList is the JSON Schema "type" keyword: a single name or a list.
type typeList []string

// additional is the additionalProperties keyword: a boolean or a schema.
type additional struct {
	Allowed bool  // false only for an explicit `false`
	Schema  *node // nil for `true`; an empty node for `{}`
}

// isEmpty reports whether the node constrains nothing ({} in JSON Schema).
func (n *node) isEmpty() bool {
	for _, k := range n.keywords {
		if k != "description" && k != "title" && k != "$comment" {
			return false
		}
	}
	return true
}
