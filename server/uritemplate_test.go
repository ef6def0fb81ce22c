package server

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"sort"
	"strings"
	"testing"
)

// templateEchoServer serves one resource template whose read function
// answers with the variables it was given (name=value, sorted).
func templateEchoServer(t *testing.T, tmpl string) *Server {
	t.Helper()
	s, err := New(Options{Name: "t", Version: "1", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		ResourceTemplates: []ResourceTemplate{NewResourceTemplate(ResourceTemplateInfo{URITemplate: tmpl, Name: "echo"},
			func(ctx context.Context, vars map[string]string) (string, error) {
				var kv []string
				for k, v := range vars {
					kv = append(kv, k+"="+v)
				}
				sort.Strings(kv)
				return "vars:" + strings.Join(kv, "&"), nil
			})},
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// readTemplate reads uri and returns the text of the result, or the error
// code.
func readTemplate(t *testing.T, s *Server, uri string) (text string, code int64) {
	t.Helper()
	params, _ := json.Marshal(map[string]any{"uri": uri, "_meta": json.RawMessage(`{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`)})
	resp := s.HandleBytes(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":`+string(params)+`}`), nil)
	var r struct {
		Result *struct {
			Contents []struct {
				Text string `json:"text"`
			} `json:"contents"`
		} `json:"result"`
		Error *struct {
			Code int64 `json:"code"`
		} `json:"error"`
	}
	if err := json.Unmarshal(resp.Body, &r); err != nil {
		t.Fatalf("%s: %v", resp.Body, err)
	}
	if r.Error != nil {
		return "", r.Error.Code
	}
	if r.Result == nil || len(r.Result.Contents) != 1 {
		t.Fatalf("resources/read %s: %s", uri, resp.Body)
	}
	return r.Result.Contents[0].Text, 0
}

// A URI that an RFC 6570 template cannot expand to is not one of its
// resources: -32602 Resource not found (server/resources.mdx), never the
// read function run with the URI's variables silently dropped and its
// answer served under the requested URI. The library's Regexp accepts
// these URIs; its Match, which decides, does not:
//
//   - {?a,b} against "?b=1&a=2" (the same variables in another order) and
//     "?a=1&a=2" (a repeated one);
//   - {var:3} (a prefix of at most 3 characters) against "abcdef".
func TestTemplateURIItCannotExpandToIsNotFound(t *testing.T) {
	cases := []struct{ tmpl, uri string }{
		{"x://h{?a,b}", "x://h?b=1&a=2"},
		{"x://h{?a,b}", "x://h?a=1&a=2"},
		{"x://h/{var:3}", "x://h/abcdef"},
	}
	for _, c := range cases {
		t.Run(c.uri, func(t *testing.T) {
			s := templateEchoServer(t, c.tmpl)
			text, code := readTemplate(t, s, c.uri)
			if code == 0 && text == "vars:" {
				t.Errorf("template %s read %s: the read function ran with no variables (%q); want -32602, or the URI's values", c.tmpl, c.uri, text)
			}
			if code != -32602 {
				t.Errorf("template %s read %s: %q (code %d); want -32602 Resource not found", c.tmpl, c.uri, text, code)
			}
		})
	}
}

// A URI the template does expand to gives the read function every
// variable by its name: a prefix {var:3} fills "var" (the library reports
// it as "var:3"), and the full {var} wins over its prefix.
func TestTemplateVariablesAreFilledByName(t *testing.T) {
	for _, c := range []struct{ tmpl, uri, want string }{
		{"x://h{?a,b}", "x://h?a=1&b=2", "vars:a=1&b=2"},
		{"x://h{?a,b}", "x://h?b=2", "vars:b=2"},
		{"x://h/{var:3}", "x://h/abc", "vars:var=abc"},
		{"x://h/{var:3}/{var}", "x://h/abc/abcdef", "vars:var=abcdef"},
		{"x://h{/path*}", "x://h/a/b/c", "vars:path=a/b/c"},
		{"x://h{?x*}", "x://h?x=1&x=2", "vars:x=1,2"},
		{"x://h{?x}", "x://h?x=1,2", "vars:x=1,2"},
		{"x://h/{a}", "x://h/a%2Fb", "vars:a=a/b"},
	} {
		s := templateEchoServer(t, c.tmpl)
		if text, code := readTemplate(t, s, c.uri); code != 0 || text != c.want {
			t.Errorf("template %s read %s: %q (code %d); want %q", c.tmpl, c.uri, text, code, c.want)
		}
	}
}

// ResourceTemplateInfo: "the template's variables fill the string fields
// of Vars"; uritemplate.go: "An exploded list ({/path*}) is joined with
// "/", the separator it was matched on for path segments". A variable that
// is not exploded and not a path expansion was joined with "/" too: {a}
// against "x://h/a,b" gave a = "a/b", a slash the URI never held (neither
// literally nor as %2F). A read function that refuses "/" in a file name
// taken from the URI was thus given one anyway; the value matched is
// "a,b".
func TestTemplateListValueKeepsItsSeparator(t *testing.T) {
	for _, c := range []struct{ tmpl, uri, want string }{
		{"x://h/{a}", "x://h/a,b", "vars:a=a,b"},
		{"file:///docs/{name}", "file:///docs/..,..,etc,passwd", "vars:name=..,..,etc,passwd"},
		{"x://h/{a},{b}", "x://h/1,2,3", "vars:a=1&b=2,3"},
	} {
		s := templateEchoServer(t, c.tmpl)
		text, code := readTemplate(t, s, c.uri)
		if code == 0 && strings.Contains(text, "/") {
			t.Errorf("template %s read %s: the read function got %q (a '/' that is not in the URI); want %q", c.tmpl, c.uri, text, c.want)
		}
		if code != 0 || text != c.want {
			t.Errorf("template %s read %s: %q (code %d); want %q", c.tmpl, c.uri, text, code, c.want)
		}
	}
}
