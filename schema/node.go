package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// node is one JSON Schema object as it appears in a schema file. Only the
// keywords mcpgen understands are decoded; any other keyword is reported by
// checkKeywords so that a schema never loses meaning silently.
type node struct {
	Ref                  string            `json:"$ref"`
	Type                 typeList          `json:"type"`
	Description          string            `json:"description"`
	Properties           map[string]*node  `json:"properties"`
	Required             []string          `json:"required"`
	Items                *node             `json:"items"`
	AdditionalProperties *additional       `json:"additionalProperties"`
	AnyOf                []*node           `json:"anyOf"`
	OneOf                []*node           `json:"oneOf"`
	AllOf                []*node           `json:"allOf"`
	Const                json.RawMessage   `json:"const"`
	Enum                 []json.RawMessage `json:"enum"`
	Format               string            `json:"format"`
	Default              json.RawMessage   `json:"default"`
	Deprecated           bool              `json:"deprecated"`
	Minimum              *float64          `json:"minimum"`
	Maximum              *float64          `json:"maximum"`
	MinItems             *int              `json:"minItems"`
	MaxItems             *int              `json:"maxItems"`
	MinLength            *int              `json:"minLength"`
	MaxLength            *int              `json:"maxLength"`

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

func (n *node) UnmarshalJSON(data []byte) error {
	switch string(bytes.TrimSpace(data)) {
	case "true":
		*n = node{}
		return nil
	case "false":
		*n = node{False: true, keywords: []string{"false"}}
		return nil
	}
	type plain node
	if err := json.Unmarshal(data, (*plain)(n)); err != nil {
		return err
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(data, &keys); err != nil {
		return err
	}
	for k := range keys {
		n.keywords = append(n.keywords, k)
	}
	return nil
}

// typeList is the JSON Schema "type" keyword: a single name or a list.
type typeList []string

func (t *typeList) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '[' {
		var list []string
		if err := json.Unmarshal(data, &list); err != nil {
			return err
		}
		*t = list
		return nil
	}
	var one string
	if err := json.Unmarshal(data, &one); err != nil {
		return fmt.Errorf("type must be a string or a list of strings")
	}
	*t = typeList{one}
	return nil
}

// additional is the additionalProperties keyword: a boolean or a schema.
type additional struct {
	Allowed bool  // false only for an explicit `false`
	Schema  *node // nil for `true`; an empty node for `{}`
}

func (a *additional) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	switch string(data) {
	case "true":
		*a = additional{Allowed: true}
		return nil
	case "false":
		*a = additional{Allowed: false}
		return nil
	}
	var n node
	if err := json.Unmarshal(data, &n); err != nil {
		return err
	}
	*a = additional{Allowed: true, Schema: &n}
	return nil
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
