package server

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
)

// TestLegacyToolDefBooleanSubschemas: a boolean schema among the root
// properties of inputSchema and outputSchema (the one place the legacy
// revisions' schema.json types a subschema as an object) gets its object
// form; every other boolean schema ("additionalProperties": false, items,
// anyOf…: valid JSON Schema in every revision, and the conformance suite's
// SEP-1613 check wants additionalProperties false kept), data (const,
// enum, default) and the rest of the definition stay byte for byte.
func TestLegacyToolDefBooleanSubschemas(t *testing.T) {
	def := `{"name":"t","inputSchema":{"type":"object","properties":{"a":true,"properties":false,"b":{"type":"array","items":true,"prefixItems":[false,{"const":true}]},` +
		`"c":{"anyOf":[true,{"not":false}],"default":true},"d":{"enum":[true,false],"x-flag":true}},"additionalProperties":false,` +
		`"$defs":{"any":true},"patternProperties":{"^x":false},"if":true,"then":{"additionalProperties":true},"else":false,"dependentSchemas":{"a":true},"dependencies":{"b":["a"],"c":false}},` +
		`"outputSchema":{"type":"object","properties":{"y":true}},"annotations":{"readOnlyHint":true}}`
	want := `{"name":"t","inputSchema":{"type":"object","properties":{"a":{},"properties":{"not":{}},"b":{"type":"array","items":true,"prefixItems":[false,{"const":true}]},` +
		`"c":{"anyOf":[true,{"not":false}],"default":true},"d":{"enum":[true,false],"x-flag":true}},"additionalProperties":false,` +
		`"$defs":{"any":true},"patternProperties":{"^x":false},"if":true,"then":{"additionalProperties":true},"else":false,"dependentSchemas":{"a":true},"dependencies":{"b":["a"],"c":false}},` +
		`"outputSchema":{"type":"object","properties":{"y":{}}},"annotations":{"readOnlyHint":true}}`
	if got := convertToolDef([]byte(def), true); string(got) != want {
		t.Errorf("with outputSchema:\n got %s\nwant %s", got, want)
	}
	got := convertToolDef([]byte(def), false)
	var m map[string]json.RawMessage
	if err := json.Unmarshal(got, &m); err != nil {
		t.Fatalf("%s: %v", got, err)
	}
	if _, ok := m["outputSchema"]; ok {
		t.Errorf("before 2025-06-18 outputSchema is kept: %s", got)
	}
	plain := []byte(`{"name":"t","inputSchema":{"type":"object","properties":{"a":{"type":"string","default":"true","items":false}},"additionalProperties":false},"annotations":{"readOnlyHint":true}}`)
	if got := convertToolDef(plain, true); &got[0] != &plain[0] {
		t.Errorf("a definition without boolean root properties is rewritten: %s", got)
	}
	if got := legacyToolDef([]byte(def), "2025-06-18"); string(got) != want {
		t.Errorf("legacyToolDef (cached) at 2025-06-18: %s", got)
	}
}

// TestModernToolsListKeepsBooleanSubschemas: the object form is for legacy
// sessions only; 2026-07-28 lists the derived schemas as they are.
func TestModernToolsListKeepsBooleanSubschemas(t *testing.T) {
	type anyIn struct {
		X any `json:"x"`
	}
	tool := NewTool(ToolInfo{Name: "anything", Description: "Takes any value"}, func(ctx context.Context, in anyIn) (string, error) {
		return "ok", nil
	})
	f := newFixture(t, func(o *Options) { o.Tools = []Tool{tool} })
	r := rpc(t, f.s, "tools/list", `{}`)
	if !bytes.Contains(r.Result, []byte(`"properties":{"x":true}`)) {
		t.Errorf("2026-07-28 tools/list changed the derived schema: %s", r.Result)
	}
}
