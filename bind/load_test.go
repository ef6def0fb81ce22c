package bind

import (
	"errors"
	"go/types"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// testEnv runs the go command offline, outside any workspace.
func testEnv() []string {
	return append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOPROXY=off")
}

func loadFixture(t testing.TB, name string) (*Package, error) {
	t.Helper()
	return Load(filepath.Join("testdata", "fixture", name), LoadOptions{Env: testEnv()})
}

func ptr(b bool) *bool { return &b }

func TestLoadHappy(t *testing.T) {
	pkg, err := loadFixture(t, "happy")
	if err != nil {
		t.Fatal(err)
	}
	if pkg.Name != "happy" || pkg.Path != "example.com/fixture/happy" || !filepath.IsAbs(pkg.Dir) || pkg.Types == nil {
		t.Errorf("package: %q %q %q", pkg.Name, pkg.Path, pkg.Dir)
	}
	if len(pkg.Tools) != 4 || len(pkg.Prompts) != 1 || len(pkg.Resources) != 1 || len(pkg.Templates) != 1 {
		t.Fatalf("got %d tools, %d prompts, %d resources, %d templates", len(pkg.Tools), len(pkg.Prompts), len(pkg.Resources), len(pkg.Templates))
	}

	w := pkg.Tools[0]
	if w.Name != "weather_current" || w.Title != `Weather "Information"` ||
		w.Description != "Gets current weather information for any location worldwide.\n\nIt uses the open-meteo API." ||
		!reflect.DeepEqual(w.Icons, []string{"https://example.com/w.png"}) {
		t.Errorf("weather metadata: %+v", w)
	}
	if !reflect.DeepEqual(w.Annotations, ToolAnnotations{ReadOnly: ptr(true), OpenWorld: ptr(false)}) {
		t.Errorf("weather annotations: %+v", w.Annotations)
	}
	if w.Func != (Func{Name: "CurrentWeather", Recv: "Service", RecvPointer: true, TakesContext: true, Pos: w.Func.Pos}) || !w.Func.IsMethod() {
		t.Errorf("weather func: %+v", w.Func)
	}
	if !strings.HasSuffix(w.Func.Pos.Filename, "tools.go") || w.Func.Pos.Line != 25 || w.Func.Pos.Column != 19 {
		t.Errorf("weather func pos: %v", w.Func.Pos)
	}
	if w.Pos.Line != 24 || w.Pos.Column != 1 {
		t.Errorf("weather directive pos: %v", w.Pos)
	}
	if w.Args == nil || w.Args.Expr != "WeatherArgs" || w.Args.Name != "WeatherArgs" || w.Args.PkgPath != "example.com/fixture/happy" || w.Args.Pointer {
		t.Errorf("weather args: %+v", w.Args)
	}
	if w.ResultKind != ResultStruct || w.Result.Expr != "*WeatherReport" || !w.Result.Pointer || w.Result.Name != "WeatherReport" {
		t.Errorf("weather result: %v %+v", w.ResultKind, w.Result)
	}

	e := pkg.Tools[1]
	if e.Name != "echo" || e.Description != "Repeats the text." || e.Func.TakesContext || e.Func.IsMethod() ||
		e.ResultKind != ResultString || e.Result.Expr != "string" || e.Args.Expr != "EchoArgs" {
		t.Errorf("echo: %+v", e)
	}
	if e.Annotations != (ToolAnnotations{}) || e.Title != "" || e.Icons != nil {
		t.Errorf("echo has metadata it did not declare: %+v", e)
	}

	l := pkg.Tools[2]
	if l.Name != "list.blocks" || l.Args != nil || l.ResultKind != ResultContentBlocks || l.Result.Expr != "[]mcp.ContentBlock" ||
		l.Func.Recv != "Service" || l.Func.RecvPointer || !reflect.DeepEqual(l.Icons, []string{"a.png", "b.png"}) {
		t.Errorf("list.blocks: %+v", l)
	}
	if !reflect.DeepEqual(l.Annotations, ToolAnnotations{Destructive: ptr(true), Idempotent: ptr(true)}) {
		t.Errorf("list.blocks annotations: %+v", l.Annotations)
	}

	g := pkg.Tools[3]
	if g.Name != "get_http_status" || g.ResultKind != ResultCallToolResult || g.Result.PkgPath != MCPPackagePath || g.Result.Name != "CallToolResult" || !g.Result.Pointer {
		t.Errorf("get_http_status: %+v", g)
	}

	p := pkg.Prompts[0]
	if p.Name != "code_review" || p.Title != "Code review" || p.Description != "Asks for a review." ||
		p.ResultKind != ResultGetPromptResult || p.Args.Expr != "ReviewArgs" || !p.Func.TakesContext || p.Func.Recv != "Service" {
		t.Errorf("prompt: %+v", p)
	}
	if len(p.Arguments) != 2 || p.Arguments[0].Name != "code" || !p.Arguments[0].Required ||
		p.Arguments[1].Name != "language" || p.Arguments[1].Required || p.Arguments[1].GoPath != "Language" {
		t.Errorf("prompt arguments: %+v", p.Arguments)
	}

	r := pkg.Resources[0]
	if r.URI != "config://app" || r.Name != "app_config" || r.MIMEType != "application/json" || r.Title != "" ||
		r.Description != "The app configuration." || r.ResultKind != ResultStruct || r.Result.Expr != "AppConfig" || !r.Func.TakesContext {
		t.Errorf("resource: %+v", r)
	}

	tm := pkg.Templates[0]
	if tm.URITemplate != "weather://{city}/current{?units}" || tm.Name != "city_weather" || tm.Title != "City weather" ||
		tm.MIMEType != "text/plain" || tm.ResultKind != ResultString || tm.Args.Expr != "CityVars" || tm.Func.TakesContext {
		t.Errorf("template: %+v", tm)
	}
	if len(tm.Vars) != 2 || tm.Vars[0].Name != "city" || tm.Vars[0].GoPath != "Place.City" || tm.Vars[1].Name != "units" || tm.Vars[1].GoPath != "Units" {
		t.Errorf("template vars: %+v", tm.Vars)
	}
	if !types.Identical(tm.Vars[0].Type, types.Typ[types.String]) {
		t.Errorf("template var type: %v", tm.Vars[0].Type)
	}
}

// wantErrors checks that err is an ErrorList whose lines start, in order,
// with the given "file:line:col: message" prefixes (file relative to the fixture package).
func wantErrors(t *testing.T, fixture string, err error, want []string) {
	t.Helper()
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("error %v (%T) is not an ErrorList", err, err)
	}
	lines := strings.Split(err.Error(), "\n")
	prefix := filepath.Join("testdata", "fixture", fixture) + string(filepath.Separator)
	for i, w := range want {
		if i >= len(lines) {
			t.Errorf("missing error %q", w)
			continue
		}
		if !strings.HasPrefix(lines[i], prefix+w) {
			t.Errorf("error %d:\n got %s\nwant %s%s…", i, lines[i], prefix, w)
		}
	}
	if len(lines) > len(want) {
		t.Errorf("unexpected errors:\n%s", strings.Join(lines[len(want):], "\n"))
	}
}
