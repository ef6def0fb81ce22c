package main

import (
	"bytes"
	"errors"
	"fmt"
	"go/build"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/bind"
	"github.com/mcpgen/mcpgen/writeout"
)

func toolsCommand() *command {
	return &command{
		name:    "tools",
		summary: "bind //mcp:tool, prompt and resource funcs of a Go package (go generate)",
		usage: `
Usage:
  mcpgen tools [dir] [--out file] [--check] [-v]

Tools loads the Go package in dir (default: the current folder, which is the
package folder when go generate runs it), finds the funcs annotated with
//mcp:tool, //mcp:prompt, //mcp:resource and //mcp:resourceTemplate and writes
one file next to them, ` + bind.OutputFile + ` by default, that binds them to the
mcpgen runtime: for package-level funcs, and for each receiver type T,

  MCPTools() []server.Tool          MCPPrompts() []server.Prompt
  MCPResources() []server.Resource  MCPResourceTemplates() []server.ResourceTemplate
  MCPRegister(opts *server.Options) (appends all of them to opts)

so that a server is

  opts := server.Options{Name: "weather", Version: "1.0.0"}
  svc.MCPRegister(&opts)
  srv, err := server.New(opts)

The directive syntax is documented in package github.com/mcpgen/mcpgen/bind;
in short:

  // CurrentWeather gets current weather information for any location worldwide.
  //
  //mcp:tool name=weather_current title="Weather Information" readOnly openWorld
  func (s *Service) CurrentWeather(ctx context.Context, in WeatherArgs) (WeatherReport, error)

Mistakes are reported as file:line:col: message, the exit status is 2 and
nothing is written. User files are never touched, and the output file is only
replaced when its content changes (an unchanged run writes nothing). A package
without directives gets no file (an old generated one is removed).

With --check nothing is written: it exits 1 naming the output file when it is
missing or stale.

Add to a file of the package:

  //go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen tools

Examples:
  mcpgen tools
  mcpgen tools ./examples/weather --check
`,
		run: runTools,
	}
}

func runTools(e *env, c *command, args []string) int {
	fs := newFlags(c)
	out := fs.String("out", bind.OutputFile, "name of the generated `file` in the package folder")
	check := fs.Bool("check", false, "write nothing; exit 1 if the generated file is missing or stale")
	verbose := fs.Bool("v", false, "print what is loaded and written, with timings")
	tags := fs.String("tags", "", "comma-separated build `tags` to load the package with")
	positional, code, done := e.parse(c, fs, args)
	if done {
		return code
	}
	if len(positional) > 1 {
		return e.usageError(c, "want at most one package folder, got %d arguments", len(positional))
	}
	if err := checkOutName(*out); err != nil {
		return e.usageError(c, "--out %q: %v", *out, err)
	}
	dir := "."
	if len(positional) == 1 {
		dir = positional[0]
	}
	logf := func(format string, args ...any) {
		if *verbose {
			e.errorf(format, args...)
		}
	}
	start := time.Now()

	opts := bind.LoadOptions{OverlayEarlierBindings: true}
	if *tags != "" {
		opts.BuildFlags = []string{"-tags=" + *tags}
	}
	pkg, err := bind.Load(dir, opts)
	var list bind.ErrorList
	switch {
	case errors.As(err, &list):
		for _, le := range list {
			fmt.Fprintln(e.stderr, le.Error())
		}
		e.errorf("tools: %d %s in %s; nothing written", len(list), pluralize(len(list), "error"), dir)
		return exitUsage
	case err != nil:
		e.errorf("tools: %v", err)
		return exitUsage
	}
	n := len(pkg.Tools) + len(pkg.Prompts) + len(pkg.Resources) + len(pkg.Templates)
	summary := fmt.Sprintf("%d tools, %d prompts, %d resources, %d resource templates", len(pkg.Tools), len(pkg.Prompts), len(pkg.Resources), len(pkg.Templates))
	logf("loaded %s: %s (%s)", pkg.Path, summary, since(start))

	target := filepath.Join(dir, *out)
	var content []byte
	if n > 0 {
		t := time.Now()
		if content, err = bind.Emit(pkg, bind.EmitOptions{}); err != nil {
			e.errorf("tools: %v", err)
			return exitFail
		}
		logf("emitted %s: %d bytes (%s)", *out, len(content), since(t))
	} else {
		logf("no //mcp: directives in %s", pkg.Path)
	}

	if *check {
		stale, why, err := staleOutput(target, content)
		if err != nil {
			e.errorf("tools: %v", err)
			return exitFail
		}
		if stale {
			e.errorf("tools: %s is %s; regenerate with: go generate (or mcpgen tools %s)", target, why, dir)
			return exitFail
		}
		logf("%s is up to date (%s)", target, since(start))
		return exitOK
	}
	if n == 0 {
		return removeOutput(e, target, logf)
	}
	res, err := writeout.Write(dir, []writeout.File{{Name: *out, Content: content}}, writeout.Options{Header: bind.GeneratedHeader, KeepStale: true})
	if err != nil {
		e.errorf("tools: %v", err)
		return exitFail
	}
	if len(res.Written) > 0 {
		logf("wrote %s (%s); total %s", target, summary, since(start))
	} else {
		logf("unchanged %s; total %s", target, since(start))
	}
	return exitOK
}

// checkOutName accepts a plain, non-test .go file name that the go command
// compiles: not a _test.go file, and not one whose name begins with '_' or
// '.', which the go command ignores (go help packages).
func checkOutName(name string) error {
	switch {
	case name == "" || strings.ContainsAny(name, `/\`) || filepath.Base(name) != name:
		return errors.New("want a file name in the package folder, without a directory")
	case !strings.HasSuffix(name, ".go"):
		return errors.New("want a .go file name")
	case strings.HasSuffix(name, "_test.go"):
		return errors.New("the bindings cannot live in a _test.go file")
	case strings.HasPrefix(name, "_") || strings.HasPrefix(name, "."):
		return errors.New("the go command ignores a file whose name begins with '_' or '.', so the bindings would not be compiled")
	case !onEveryPlatform(name):
		return errors.New("the go command compiles a file named *_GOOS.go, *_GOARCH.go or *_GOOS_GOARCH.go only for that platform (go help buildconstraint); the bindings must build everywhere")
	}
	return nil
}

// onEveryPlatform reports whether the go command compiles a file of that
// name whatever GOOS and GOARCH: go/build matches it against a platform
// that is none of the known ones, which only a name without a GOOS or
// GOARCH suffix matches.
func onEveryPlatform(name string) bool {
	ctxt := build.Default
	ctxt.GOOS, ctxt.GOARCH = "mcpgennone", "mcpgennone"
	ctxt.OpenFile = func(string) (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader("package p\n")), nil
	}
	ok, err := ctxt.MatchFile(".", name)
	return err == nil && ok
}

// staleOutput compares the output file with what would be written (nil:
// no file at all) and says why it is stale.
func staleOutput(target string, want []byte) (stale bool, why string, err error) {
	got, err := os.ReadFile(target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if want == nil {
			return false, "", nil
		}
		return true, "missing", nil
	case err != nil:
		return false, "", err
	case want == nil:
		if !writeout.IsGenerated(got, bind.GeneratedHeader) {
			return false, "", nil
		}
		return true, "no longer needed (the package has no //mcp: directives)", nil
	case !bytes.Equal(got, want):
		return true, "stale", nil
	}
	return false, "", nil
}

// removeOutput removes a generated output file of a package that no longer
// has directives; a file without the generated header is left alone.
func removeOutput(e *env, target string, logf func(string, ...any)) int {
	got, err := os.ReadFile(target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return exitOK
	case err != nil:
		e.errorf("tools: %v", err)
		return exitFail
	case !writeout.IsGenerated(got, bind.GeneratedHeader):
		return exitOK
	}
	if err := os.Remove(target); err != nil {
		e.errorf("tools: %v", err)
		return exitFail
	}
	logf("removed %s (no //mcp: directives left)", target)
	return exitOK
}
