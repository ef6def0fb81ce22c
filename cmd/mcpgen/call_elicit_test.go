package main

import (
	"bufio"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

func TestAskElicitation(t *testing.T) {
	req := &mcp.ElicitRequest{Params: &mcp.ElicitRequestFormParams{
		Message: "Book a table",
		RequestedSchema: mcp.ElicitRequestFormParamsRequestedSchema{
			Properties: map[string]mcp.PrimitiveSchemaDefinition{
				"guests": &mcp.NumberSchema{Type: "integer", Title: "Guests"},
				"name":   &mcp.StringSchema{},
				"vegan":  &mcp.BooleanSchema{},
			},
			Required: []string{"guests", "name"},
		},
	}}
	in := bufio.NewReader(strings.NewReader("many\n4\nAda\n\ny\n"))
	var out strings.Builder
	res, err := askElicitation(in, &out, req)
	if err != nil {
		t.Fatal(err)
	}
	if res.Action != "accept" || res.Content["guests"] != int64(4) || res.Content["name"] != "Ada" {
		t.Fatalf("result %+v\n%s", res, out.String())
	}
	if _, asked := res.Content["vegan"]; asked {
		t.Fatalf("an optional field left empty was sent: %+v", res.Content)
	}
	if !strings.Contains(out.String(), "The server asks: Book a table") || !strings.Contains(out.String(), "want an integer") {
		t.Fatalf("prompts:\n%s", out.String())
	}
	res, _ = askElicitation(bufio.NewReader(strings.NewReader("4\nAda\n\ncancel\n")), &out, req)
	if res.Action != "cancel" {
		t.Fatalf("cancel: %+v", res)
	}
}
