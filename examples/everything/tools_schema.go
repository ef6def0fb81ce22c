package main

import (
	"context"
	"encoding/json"
	"fmt"
)

// ContactArgs are the arguments of json_schema_2020_12_tool. Its input
// schema is the literal contactSchema (the directive's inputSchema=),
// because it uses keywords Go struct tags cannot express: $defs with
// $anchor, $ref, allOf/anyOf, if/then/else.
type ContactArgs struct {
	Name          string   `json:"name,omitempty"`
	Address       *Address `json:"address,omitempty"`
	ContactMethod string   `json:"contactMethod,omitempty"`
	Phone         string   `json:"phone,omitempty"`
	Email         string   `json:"email,omitempty"`
}

// Address is the $defs/address of ContactArgs.
type Address struct {
	Street string `json:"street,omitempty"`
	City   string `json:"city,omitempty"`
}

// contactSchema is the input schema the json-schema-2020-12 scenario expects,
// kept as written.
const contactSchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "$defs": {
    "address": {
      "$anchor": "addressDef",
      "type": "object",
      "properties": {"street": {"type": "string"}, "city": {"type": "string"}}
    }
  },
  "properties": {
    "name": {"type": "string"},
    "address": {"$ref": "#/$defs/address"},
    "contactMethod": {"type": "string", "enum": ["phone", "email"]},
    "phone": {"type": "string"},
    "email": {"type": "string"}
  },
  "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
  "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
  "then": {"required": ["phone"]},
  "else": {"required": ["email"]},
  "additionalProperties": false
}`

// JSONSchema202012Tool accepts a contact whose schema uses JSON Schema
// 2020-12 features ($defs, $ref, allOf/anyOf, if/then/else).
//
//mcp:tool name=json_schema_2020_12_tool title="Tool with JSON Schema 2020-12 features" readOnly inputSchema=contactSchema
func (e *Everything) JSONSchema202012Tool(ctx context.Context, in ContactArgs) (string, error) {
	b, err := json.Marshal(in)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("JSON Schema 2020-12 tool called with: %s", b), nil
}

// RegionArgs are the arguments of test_x_mcp_header: region is mirrored into
// the Mcp-Param-Region HTTP header (x-mcp-header), level is not.
type RegionArgs struct {
	Region string `json:"region,omitempty" jsonschema:"description=mirrored into Mcp-Param-Region" jsonschema_extras:"x-mcp-header=Region"`
	Level  int    `json:"level,omitempty" jsonschema:"description=non-mirrored argument"`
}

// XMCPHeader echoes the region argument, which HTTP clients also send in the
// Mcp-Param-Region header.
//
//mcp:tool name=test_x_mcp_header readOnly
func (e *Everything) XMCPHeader(ctx context.Context, in RegionArgs) (string, error) {
	return "region=" + in.Region, nil
}
