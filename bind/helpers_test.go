package bind

import (
	"go/token"
	"reflect"
	"strings"
	"testing"
)

func TestSnakeCase(t *testing.T) {
	for in, want := range map[string]string{
		"CurrentWeather": "current_weather",
		"GetHTTPStatus":  "get_http_status",
		"getUser":        "get_user",
		"Echo":           "echo",
		"V2Export":       "v2_export",
		"Export2":        "export2",
		"HTTPServer":     "http_server",
		"ID":             "id",
		"already_snake":  "already_snake",
	} {
		if got := snakeCase(in); got != want {
			t.Errorf("snakeCase(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTemplateVars(t *testing.T) {
	ok := map[string][]string{
		"weather://{city}/current":           {"city"},
		"file:///{+path}":                    {"path"},
		"x://{a,b}/{a}{?q,limit:10}{&list*}": {"a", "b", "q", "limit", "list"},
		"x://{var.name}{%20x}":               {"var.name", "%20x"},
		"plain://uri":                        nil,
	}
	for in, want := range ok {
		got, err := templateVars(in)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("templateVars(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	bad := map[string]string{
		"x://{city":     "unterminated expression",
		"x://city}":     "unmatched '}'",
		"x://{}":        "empty expression",
		"x://{+}":       "empty expression",
		"x://{a b}":     "invalid variable name",
		"x://{a:0}":     "invalid prefix modifier",
		"x://{a:12345}": "invalid prefix modifier",
		"x://{{a}}":     "nested '{'",
		"x://{.a.}":     "invalid variable name",
	}
	for in, want := range bad {
		if _, err := templateVars(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("templateVars(%q) error = %v, want %q", in, err, want)
		}
	}
}

func TestCheckToolName(t *testing.T) {
	for _, ok := range []string{"getUser", "DATA_EXPORT_v2", "admin.tools.list", "a-b", strings.Repeat("x", 128)} {
		if why := checkToolName(ok); why != "" {
			t.Errorf("checkToolName(%q) = %q, want ok", ok, why)
		}
	}
	for _, bad := range []string{"", "a b", "a,b", "a/b", "ä", strings.Repeat("x", 129)} {
		if checkToolName(bad) == "" {
			t.Errorf("checkToolName(%q) accepted", bad)
		}
	}
}

func TestSuggest(t *testing.T) {
	keys := []string{"name", "title", "readOnly", "openWorld", "uriTemplate"}
	for in, want := range map[string]string{"readonly": "readOnly", "titel": "title", "nam": "name", "uritemplate": "uriTemplate", "openworld": "openWorld", "zzz": "", "mimeType": ""} {
		if got := suggest(in, keys); got != want {
			t.Errorf("suggest(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParsePos(t *testing.T) {
	for in, want := range map[string]token.Position{
		"/a/b.go:3:7": {Filename: "/a/b.go", Line: 3, Column: 7},
		"/a/b.go:3":   {Filename: "/a/b.go", Line: 3},
		"-":           {},
		"":            {},
		"C:/x.go:1:2": {Filename: "C:/x.go", Line: 1, Column: 2},
	} {
		if got := parsePos(in); got != want {
			t.Errorf("parsePos(%q) = %+v, want %+v", in, got, want)
		}
	}
}

func TestErrorListErr(t *testing.T) {
	var l ErrorList
	if l.Err() != nil {
		t.Error("empty list is an error")
	}
	l.add(token.Position{Filename: "x.go", Line: 2, Column: 1}, "b")
	l.add(token.Position{Filename: "x.go", Line: 1, Column: 5}, "a %d", 1)
	l.sort()
	if got := l.Err().Error(); got != "x.go:1:5: a 1\nx.go:2:1: b" {
		t.Errorf("got %q", got)
	}
}

func TestLoadNoPackage(t *testing.T) {
	_, err := Load(t.TempDir(), LoadOptions{Env: testEnv()})
	if err == nil {
		t.Fatal("Load of an empty directory succeeded")
	}
}

func TestResultKindString(t *testing.T) {
	if ResultContentBlocks.String() != "content blocks" || ResultKind(99).String() != "invalid" {
		t.Error("ResultKind.String")
	}
}
