package generator

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/schema"
)

// TestTypeCheckBlamesTheSchema: output that does not compile is an *Error
// naming the schema definition whose declaration is broken.
func TestTypeCheckBlamesTheSchema(t *testing.T) {
	m, err := schema.LoadBytes("s.json", []byte(`{"$defs":{"Widget":{"type":"object","properties":{"a":{"type":"string"}}}}}`), schema.Options{Version: "2030-01-01"})
	if err != nil {
		t.Fatal(err)
	}
	g := newGen(m, Options{Package: "p"})
	files := []File{
		{Name: "a.go", Content: []byte("package p\n\ntype Widget struct{ A string }\n\nfunc (x *Widget) UnmarshalJSON(data []byte) error { return undefinedThing }\n")},
	}
	err = g.typeCheck(files)
	var ge *Error
	if !errors.As(err, &ge) {
		t.Fatalf("typeCheck = %v, want an *Error", err)
	}
	if ge.Pointer != "#/$defs/Widget" || ge.File != "a.go" || !strings.Contains(ge.Msg, "undefinedThing") {
		t.Fatalf("error %+v", ge)
	}
	if want := "s.json: #/$defs/Widget: generator bug:"; !strings.HasPrefix(ge.Error(), want) {
		t.Fatalf("message %q does not start with %q", ge.Error(), want)
	}
	if err := g.typeCheck([]File{{Name: "b.go", Content: []byte("package p\nfunc {")}}); !errors.As(err, &ge) || ge.File != "b.go" {
		t.Fatalf("syntax error: %v", err)
	}
}
