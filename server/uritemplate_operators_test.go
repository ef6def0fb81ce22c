package server

import (
	"testing"

	"github.com/yosida95/uritemplate/v3"
)

// RFC 6570 §3.2.3 (reserved expansion, {+var}) and §3.2.4 ({#var}) leave
// reserved characters, "," among them, as they are, and §2.4.1 applies a
// prefix {var:3} to the value's characters before that. So {+a:3} with
// a = "a,b" expands to "a,b" (the library's Expand agrees), and README
// says "A URI is a template's resource only when the template can expand
// to it". The matcher's prefix class drops "," for every operator
// (charClass(p.op, ",")), so the URI is refused (-32602 Resource not found).
func TestTemplateReservedPrefixKeepsItsComma(t *testing.T) {
	for _, tmpl := range []string{"x://h/{+a:3}", "x://h/{#a:3}"} {
		uri, err := uritemplate.MustNew(tmpl).Expand(uritemplate.Values{"a": uritemplate.String("a,b")})
		if err != nil {
			t.Fatal(err)
		}
		m, err := compileURITemplate(tmpl)
		if err != nil {
			t.Fatal(err)
		}
		vars, ok := m.match(uri)
		if !ok || vars["a"] != "a,b" {
			t.Errorf("%s against %q (its expansion of a=\"a,b\"): %q %v, want a=\"a,b\"", tmpl, uri, vars, ok)
		}
	}
}

// {;a} with the list a = ("", "x") expands to ";a=,x" (RFC 6570 §3.2.7:
// name, "=", the items joined with ","; the library's Expand agrees), and
// README: "a list keeps the separator the URI held between its items". The
// regexp of a non-empty ; value is an alternation that is not grouped
// ("(?:=" + "X|Y" + ")?"), so "=" binds to its first branch only: ";a=,x"
// is refused, while ";a,x" — which no value expands to: after the name
// comes "=", ";" or the end — is accepted with a = ",x".
func TestTemplateSemicolonListValueKeepsItsEquals(t *testing.T) {
	tmpl := "x://h{;a}"
	uri, err := uritemplate.MustNew(tmpl).Expand(uritemplate.Values{"a": uritemplate.List("", "x")})
	if err != nil || uri != "x://h;a=,x" {
		t.Fatalf("library: %q %v", uri, err)
	}
	m, err := compileURITemplate(tmpl)
	if err != nil {
		t.Fatal(err)
	}
	if vars, ok := m.match(uri); !ok || vars["a"] != ",x" {
		t.Errorf("%s against %q: %q %v, want a=\",x\"", tmpl, uri, vars, ok)
	}
	if vars, ok := m.match("x://h;a,x"); ok {
		t.Errorf("%s against \"x://h;a,x\" (no expansion of it): matched %q", tmpl, vars)
	}
}
