package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/generator"
	"github.com/mcpgen/mcpgen/internal/version"
	"github.com/mcpgen/mcpgen/writeout"
)

// cli runs mcpgen in-process and returns its exit status and output.
func cli(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// isolate points the spec folder and the user cache at empty temporary
// folders, so that tests never see the real ones.
func isolate(t *testing.T) (specDir, cacheHome string) {
	t.Helper()
	specDir, cacheHome = t.TempDir(), t.TempDir()
	t.Setenv("MCPGEN_SPEC_DIR", specDir)
	t.Setenv("XDG_CACHE_HOME", cacheHome)
	t.Setenv("MCPGEN_SPEC_BASE_URL", "")
	return specDir, cacheHome
}

// tinySchema is a valid schema with a request, a union and an enum.
const tinySchema = `{"$defs": {
  "RequestId": {"type": ["string", "integer"]},
  "Level": {"type": "string", "enum": ["low", "high"]},
  "PingRequest": {"type": "object", "properties": {
    "jsonrpc": {"const": "2.0", "type": "string"},
    "id": {"$ref": "#/$defs/RequestId"},
    "method": {"const": "ping", "type": "string"},
    "params": {"$ref": "#/$defs/PingParams"}
  }, "required": ["jsonrpc", "id", "method"]},
  "PingParams": {"type": "object", "properties": {"level": {"$ref": "#/$defs/Level"}}},
  "EmptyResult": {"type": "object", "properties": {}},
  "ClientRequest": {"anyOf": [{"$ref": "#/$defs/PingRequest"}]}
}}`

// writeSchema writes a schema under dir/<version>/schema.json.
func writeSchema(t *testing.T, dir, version, content string) string {
	t.Helper()
	path := filepath.Join(dir, version, "schema.json")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// snapshot returns every file in dir with its content ("" for no dir).
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() { // the files below it, by slash-separated path
			for name, data := range snapshot(t, filepath.Join(dir, e.Name())) {
				out[e.Name()+"/"+name] = data
			}
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = string(data)
	}
	return out
}

func sameFiles(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func TestUsage(t *testing.T) {
	isolate(t)
	code, out, errOut := cli(t)
	if code != exitUsage || out != "" || !strings.Contains(errOut, "Usage:\n  mcpgen <command>") {
		t.Errorf("no args: %d %q %q", code, out, errOut)
	}
	code, out, errOut = cli(t, "frobnicate")
	if code != exitUsage || out != "" || !strings.Contains(errOut, `unknown command "frobnicate"`) || !strings.Contains(errOut, "Commands:") {
		t.Errorf("unknown command: %d %q %q", code, out, errOut)
	}
	for _, args := range [][]string{{"help"}, {"--help"}, {"-h"}} {
		code, out, errOut = cli(t, args...)
		if code != exitOK || errOut != "" {
			t.Errorf("%v: %d %q", args, code, errOut)
		}
		for _, c := range commands() {
			if !strings.Contains(out, "  "+c.name) || !strings.Contains(out, c.summary) {
				t.Errorf("%v: command %s missing from\n%s", args, c.name, out)
			}
		}
	}
	code, _, errOut = cli(t, "help", "nope")
	if code != exitUsage || !strings.Contains(errOut, `unknown command "nope"`) {
		t.Errorf("help nope: %d %q", code, errOut)
	}
}

// TestCommandHelp checks that every command (and schema subcommand) has
// help with a usage line and examples, both as `<cmd> --help` and as
// `help <cmd>`.
func TestCommandHelp(t *testing.T) {
	isolate(t)
	names := [][]string{}
	for _, c := range commands() {
		names = append(names, []string{c.name})
	}
	for _, c := range schemaCommands() {
		names = append(names, strings.Fields(c.name))
	}
	for _, name := range names {
		for _, args := range [][]string{append(slices.Clone(name), "--help"), append([]string{"help"}, name...)} {
			code, out, errOut := cli(t, args...)
			if code != exitOK || errOut != "" {
				t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
			}
			if !strings.Contains(out, "Usage:\n  mcpgen "+strings.Join(name, " ")) || !strings.Contains(out, "Example") {
				t.Errorf("%v: help lacks usage or examples:\n%s", args, out)
			}
		}
	}
	_, out, _ := cli(t, "generate", "--help")
	for _, flag := range []string{"--schema", "--out", "--package", "--check", "-v"} {
		if !strings.Contains(out, "\n  "+flag+" ") {
			t.Errorf("generate --help does not list %s:\n%s", flag, out)
		}
	}
}

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}} {
		code, out, errOut := cli(t, args...)
		if code != exitOK || out != "mcpgen "+version.Version+"\n" || errOut != "" {
			t.Errorf("%v: %d %q %q", args, code, out, errOut)
		}
	}
	if code, _, _ := cli(t, "version", "extra"); code != exitUsage {
		t.Errorf("version extra: exit %d", code)
	}
}

func TestGenerateUsageErrors(t *testing.T) {
	spec, _ := isolate(t)
	path := writeSchema(t, filepath.Join(spec, "schema"), "2030-01-01", tinySchema)
	out := filepath.Join(t.TempDir(), "out")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"generate", "--out", out}, "--schema is required"},
		{[]string{"generate", "--schema", path}, "--out is required"},
		{[]string{"generate", "--schema", path, "--out", out, "--package", "my-pkg"}, `--package "my-pkg" is not a Go identifier`},
		{[]string{"generate", "--schema", path, "--out", out, "extra"}, `unexpected argument "extra"`},
		{[]string{"generate", "--schema", path, "--out", out, "--bogus"}, "flag provided but not defined"},
		{[]string{"generate", "--schema", "2031-01-01", "--out", out}, "mcpgen schema fetch 2031-01-01"},
		{[]string{"generate", "--schema", "latest", "--out", out}, "neither a schema file nor a version name"},
		{[]string{"generate", "--schema", filepath.Join(spec, "missing.json"), "--out", out}, "schema not found"},
	} {
		code, stdout, stderr := cli(t, tc.args...)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, stdout, stderr, tc.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%v created %s", tc.args, out)
		}
	}
}

func TestGenerateWritesAndChecks(t *testing.T) {
	spec, _ := isolate(t)
	writeSchema(t, filepath.Join(spec, "schema"), "2030-01-01", tinySchema)
	out := filepath.Join(t.TempDir(), "pingproto")

	// A version name resolves through MCPGEN_SPEC_DIR; flags in any form.
	code, stdout, stderr := cli(t, "generate", "--out="+out, "-schema", "2030-01-01")
	if code != exitOK || stderr != "" {
		t.Fatalf("generate: exit %d, stderr %q", code, stderr)
	}
	if !strings.HasPrefix(stdout, "mcpgen: wrote 14 files to "+out+" (2030-01-01, ") || strings.Count(stdout, "\n") != 1 {
		t.Errorf("summary = %q", stdout)
	}
	files := snapshot(t, out)
	if len(files) != 14 || !strings.Contains(files["types.go"], "\npackage pingproto\n") {
		t.Fatalf("output: %d files, types.go:\n%.300s", len(files), files["types.go"])
	}

	// Again: nothing to write.
	code, stdout, _ = cli(t, "generate", "--schema", "2030-01-01", "--out", out)
	if code != exitOK || stdout != "mcpgen: "+out+" is up to date, 14 files unchanged (2030-01-01, 6 types)\n" {
		t.Errorf("second run: %d %q", code, stdout)
	}

	// Up to date: --check succeeds and writes nothing.
	code, stdout, stderr = cli(t, "generate", "--schema", "2030-01-01", "--out", out, "--check")
	if code != exitOK || !strings.Contains(stdout, "is up to date") || stderr != "" {
		t.Errorf("check fresh: %d %q %q", code, stdout, stderr)
	}

	// Make it stale: edit one generated file, drop another, add a generated
	// file no longer produced and a hand-written one.
	os.WriteFile(filepath.Join(out, "types.go"), []byte(files["types.go"]+"\n// edited\n"), 0o644)
	os.Remove(filepath.Join(out, "client.go"))
	os.WriteFile(filepath.Join(out, "old.go"), []byte("// Code generated by mcpgen. DO NOT EDIT.\n\npackage pingproto\n"), 0o644)
	os.WriteFile(filepath.Join(out, "mine_test.go"), []byte("package pingproto\n"), 0o644)
	before := snapshot(t, out)
	code, stdout, stderr = cli(t, "generate", "--schema", "2030-01-01", "--out", out, "--check")
	if code != exitFail || stdout != "" {
		t.Errorf("check stale: exit %d, stdout %q", code, stdout)
	}
	var listed []string
	for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
		if !strings.HasPrefix(line, "mcpgen:") {
			listed = append(listed, line)
		}
	}
	want := []string{filepath.Join(out, "client.go"), filepath.Join(out, "old.go"), filepath.Join(out, "types.go")}
	if !slices.Equal(listed, want) {
		t.Errorf("stale files listed = %q, want %q (stderr %q)", listed, want, stderr)
	}
	if !strings.Contains(stderr, "regenerate with: mcpgen generate --schema 2030-01-01 --out "+out) {
		t.Errorf("check does not say how to regenerate: %q", stderr)
	}
	if !sameFiles(snapshot(t, out), before) {
		t.Error("--check changed the output folder")
	}

	// Regenerate with -v: fixes the two files, removes old.go, keeps mine_test.go.
	code, stdout, stderr = cli(t, "generate", "--schema", "2030-01-01", "--out", out, "-v")
	if code != exitOK {
		t.Fatalf("regenerate: exit %d, %q", code, stderr)
	}
	if !strings.Contains(stdout, "wrote 2 files to "+out+", 12 unchanged, removed 1 no longer generated") {
		t.Errorf("summary = %q", stdout)
	}
	for _, want := range []string{"loaded 2030-01-01", "generated package pingproto", "wrote " + filepath.Join(out, "types.go"), "removed " + filepath.Join(out, "old.go"), "total"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("-v output lacks %q:\n%s", want, stderr)
		}
	}
	after := snapshot(t, out)
	if _, ok := after["old.go"]; ok {
		t.Error("old.go not removed")
	}
	if after["mine_test.go"] != "package pingproto\n" {
		t.Error("hand-written file touched")
	}
	delete(after, "mine_test.go")
	if !sameFiles(after, files) {
		t.Error("regenerated output differs from the first run")
	}
}

func TestGenerateBadSchemaWritesNothing(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	out := filepath.Join(t.TempDir(), "out")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	old := "// Code generated by mcpgen. DO NOT EDIT.\n\npackage out\n"
	os.WriteFile(filepath.Join(out, "types.go"), []byte(old), 0o644)

	for _, tc := range []struct {
		name, content string
		want          []string
	}{
		{"invalid-json", "{\n  \"$defs\": {\n    \"A\": {\"type\": \"string\",}\n  }\n}\n", []string{"schema.json:3:28: invalid JSON"}},
		{"dangling-ref", `{"$defs": {"A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/Missing"}}}}}`,
			[]string{`schema.json: #/$defs/A/properties/b/$ref: dangling $ref "#/$defs/Missing"`}},
		{"two-errors", `{"$defs": {"A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/Missing"}, "c": {"type": "string", "pattern": "x"}}}}}`,
			[]string{"#/$defs/A/properties/b/$ref: dangling", `#/$defs/A/properties/c: unsupported JSON Schema keyword "pattern"`, "2 schema errors; nothing written"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeSchema(t, filepath.Join(dir, tc.name), "2030-01-01", tc.content)
			// Flags after the command name in another order still parse.
			code, stdout, stderr := cli(t, "generate", "--out", out, "--schema", path)
			if code != exitUsage || stdout != "" {
				t.Errorf("exit %d, stdout %q; want 2 and nothing", code, stdout)
			}
			for _, want := range tc.want {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, stderr)
				}
			}
			if !strings.Contains(stderr, path) {
				t.Errorf("stderr does not name the file %s:\n%s", path, stderr)
			}
			if got := snapshot(t, out); len(got) != 1 || got["types.go"] != old {
				t.Errorf("output folder changed: %v", got)
			}
		})
	}
	// Into a folder that does not exist: it is not created.
	bad := writeSchema(t, filepath.Join(dir, "bad"), "2030-01-01", "{")
	fresh := filepath.Join(t.TempDir(), "fresh")
	if code, _, _ := cli(t, "generate", "--schema", bad, "--out", fresh); code != exitUsage {
		t.Errorf("exit %d", code)
	}
	if _, err := os.Stat(fresh); err == nil {
		t.Error("output folder created for a bad schema")
	}
}

// TestGenerateRefusesHandWrittenFile checks that a file of the user's with
// a generated name is not overwritten, and nothing else is written.
func TestGenerateRefusesHandWrittenFile(t *testing.T) {
	spec, _ := isolate(t)
	writeSchema(t, filepath.Join(spec, "schema"), "2030-01-01", tinySchema)
	out := t.TempDir()
	// Of the generated package (mcp: the folder's name is no identifier),
	// else the folder is refused for holding another package.
	os.WriteFile(filepath.Join(out, "types.go"), []byte("package mcp\n"), 0o644)
	code, _, stderr := cli(t, "generate", "--schema", "2030-01-01", "--out", out)
	if code != exitFail || !strings.Contains(stderr, "was not generated") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if got := snapshot(t, out); len(got) != 1 {
		t.Errorf("files written beside the user's: %v", len(got))
	}
}

func TestSchemaListAndDiff(t *testing.T) {
	spec, cache := isolate(t)
	writeSchema(t, filepath.Join(spec, "schema"), "2030-01-01", tinySchema)
	changed := strings.Replace(tinySchema, `"method": {"const": "ping", "type": "string"}`, `"method": {"const": "ping2", "type": "string"}`, 1)
	writeSchema(t, filepath.Join(cache, "mcpgen", "spec"), "2030-02-02", changed)

	code, stdout, stderr := cli(t, "schema", "list")
	if code != exitOK || stderr != "" {
		t.Fatalf("list: %d %q", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "VERSION") ||
		!strings.HasPrefix(lines[1], "2030-01-01  spec dir") || !strings.HasPrefix(lines[2], "2030-02-02  cache") {
		t.Errorf("list output:\n%s", stdout)
	}

	// Flags after the positional arguments; one argument a file, one a version.
	file := filepath.Join(spec, "schema", "2030-01-01", "schema.json")
	code, stdout, stderr = cli(t, "schema", "diff", file, "2030-02-02", "--json")
	if code != exitOK || stderr != "" {
		t.Fatalf("diff --json: %d %q", code, stderr)
	}
	var report struct {
		Old, New string
		Changes  []struct{ Section, Op, Subject, Detail string }
	}
	if err := json.Unmarshal([]byte(stdout), &report); err != nil {
		t.Fatalf("diff --json output is not JSON: %v\n%s", err, stdout)
	}
	var got []string
	for _, c := range report.Changes {
		got = append(got, c.Op+" "+c.Subject)
	}
	if report.Old != "2030-01-01" || report.New != "2030-02-02" || !slices.Contains(got, "removed ping") || !slices.Contains(got, "added ping2") {
		t.Errorf("report = %+v", report)
	}

	code, stdout, _ = cli(t, "schema", "diff", "2030-01-01", "2030-02-02")
	if code != exitOK || !strings.Contains(stdout, "\n  - ping (") || !strings.Contains(stdout, "\n  + ping2 (") {
		t.Errorf("diff text: %d\n%s", code, stdout)
	}

	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"schema"}, exitUsage, "missing subcommand"},
		{[]string{"schema", "nope"}, exitUsage, `unknown subcommand "nope"`},
		{[]string{"schema", "diff", "2030-01-01"}, exitUsage, "want two revisions"},
		{[]string{"schema", "diff", "2030-01-01", "2031-01-01"}, exitUsage, "mcpgen schema fetch 2031-01-01"},
		{[]string{"schema", "list", "x"}, exitUsage, "unexpected argument"},
		{[]string{"schema", "fetch"}, exitUsage, "want one version"},
		{[]string{"schema", "fetch", "newest"}, exitUsage, "not a version name"},
	} {
		code, _, stderr := cli(t, tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, stderr, tc.code, tc.want)
		}
	}
}

func TestSchemaListEmpty(t *testing.T) {
	isolate(t)
	code, stdout, stderr := cli(t, "schema", "list")
	if code != exitOK || stdout != "" || !strings.Contains(stderr, "no schema revisions found") {
		t.Errorf("%d %q %q", code, stdout, stderr)
	}
}

// TestHeaderAgrees checks that writeout recognises what the generator writes.
func TestHeaderAgrees(t *testing.T) {
	if writeout.DefaultHeader != "// "+generator.Header {
		t.Errorf("writeout.DefaultHeader %q does not match generator.Header %q", writeout.DefaultHeader, generator.Header)
	}
}

// TestSchemaDiffRefusesSchemaTSPipe: Load reads the schema.ts beside a
// schema.json on its own, so only a regular file, and at most
// MaxSchemaBytes of it ("a schema within the bound loads in bounded time
// and memory"); a schema.ts that is a named pipe once hung `schema diff`
// (and `generate`) forever.
func TestSchemaDiffRefusesSchemaTSPipe(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	path := writeSchema(t, dir, "2030-01-01", tinySchema)
	fifo := filepath.Join(dir, "2030-01-01", "schema.ts")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	type result struct {
		code           int
		stdout, stderr string
	}
	done := make(chan result, 1)
	go func() {
		code, stdout, stderr := cli(t, "schema", "diff", path, path)
		done <- result{code, stdout, stderr}
	}()
	select {
	case r := <-done:
		if r.code == exitOK || !strings.Contains(r.stderr, "not a regular file") {
			t.Errorf("schema diff with a schema.ts pipe: exit %d, stderr %q; want a failure naming the pipe", r.code, r.stderr)
		}
	case <-time.After(5 * time.Second):
		// Unblock the reader (a writer opens and closes the pipe) so that
		// nothing is left running, then report.
		// The command reads the pipe once per schema argument.
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
			if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				w.Close()
			}
			select {
			case <-done:
				deadline = time.Time{}
			case <-time.After(10 * time.Millisecond):
			}
		}
		t.Fatal("mcpgen schema diff did not return within 5s: it blocks reading the schema.ts beside the schema (a FIFO) with no bound")
	}
}
