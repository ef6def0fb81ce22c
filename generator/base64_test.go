package generator_test

import (
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generator"
)

// TestByteEnumIsRefusedAtItsPointer — a base64 member (format: byte, as
// `blob` and `data` are) that lists its allowed values: Generate refused
// it with "generator bug: the Go it would write does not compile"
// (checkOneOf on a []byte), which Generate's own doc calls a generator
// bug. A schema is either supported or refused as unsupported: Load
// refuses it now, at the member, in a struct, a nullable union member or
// an array alike.
func TestByteEnumIsRefusedAtItsPointer(t *testing.T) {
	m, err := loadDefs(t, `{"B":{"type":"object","properties":{"eb":{"type":"string","format":"byte","enum":["YQ==","Yg=="]}}}}`)
	if err != nil {
		if !strings.Contains(err.Error(), "#/$defs/B/properties/eb: unsupported enum or const on a string of format byte") {
			t.Fatalf("Load: %v, want the member refused at its pointer", err)
		}
	} else if _, err := generator.Generate(m, generator.Options{Package: "p"}); err != nil && strings.Contains(err.Error(), "generator bug") {
		t.Fatalf("Generate: %v", err)
	}
	for _, c := range [][2]string{
		{`{"U":{"type":"object","properties":{"u":{"anyOf":[{"type":"string","format":"byte","const":"YQ=="},{"type":"null"}]}}}}`, "#/$defs/U/properties/u/anyOf/0: unsupported enum or const on a string of format byte"},
		{`{"A":{"type":"array","items":{"type":["string","null"],"format":"byte","enum":["YQ==",null]}}}`, "#/$defs/A/items: unsupported enum or const on a string of format byte"},
	} {
		if _, err := loadDefs(t, c[0]); err == nil || !strings.Contains(err.Error(), c[1]) {
			t.Errorf("Load %s: %v, want %q", c[0], err, c[1])
		}
	}
}
