package server

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

type registerArgs struct {
	Location string `json:"location" jsonschema:"required"`
	Units    string `json:"units,omitempty" jsonschema:"enum=metric,enum=imperial"`
}

// registerSchema is what `mcpgen tools` writes into ToolInfo.InputSchema.
const registerSchema = `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"location":{"type":"string"},"units":{"type":"string","enum":["metric","imperial"]}},"required":["location"],"additionalProperties":false}`

// registerTools makes n tools; distinct gives each its own schema (a
// property description naming the tool), else all share one.
func registerTools(n int, distinct bool) []Tool {
	tools := make([]Tool, n)
	for i := range tools {
		schema := registerSchema
		if distinct {
			schema = strings.Replace(schema, `"location":{"type":"string"}`, fmt.Sprintf(`"location":{"type":"string","description":"where, for tool %d"}`, i), 1)
		}
		tools[i] = NewTool(ToolInfo{Name: fmt.Sprintf("tool_%d", i), Description: "A tool", InputSchema: []byte(schema)},
			func(ctx context.Context, in registerArgs) (string, error) { return in.Location, nil })
	}
	return tools
}

// BenchmarkRegisterTools measures start-up with n tools: constructing
// them (NewTool with the schema `mcpgen tools` writes), then New with all
// of them, or AddTools one at a time; one op is the whole start-up.
func BenchmarkRegisterTools(b *testing.B) {
	for _, n := range []int{1, 1000, 10000} {
		b.Run(fmt.Sprintf("New/%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				if _, err := New(Options{Name: "b", Version: "1", Tools: registerTools(n, false)}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("NewDistinct/%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				inputSchemas.m, outputSchemas.m = nil, nil // every schema compiled afresh
				if _, err := New(Options{Name: "b", Version: "1", Tools: registerTools(n, true)}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("AddTools1by1/%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				s, err := New(Options{Name: "b", Version: "1"})
				if err != nil {
					b.Fatal(err)
				}
				for _, t := range registerTools(n, false) {
					if err := s.AddTools(t); err != nil {
						b.Fatal(err)
					}
				}
				if s.tools.get(fmt.Sprintf("tool_%d", n-1)) == nil {
					b.Fatal("last tool not registered")
				}
			}
		})
	}
}
