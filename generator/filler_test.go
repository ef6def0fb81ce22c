package generator_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/specdir"
)

// TestDocsHaveNoFiller: in the output for every revision, every type's doc
// comment starts with its name and says something the schema states —
// never a line that only says there is no description.
func TestDocsHaveNoFiller(t *testing.T) {
	for _, v := range revisions {
		for _, f := range generateFile(t, specdir.Schema(t, v), "mcp") {
			af, err := parser.ParseFile(token.NewFileSet(), f.Name, f.Content, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range af.Decls {
				gd, ok := d.(*ast.GenDecl)
				if !ok || gd.Tok != token.TYPE {
					continue
				}
				for _, s := range gd.Specs {
					name := s.(*ast.TypeSpec).Name.Name
					doc := gd.Doc.Text()
					switch {
					case !strings.HasPrefix(doc, name+" ") && !strings.HasPrefix(doc, name+": "):
						t.Errorf("%s %s: doc %q does not start with the name", v, name, doc)
					case strings.Contains(doc, "without a description") || strings.Contains(doc, "is defined by the schema"):
						t.Errorf("%s %s: filler doc %q", v, name, doc)
					}
				}
			}
		}
	}
}
