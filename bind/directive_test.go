package bind

import (
	"go/ast"
	"go/token"
	"reflect"
	"strings"
	"testing"
)

func parseOne(text string) (*directive, ErrorList) {
	fset := token.NewFileSet()
	f := fset.AddFile("x.go", -1, len(text)+10)
	f.SetLines([]int{0})
	var errs ErrorList
	d := parseDirective(fset, &ast.Comment{Slash: f.Pos(0), Text: text}, &errs)
	return d, errs
}

func TestParseDirective(t *testing.T) {
	d, errs := parseOne(`//mcp:tool name=a.b  title="Say \"hi\", now" readOnly destructive=false icon=https://x/y?a=b icon="z w"`)
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	if d.kind != "tool" || d.value("name") != "a.b" || d.value("title") != `Say "hi", now` {
		t.Errorf("parsed %+v", d)
	}
	if got := d.values("icon"); !reflect.DeepEqual(got, []string{"https://x/y?a=b", "z w"}) {
		t.Errorf("icons %v", got)
	}
	if ro, de, id := d.flag("readOnly"), d.flag("destructive"), d.flag("idempotent"); ro == nil || !*ro || de == nil || *de || id != nil {
		t.Errorf("flags %v %v %v", ro, de, id)
	}
	if it, _ := d.first("title"); it.pos.Column != 22 {
		t.Errorf("title column %d, want 22", it.pos.Column)
	}
}

func TestParseDirectiveErrors(t *testing.T) {
	cases := map[string]string{
		`//mcp:resorce uri=x`:          "x.go:1:1: unknown directive //mcp:resorce (did you mean //mcp:resource?)",
		`//mcp:banana`:                 "x.go:1:1: unknown directive //mcp:banana (known: //mcp:tool, //mcp:prompt, //mcp:resource, //mcp:resourceTemplate)",
		`//mcp:prompt titel=x`:         "x.go:1:14: unknown key titel in //mcp:prompt directive (did you mean title?)",
		`//mcp:prompt title="a"b`:      `x.go:1:23: unexpected 'b' after the quoted value of key title`,
		`//mcp:prompt title="a\q"`:     "x.go:1:20: invalid quoted value for key title",
		`//mcp:prompt title="abc`:      "x.go:1:20: unterminated quoted value for key title",
		`//mcp:tool name=a name=b`:     "x.go:1:19: duplicate key name in //mcp:tool directive",
		`//mcp:tool !`:                 `x.go:1:12: unexpected '!' in //mcp:tool directive`,
		`//mcp:tool name!`:             `x.go:1:16: unexpected '!' after key name`,
		`//mcp:resourceTemplate title`: "x.go:1:24: missing value for key title",
	}
	for in, want := range cases {
		_, errs := parseOne(in)
		if len(errs) != 1 || !strings.HasPrefix(errs[0].Error(), want) {
			t.Errorf("%s:\n got %v\nwant %s", in, errs, want)
		}
	}
}
