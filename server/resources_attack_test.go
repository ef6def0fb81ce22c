package server

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// attackMeta is the per-request _meta of a 2026-07-28 request.
const attackMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

// attackRPC sends method with params (members without braces, _meta added)
// and returns the decoded response.
func attackRPC(t *testing.T, s *Server, method, params string) (result map[string]any, code int64, body string) {
	t.Helper()
	p := "{" + attackMeta
	if params != "" {
		p += "," + params
	}
	p += "}"
	resp := s.HandleBytes(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"`+method+`","params":`+p+`}`), nil)
	var r struct {
		Result map[string]any `json:"result"`
		Error  *struct {
			Code int64 `json:"code"`
		} `json:"error"`
	}
	if err := json.Unmarshal(resp.Body, &r); err != nil {
		t.Fatalf("%s: %v", resp.Body, err)
	}
	if r.Error != nil {
		return nil, r.Error.Code, string(resp.Body)
	}
	return r.Result, 0, string(resp.Body)
}

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
func TestAttackTemplateMatchLongListURIIsNotQuadratic(t *testing.T) {
	for _, c := range []struct{ tmpl, uri string }{
		{"x://h/{name}", "x://h/" + strings.Repeat("a,", 12000) + "a"},
		{"x://h{/path*}", "x://h" + strings.Repeat("/a", 6000)},
	} {
		t.Run(c.tmpl, func(t *testing.T) {
			s := templateEchoServer(t, c.tmpl)
			done := make(chan int64, 1)
			start := time.Now()
			go func() {
				_, code, _ := attackRPC(t, s, "resources/read", `"uri":"`+c.uri+`"`)
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
// template's resources and must be read with those values. Today the
// prefix counts percent-encoded octets, so both are -32602 Resource not
// found: a resource the server declares is refused.
func TestAttackTemplatePrefixCountsCharactersNotOctets(t *testing.T) {
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
// found`" refuses x://h/%FF for x://h/{name}. Today the read function runs
// with name = "\xff", a string that is not UTF-8 and that no client could
// have meant (its text answer then carries U+FFFD).
func TestAttackTemplateValueThatIsNotUTF8IsNotFound(t *testing.T) {
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

// pagedPromptServer serves prompts named by names, pageSize to a page, and
// tools named by tools.
func pagedPromptServer(t *testing.T, names, tools []string) *Server {
	t.Helper()
	var prompts []Prompt
	for _, n := range names {
		prompts = append(prompts, NewPrompt(PromptInfo{Name: n}, func(ctx context.Context, in map[string]string) (string, error) { return n, nil }))
	}
	var ts []Tool
	for _, n := range tools {
		ts = append(ts, NewTool(ToolInfo{Name: n}, func(ctx context.Context, in noArgs) (string, error) { return "", nil }))
	}
	s, err := New(Options{Name: "t", Version: "1", PageSize: 2, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Prompts: prompts, Tools: ts})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// promptNames returns the names on a prompts/list page and its nextCursor.
func promptNames(t *testing.T, s *Server, cursor *string) (names []string, next *string, code int64) {
	t.Helper()
	params := ""
	if cursor != nil {
		c, _ := json.Marshal(*cursor)
		params = `"cursor":` + string(c)
	}
	res, code, _ := attackRPC(t, s, "prompts/list", params)
	if code != 0 {
		return nil, nil, code
	}
	for _, p := range res["prompts"].([]any) {
		names = append(names, p.(map[string]any)["name"].(string))
	}
	if n, ok := res["nextCursor"].(string); ok {
		next = &n
	}
	return names, next, 0
}

// Paginate's documentation: "A cursor Paginate did not produce is an error
// that Handle answers with -32602, as the pagination page requires"
// (server/utilities/pagination.mdx: "Invalid cursors SHOULD result in an
// error with code -32602"). With two prompts to a page, Paginate produces
// the cursors of offsets 2, 4, …; a client that forges base64url("mcpgen:1")
// or base64url("mcpgen:+2") (strconv.Atoi takes the sign) gets a page
// anyway, starting wherever it chose.
func TestAttackForgedCursorIsInvalidParams(t *testing.T) {
	s := pagedPromptServer(t, []string{"a", "b", "c", "d", "e"}, nil)
	for _, raw := range []string{"mcpgen:1", "mcpgen:+2", "mcpgen:02", "mcpgen:3"} {
		cursor := base64.RawURLEncoding.EncodeToString([]byte(raw))
		names, _, code := promptNames(t, s, &cursor)
		if code != -32602 {
			t.Errorf("forged cursor %q (%s): code %d, page %v; want -32602", cursor, raw, code, names)
		}
	}
}

// A cursor is "an opaque token representing the current pagination
// position" of one result set (schema PaginatedRequestParams.cursor;
// server/utilities/pagination.mdx: "a position in the result set", and
// "Invalid cursors SHOULD result in an error with code -32602"). The
// nextCursor of tools/list is no position in the prompts/list result set;
// today prompts/list accepts it and serves the prompts from the tools'
// offset, so a client mixing up its cursors silently skips prompts.
func TestAttackCursorOfAnotherListIsInvalidParams(t *testing.T) {
	s := pagedPromptServer(t, []string{"p1", "p2", "p3", "p4", "p5"}, []string{"t1", "t2", "t3"})
	res, code, body := attackRPC(t, s, "tools/list", "")
	if code != 0 {
		t.Fatal(body)
	}
	toolCursor, ok := res["nextCursor"].(string)
	if !ok {
		t.Fatalf("tools/list has no nextCursor: %s", body)
	}
	names, _, code := promptNames(t, s, &toolCursor)
	if code != -32602 {
		t.Errorf("prompts/list with the cursor of tools/list: code %d, page %v; want -32602", code, names)
	}
}

// server/utilities/pagination.mdx: "Servers SHOULD: Provide stable
// cursors". A prompt present for the whole walk must be listed by it. The
// cursor is an offset, so when an earlier prompt is removed between two
// pages the walk skips one that never changed: prompts a..e, two to a
// page; page 1 is a, b; "a" is removed; page 2 starts at offset 2 of
// b, c, d, e and is d, e — "c" is never listed.
func TestAttackCursorIsStableWhenAnEarlierItemIsRemoved(t *testing.T) {
	s := pagedPromptServer(t, []string{"a", "b", "c", "d", "e"}, nil)
	seen := map[string]bool{}
	names, next, code := promptNames(t, s, nil)
	if code != 0 || next == nil {
		t.Fatalf("first page: %v %v %d", names, next, code)
	}
	for _, n := range names {
		seen[n] = true
	}
	s.RemovePrompts("a")
	for next != nil {
		names, next, code = promptNames(t, s, next)
		if code != 0 {
			t.Fatalf("next page: code %d", code)
		}
		for _, n := range names {
			seen[n] = true
		}
	}
	for _, n := range []string{"b", "c", "d", "e"} {
		if !seen[n] {
			t.Errorf("prompt %q, registered for the whole walk, was never listed (seen %v)", n, seen)
		}
	}
}

// README ("How a request flows"): parseRequest reads params with "exact
// member names …, a repeated member is … -32602 in params or _meta", and
// the arguments of a tool are "parsed once (a member name repeated in an
// object is rejected)"; "Prompt arguments and template variables are
// matched by exact name the same way". tools/call refuses
// {"code":"safe","code":"evil"}, and so does completion/complete for the
// same map of strings in params.context.arguments (-32602 "duplicate
// member"). prompts/get decodes params.arguments with encoding/json into a
// map, so the last "code" silently wins and the prompt is rendered with
// "evil", while any reader that takes the first member (an interceptor
// auditing params, a gateway) sees "safe": two parsers disagree about one
// message. Both eras.
func TestAttackPromptArgumentRepeatedIsInvalidParams(t *testing.T) {
	s, err := New(Options{Name: "t", Version: "1", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Prompts: []Prompt{NewPrompt(PromptInfo{Name: "p", Arguments: []PromptArgument{{Name: "code", Required: true}}},
			func(ctx context.Context, in map[string]string) (string, error) { return in["code"], nil })},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, version := range []string{"2026-07-28", "2025-11-25"} {
		t.Run(version, func(t *testing.T) {
			msg := `{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"` + version +
				`","io.modelcontextprotocol/clientCapabilities":{}},"name":"p","arguments":{"code":"safe","code":"evil"}}}`
			resp := s.HandleBytes(context.Background(), []byte(msg), nil)
			var r struct {
				Error *struct {
					Code int64 `json:"code"`
				} `json:"error"`
			}
			if err := json.Unmarshal(resp.Body, &r); err != nil {
				t.Fatalf("%s: %v", resp.Body, err)
			}
			if r.Error == nil || r.Error.Code != -32602 {
				t.Errorf("prompts/get with \"code\" repeated in params.arguments: %s; want -32602", resp.Body)
			}
		})
	}
}

// README: "A variable named twice has one value: `{a}/{a}` takes `p/p`".
// A client that expands x://h/{a}-{a} with a = "a-b" (RFC 6570 §3.2.2: "-"
// is unreserved, so it is copied as is) gets x://h/a-b-a-b, and with a =
// "ab" x://h/{a}{a} gives x://h/abab: URIs of the template's resources.
// The matcher takes the one split the library's Match chose ("a" and
// "b-a-b"), sees its places disagree and answers -32602 Resource not
// found, though another split is the expansion.
func TestAttackTemplateRepeatedVariableOtherSplit(t *testing.T) {
	for _, c := range []struct{ tmpl, uri, want string }{
		{"x://h/{a}-{a}", "x://h/a-b-a-b", "vars:a=a-b"},
		{"x://h/{a}{a}", "x://h/abab", "vars:a=ab"},
	} {
		t.Run(c.tmpl, func(t *testing.T) {
			s := templateEchoServer(t, c.tmpl)
			text, code := readTemplate(t, s, c.uri)
			if code != 0 || text != c.want {
				t.Errorf("%s against %s: text %q, code %d; want %q", c.tmpl, c.uri, text, code, c.want)
			}
		})
	}
}

// The same matcher decides which resourceSubscriptions a
// subscriptions/listen request is granted (readable → guard → every
// template's match), so one listen request naming a 24 KiB URI holds its
// acknowledgement for seconds, and a 4 MiB request can name ~170 of them
// (minutes of CPU for one request). The acknowledgement of a stream
// subscribing to one such URI must come promptly.
func TestAttackListenLongSubscriptionURIIsNotQuadratic(t *testing.T) {
	s := templateEchoServer(t, "x://h/{name}")
	uri := "x://h/" + strings.Repeat("a,", 12000) + "a"
	l := startListen(t, s, "1", `{"resourceSubscriptions":["`+uri+`"]}`)
	select {
	case n := <-l.w.ch:
		if n.Method != "notifications/subscriptions/acknowledged" {
			t.Fatalf("first frame %s", n.Method)
		}
	case <-time.After(time.Second):
		t.Fatalf("no acknowledgement of a listen stream subscribing to a %d-byte URI after 1 s (quadratic template matching)", len(uri))
	}
}
