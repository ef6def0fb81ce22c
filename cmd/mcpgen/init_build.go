package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"golang.org/x/mod/module"

	"github.com/mcpgen/mcpgen/bind"
	"github.com/mcpgen/mcpgen/templates"
	"github.com/mcpgen/mcpgen/writeout"
)

// builtVersion is the module version of mcpgen this binary was built from
// when it is a real, published one (go install …/cmd/mcpgen@v1.2.3, or a
// project requiring mcpgen at a version); "" for a development build, a
// replaced module or a version with build metadata such as +dirty.
func builtVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	mods := append([]*debug.Module{&info.Main}, info.Deps...)
	for _, m := range mods {
		if m == nil || m.Path != templates.ModulePath {
			continue
		}
		if m.Replace != nil {
			return ""
		}
		return realVersion(m.Version)
	}
	return ""
}

// realVersion returns v when it is a canonical module version of mcpgen.
func realVersion(v string) string {
	if v == "" || v == "(devel)" || module.Check(templates.ModulePath, v) != nil || module.CanonicalVersion(v) != v {
		return ""
	}
	return v
}

// checkModulePath accepts what the go command accepts as the module path
// of a main module.
func checkModulePath(p string) error {
	return module.CheckImportPath(p)
}

// initBuildSteps resolves the new project's dependencies (offline with
// --replace) and writes the bindings, recording what happened in s. When a
// step cannot run or fails, s.next says what to run instead; a failure is
// exitFail.
//
// Dependencies are resolved with `go list -mod=mod -deps -test` over the
// project's packages and the mcpgen tool rather than `go mod tidy`: tidy also
// wants the modules that the tests of dependencies import (go-cmp for
// golang.org/x/tools, say), which a module cache filled by building mcpgen
// need not hold, so tidy can fail offline where building cannot. The result
// builds, tests and runs `go generate` with -mod=readonly; a later
// `go mod tidy` with network access may add test-only indirect lines.
//
// The go commands run with GOWORK=off: the project is a module of its own
// even in a folder under a go.work (which would refuse -mod=mod, and does
// not list the new module); s.next then says to add it to the workspace.
func (e *env) initBuildSteps(f initFlags, d templates.Data, s *summary, logf func(string, ...any)) int {
	switch {
	case !s.wroteFile("go.mod"):
		s.steps = append(s.steps, "skipped   resolving dependencies and the bindings (go.mod was already there)")
		s.next = append(s.next, "go mod tidy")
		return exitOK
	case d.Replace == "" && d.Version == templates.UnpublishedVersion:
		s.steps = append(s.steps, "skipped   resolving dependencies and the bindings (mcpgen is not published; see the warning)")
		return exitOK
	}
	if work := enclosingWorkspace(f.dir); work != "" {
		s.next = append(s.next, "go work use .    # "+work+" encloses the project (or set GOWORK=off)")
	}
	env := append(os.Environ(), "GOWORK=off")
	if d.Replace != "" {
		env = append(env, "GOPROXY=off")
	}
	t := time.Now()
	args := []string{"list", "-mod=mod", "-deps", "-test", "./...", templates.ModulePath + "/cmd/mcpgen"}
	cmd := exec.Command("go", args...)
	cmd.Dir = f.dir
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	if err := cmd.Run(); err != nil {
		e.errorf("init: resolving dependencies (go %s) in %s failed: %v\n%s", strings.Join(args, " "), f.dir, err, indent(stderr.String()))
		if d.Replace != "" {
			e.errorf("init: it ran offline (GOPROXY=off): the module cache lacks a dependency of mcpgen; run 'go mod tidy' in %s with network access", f.dir)
		}
		s.next = append(s.next, "go mod tidy")
		return exitFail
	}
	what := "resolved  dependencies into go.mod and go.sum"
	if d.Replace != "" {
		what += " (offline)"
	}
	s.steps = append(s.steps, what)
	logf("go %s (%s)", strings.Join(args, " "), since(t))

	t = time.Now()
	if err := writeBindings(f.dir, env); err != nil {
		e.errorf("init: writing the bindings (%s): %v", bind.OutputFile, err)
		return exitFail
	}
	s.steps = append(s.steps, "generated "+bind.OutputFile+" (mcpgen tools: the bindings of tools.go)")
	logf("bindings (%s)", since(t))
	return exitOK
}

// enclosingWorkspace is the go.work the go command would use in dir, or
// "" for none (or when it cannot tell).
func enclosingWorkspace(dir string) string {
	cmd := exec.Command("go", "env", "GOWORK")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	work := strings.TrimSpace(string(out))
	if work == "off" {
		return ""
	}
	return work
}

// writeBindings does what `mcpgen tools` does in dir.
func writeBindings(dir string, env []string) error {
	pkg, err := bind.Load(dir, bind.LoadOptions{Env: env})
	if err != nil {
		var list bind.ErrorList
		if errors.As(err, &list) {
			msgs := make([]string, len(list))
			for i, le := range list {
				msgs[i] = le.Error()
			}
			return errors.New(strings.Join(msgs, "\n"))
		}
		return err
	}
	content, err := bind.Emit(pkg, bind.EmitOptions{})
	if err != nil {
		return err
	}
	_, err = writeout.Write(dir, []writeout.File{{Name: bind.OutputFile, Content: content}},
		writeout.Options{Header: bind.GeneratedHeader, KeepStale: true})
	if err != nil {
		return fmt.Errorf("%w (in %s)", err, filepath.Clean(dir))
	}
	return nil
}

// indent prefixes each line of s with two spaces.
func indent(s string) string {
	s = strings.TrimRight(s, "\n")
	return "  " + strings.ReplaceAll(s, "\n", "\n  ")
}
