package server

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// A resources/read of a URI of a few tens of KiB against the simplest
// template, "x://h/{name}", must not pin a core for seconds: the URI is
// 24 KiB (12 KiB for {/path*}), far below the 4 MiB a request may carry
// (HTTPOptions.MaxBodyBytes), yet github.com/yosida95/uritemplate/v3's Match copies every capture of
// every thread at every step, so a value made of many list items ("a,a,a…",
// which README says {name} takes as "a,a,a…") is matched in time quadratic
// in the URI's length (8 KiB: ~0.4 s; 32 KiB: ~6 s; 4 MiB: days). The same
// holds for an exploded {/path*} or {?q*} (8 KiB: ~1.8 s; 32 KiB: ~20 s). One request is a hang of a
// worker; the preamble's rule "never a hang" and README "A strict, fast
// runtime" hold the matcher to linear time. The read function itself is
// trivial.
func TestTemplateMatchIsLinearInTheURI(t *testing.T) {
	for _, c := range []struct{ tmpl, uri string }{
		{"x://h/{name}", "x://h/" + strings.Repeat("a,", 12000) + "a"},
		{"x://h{/path*}", "x://h" + strings.Repeat("/a", 6000)},
	} {
		t.Run(c.tmpl, func(t *testing.T) {
			s := templateEchoServer(t, c.tmpl)
			done := make(chan int64, 1)
			start := time.Now()
			go func() {
				_, code, _ := rpcAt2026(t, s, "resources/read", `"uri":"`+c.uri+`"`)
				done <- code
			}()
			select {
			case code := <-done:
				if code != 0 {
					t.Fatalf("read of a %d-byte URI: error %d", len(c.uri), code)
				}
				if d := time.Since(start); d > time.Second {
					t.Fatalf("read of a %d-byte URI took %v", len(c.uri), d)
				}
			case <-time.After(time.Second):
				t.Fatalf("read of a %d-byte URI against %s still running after 1 s (quadratic template matching)", len(c.uri), c.tmpl)
			}
		})
	}
}

// README: "`{id:3}` takes at most 3 characters" and "A URI is a template's
// resource only when the template can expand to it" (RFC 6570 §2.4.1: the
// max-length of a prefix modifier counts characters of the value, which is
// UTF-8 encoded and then percent-encoded). {a:1} with a="€" expands to
// "%E2%82%AC", and {a:2} with a="aé" to "a%C3%A9"; both URIs are the
// template's resources and must be read with those values. The library's
// matcher counted percent-encoded octets, so both were -32602 Resource not
// found: a resource the server declares was refused.
func TestTemplatePrefixCountsCharactersNotOctets(t *testing.T) {
	for _, c := range []struct{ tmpl, uri, want string }{
		{"x://h/{a:1}", "x://h/%E2%82%AC", "vars:a=€"},
		{"x://h/{a:2}", "x://h/a%C3%A9", "vars:a=aé"},
		{"x://h/{a:2}", "x://h/%C3%A9%C3%A9", "vars:a=éé"},
	} {
		t.Run(c.uri, func(t *testing.T) {
			s := templateEchoServer(t, c.tmpl)
			text, code := readTemplate(t, s, c.uri)
			if code != 0 || text != c.want {
				t.Errorf("%s against %s: text %q, code %d; want %q", c.tmpl, c.uri, text, code, c.want)
			}
		})
	}
}

// A template variable's value is a Unicode string whose UTF-8 octets are
// percent-encoded (RFC 6570 §1.6, §3.2.1); no value expands to "%FF" or to
// a lone "%C3", so README's rule "A URI is a template's resource only when
// the template can expand to it … any other URI is `-32602 Resource not
// found`" refuses x://h/%FF for x://h/{name}. The library's matcher ran the
// read function with name = "\xff", a string that is not UTF-8 and that no
// client could have meant (its text answer then carries U+FFFD).
func TestTemplateValueThatIsNotUTF8IsNotFound(t *testing.T) {
	for _, uri := range []string{"x://h/%FF", "x://h/a%C3", "x://h/%ED%A0%80"} {
		t.Run(uri, func(t *testing.T) {
			var got []string
			s, err := New(Options{Name: "t", Version: "1", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
				ResourceTemplates: []ResourceTemplate{NewResourceTemplate(ResourceTemplateInfo{URITemplate: "x://h/{name}", Name: "n"},
					func(ctx context.Context, vars map[string]string) (string, error) {
						got = append(got, vars["name"])
						return "x", nil
					})},
			})
			if err != nil {
				t.Fatal(err)
			}
			_, code := readTemplate(t, s, uri)
			for _, v := range got {
				if !utf8.ValidString(v) {
					t.Errorf("read function got name=%q, not UTF-8", v)
				}
			}
			if code != -32602 {
				t.Errorf("resources/read %s: code %d, want -32602 Resource not found", uri, code)
			}
		})
	}
}

// RFC 6570 §3.2.7: {;a} with a = "" expands to ";a" (no "="), and is read
// back as a = "", not as a left out; ";a=" is no expansion.
func TestTemplateSemicolonEmptyValue(t *testing.T) {
	for _, c := range []struct{ uri, want string }{
		{"x://r;a", "vars:a="},
		{"x://r", "vars:"},
		{"x://r;a=1", "vars:a=1"},
	} {
		s := templateEchoServer(t, "x://r{;a}")
		if text, code := readTemplate(t, s, c.uri); code != 0 || text != c.want {
			t.Errorf("x://r{;a} against %s: %q, code %d; want %q", c.uri, text, code, c.want)
		}
	}
	if _, code := readTemplate(t, templateEchoServer(t, "x://r{;a}"), "x://r;a="); code != -32602 {
		t.Errorf("x://r{;a} against x://r;a=: code %d; want -32602", code)
	}
}
