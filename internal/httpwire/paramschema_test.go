package httpwire

import (
	"reflect"
	"strings"
	"testing"
)

func TestParamHeadersFromSchema(t *testing.T) {
	// Constraints from "Schema Extension" (streamable-http.mdx) / server/tools.mdx#x-mcp-header.
	tests := []struct {
		name    string
		schema  string
		want    []ParamHeader
		wantErr string
	}{
		{"spec example", `{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"},"query":{"type":"string"}},"required":["region","query"]}`,
			[]ParamHeader{{Name: "Region", Path: []string{"region"}, Type: "string"}}, ""},
		{"none", `{"type":"object","properties":{"q":{"type":"string"}}}`, nil, ""},
		{"nested and sorted", `{"type":"object","properties":{
			"t":{"type":"object","properties":{"zone":{"type":"integer","x-mcp-header":"Zone"}}},
			"b":{"type":"boolean","x-mcp-header":"Debug"}}}`,
			[]ParamHeader{{Name: "Debug", Path: []string{"b"}, Type: "boolean"}, {Name: "Zone", Path: []string{"t", "zone"}, Type: "integer"}}, ""},
		{"nullable string", `{"type":"object","properties":{"r":{"type":["string","null"],"x-mcp-header":"R"}}}`,
			[]ParamHeader{{Name: "R", Path: []string{"r"}, Type: "string"}}, ""},
		// MUST NOT be empty.
		{"empty", `{"type":"object","properties":{"r":{"type":"string","x-mcp-header":""}}}`, nil, "is empty"},
		// MUST be an RFC 9110 token, no control characters.
		{"space", `{"type":"object","properties":{"r":{"type":"string","x-mcp-header":"My Region"}}}`, nil, "not an HTTP token"},
		{"colon", `{"type":"object","properties":{"r":{"type":"string","x-mcp-header":"a:b"}}}`, nil, "not an HTTP token"},
		{"non-ascii", `{"type":"object","properties":{"r":{"type":"string","x-mcp-header":"Régión"}}}`, nil, "not an HTTP token"},
		{"newline", `{"type":"object","properties":{"r":{"type":"string","x-mcp-header":"a\nb"}}}`, nil, "not an HTTP token"},
		{"not a string", `{"type":"object","properties":{"r":{"type":"string","x-mcp-header":5}}}`, nil, "not a string"},
		// MUST be case-insensitively unique.
		{"duplicate", `{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"Region"},"b":{"type":"string","x-mcp-header":"region"}}}`, nil, "unique"},
		// Only integer, string, boolean; number is not permitted.
		{"number", `{"type":"object","properties":{"r":{"type":"number","x-mcp-header":"R"}}}`, nil, "only string, integer and boolean"},
		{"object", `{"type":"object","properties":{"r":{"type":"object","x-mcp-header":"R"}}}`, nil, "only string, integer and boolean"},
		{"no type", `{"type":"object","properties":{"r":{"x-mcp-header":"R"}}}`, nil, "only string, integer and boolean"},
		// MUST be statically reachable through "properties" only.
		{"under items", `{"type":"object","properties":{"l":{"type":"array","items":{"type":"string","x-mcp-header":"L"}}}}`, nil, "reachable"},
		{"under anyOf", `{"type":"object","anyOf":[{"properties":{"r":{"type":"string","x-mcp-header":"R"}}}]}`, nil, "reachable"},
		{"under $defs", `{"type":"object","$defs":{"x":{"type":"string","x-mcp-header":"X"}},"properties":{"r":{"$ref":"#/$defs/x"}}}`, nil, "reachable"},
		{"under if/then", `{"type":"object","if":{"properties":{"r":{"type":"string","x-mcp-header":"R"}}}}`, nil, "reachable"},
		{"at root", `{"type":"object","x-mcp-header":"Root"}`, nil, "reachable"},
		{"not json", `{`, nil, "not valid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParamHeadersFromSchema([]byte(tt.schema))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to mention %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}
