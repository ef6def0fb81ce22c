package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"

	"github.com/mcpgen/mcpgen/templates"
)

// scaffoldFiles are the files init writes from the templates.
var scaffoldFiles = []string{".gitignore", "README.md", "bindings_test.go", "go.mod", "main.go", "main_test.go", "skills.go", "skills/greet-people/SKILL.md", "tools.go"}

// repoRoot is the root of this module: the mcpgen checkout a scaffold's
// replace directive points at in tests.
func repoRoot(t testing.TB) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil || modfile.ModulePath(data) != templates.ModulePath {
		t.Fatalf("%s is not the mcpgen module root (%v)", root, err)
	}
	return root
}

func readGoMod(t *testing.T, dir string) *modfile.File {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	mf, err := modfile.Parse("go.mod", data, nil)
	if err != nil {
		t.Fatal(err)
	}
	return mf
}

func TestInitUsageErrors(t *testing.T) {
	tmp := t.TempDir()
	notMCPGen := filepath.Join(tmp, "other")
	mustWrite(t, filepath.Join(tmp, "afile"), "x")
	if err := os.MkdirAll(notMCPGen, 0o755); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(notMCPGen, "go.mod"), "module example.com/other\n")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"init"}, exitUsage, "missing the project folder"},
		{[]string{"init", "a", "b"}, exitUsage, "want one project folder, got 2"},
		{[]string{"init", filepath.Join(tmp, "x"), "--bogus"}, exitUsage, "flag provided but not defined: -bogus"},
		{[]string{"init", filepath.Join(tmp, "x"), "--module", "bad path!"}, exitUsage, `--module "bad path!"`},
		{[]string{"init", filepath.Join(tmp, "my server")}, exitUsage, "pass --module"},
		{[]string{"init", filepath.Join(tmp, "x"), "--name", "a\tb"}, exitUsage, "--name"},
		{[]string{"init", filepath.Join(tmp, "x"), "--replace", notMCPGen}, exitUsage, `is module "example.com/other"`},
		{[]string{"init", filepath.Join(tmp, "x"), "--replace", filepath.Join(tmp, "nope")}, exitUsage, "is not an mcpgen checkout"},
		{[]string{"init", filepath.Join(tmp, "afile"), "--files-only"}, exitFail, "is not a folder"},
	} {
		code, stdout, stderr := cli(t, tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.want) || stdout != "" {
			t.Errorf("mcpgen %q: exit %d, stderr %q, stdout %q; want exit %d and %q", tc.args, code, stderr, stdout, tc.code, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(tmp, "x")); err == nil {
		t.Error("a failed init created its folder")
	}
}

func TestInitHelp(t *testing.T) {
	code, stdout, _ := cli(t, "init", "--help")
	for _, want := range []string{"mcpgen init <dir>", "--module", "--replace", "--force", "Examples:"} {
		if code != exitOK || !strings.Contains(stdout, want) {
			t.Errorf("init --help (exit %d) lacks %q:\n%s", code, want, stdout)
		}
	}
}

func TestInitRefusesNonEmptyFolder(t *testing.T) {
	dir := t.TempDir()
	mustWrite(t, filepath.Join(dir, "notes.txt"), "mine")
	before := snapshot(t, dir)
	code, stdout, stderr := cli(t, "init", dir, "--files-only")
	if code != exitFail || !strings.Contains(stderr, "is not empty (1 entry); use --force") || stdout != "" {
		t.Errorf("exit %d, stderr %q, stdout %q", code, stderr, stdout)
	}
	if !sameFiles(before, snapshot(t, dir)) {
		t.Error("init changed a folder it refused")
	}
}

func TestInitForceKeepsUserFiles(t *testing.T) {
	dir := t.TempDir()
	mustWrite(t, filepath.Join(dir, "README.md"), "my readme\n")
	mustWrite(t, filepath.Join(dir, "main.go"), "package main\n\nfunc main() {}\n")
	code, stdout, stderr := cli(t, "init", dir, "--force", "--files-only", "--replace", repoRoot(t))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got := snapshot(t, dir)
	if got["README.md"] != "my readme\n" || got["main.go"] != "package main\n\nfunc main() {}\n" {
		t.Errorf("user files changed: README.md %q, main.go %q", got["README.md"], got["main.go"])
	}
	for _, name := range []string{"README.md", "main.go"} {
		if !strings.Contains(stdout, "skipped   "+name+" (exists; not overwritten)") {
			t.Errorf("summary does not name skipped %s:\n%s", name, stdout)
		}
	}
	for _, name := range []string{".gitignore", "go.mod", "go.sum", "tools.go", "main_test.go"} {
		if _, ok := got[name]; !ok || !strings.Contains(stdout, "wrote     "+name+"\n") {
			t.Errorf("%s not written or not reported:\n%s", name, stdout)
		}
	}

	// A second --force run writes nothing and overwrites nothing.
	before := snapshot(t, dir)
	code, stdout, _ = cli(t, "init", dir, "--force", "--files-only", "--replace", repoRoot(t))
	if code != exitOK || strings.Contains(stdout, "wrote ") || !sameFiles(before, snapshot(t, dir)) {
		t.Errorf("second --force run: exit %d, files changed %v:\n%s", code, !sameFiles(before, snapshot(t, dir)), stdout)
	}
}

func TestInitFlagsAfterDirAndSummary(t *testing.T) {
	root := repoRoot(t)
	t.Chdir(t.TempDir())
	code, stdout, stderr := cli(t, "init", "./srv", "--module", "example.com/tools/srv", "--name", "My Server", "--files-only", "--replace", root)
	if code != exitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	mf := readGoMod(t, "srv")
	if mf.Module.Mod.Path != "example.com/tools/srv" || len(mf.Replace) != 1 || mf.Replace[0].New.Path != root {
		t.Errorf("go.mod: module %q, replace %+v", mf.Module.Mod.Path, mf.Replace)
	}
	main, _ := os.ReadFile(filepath.Join("srv", "main.go"))
	if !strings.Contains(string(main), `serverName    = "My Server"`) {
		t.Errorf("main.go does not carry the server name:\n%s", main)
	}
	var want strings.Builder
	want.WriteString("mcpgen init: MCP server \"My Server\", module example.com/tools/srv, in ./srv\n")
	names := append(slices.Clone(scaffoldFiles), "go.sum")
	slices.Sort(names)
	for _, name := range names {
		want.WriteString("  wrote     " + name + "\n")
	}
	want.WriteString("\nNext:\n  cd ./srv\n  go generate ./... && go test ./...\n" +
		"  go build && ./srv    # stdio; --http 127.0.0.1:8080 serves Streamable HTTP at /mcp\n" +
		"Then add tools to tools.go; README.md shows how, and the config a desktop MCP host needs.\n")
	if stdout != want.String() {
		t.Errorf("summary:\n%s\nwant:\n%s", stdout, want.String())
	}

	// Output and files are deterministic: a second project the same way.
	first := snapshot(t, "srv")
	t.Chdir(t.TempDir())
	_, stdout2, _ := cli(t, "init", "--files-only", "--name", "My Server", "./srv", "--replace", root, "--module", "example.com/tools/srv")
	if stdout2 != stdout || !sameFiles(first, snapshot(t, "srv")) {
		t.Errorf("a second identical init differs:\n%s", stdout2)
	}
}

func TestInitUnpublishedWarns(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "srv")
	code, stdout, stderr := cli(t, "init", dir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "warning:") || !strings.Contains(stderr, "--replace") {
		t.Errorf("no warning about --replace: %q", stderr)
	}
	if !strings.Contains(stdout, "skipped   resolving dependencies") {
		t.Errorf("summary does not say the dependencies were not resolved:\n%s", stdout)
	}
	mf := readGoMod(t, dir)
	if len(mf.Replace) != 0 || mf.Require[0].Mod.Version != templates.UnpublishedVersion {
		t.Errorf("go.mod: replace %+v, require %+v", mf.Replace, mf.Require[0].Mod)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.sum")); err == nil {
		t.Error("go.sum written without --replace")
	}
}

func TestRealVersion(t *testing.T) {
	for v, want := range map[string]string{
		"":                                   "",
		"(devel)":                            "",
		"v1.2.3":                             "v1.2.3",
		"v0.0.0-20260101000000-abcdefabcdef": "v0.0.0-20260101000000-abcdefabcdef",
		"v1.2.3+dirty":                       "",
		"v0.1.1-0.20260101000000-abcdefabcdef+dirty": "",
		"v2.0.0": "", // needs the /v2 module path
		"1.2.3":  "",
	} {
		if got := realVersion(v); got != want {
			t.Errorf("realVersion(%q) = %q, want %q", v, got, want)
		}
	}
	// Test binaries are development builds.
	if v := builtVersion(); v != "" {
		t.Errorf("builtVersion() = %q in a test binary", v)
	}
}

// TestInitRefusesModuleNamedLikeSource: the executable `go build` writes is
// named after the module path's last element, so example.com/main.go (a
// binary that clashes with main.go) or example.com/x.go (a binary the next
// build reads as source) would break the summary's `go build && ./<binary>`;
// init refuses them with a usage error naming --module, and writes nothing.
func TestInitRefusesModuleNamedLikeSource(t *testing.T) {
	for _, mod := range []string{"example.com/main.go", "example.com/x.go", "example.com/asm.s", "example.com/README.md"} {
		dir := filepath.Join(t.TempDir(), "srv")
		code, stdout, stderr := cli(t, "init", dir, "--module", mod, "--files-only", "--replace", repoRoot(t))
		if code != exitUsage || !strings.Contains(stderr, "--module") {
			t.Errorf("init --module %s: exit %d, want %d and a message naming --module\n%s%s", mod, code, exitUsage, stdout, stderr)
		}
		if _, err := os.Stat(dir); err == nil {
			t.Errorf("init --module %s wrote %s", mod, dir)
		}
	}
}

// TestInitForceDoesNotWriteThroughLinks: with --force, a symbolic link in
// the folder where the scaffold has a folder (skills) is refused, so no
// file lands outside the project folder.
func TestInitForceDoesNotWriteThroughLinks(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, "skills")); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := cli(t, "init", dir, "--force", "--files-only", "--replace", repoRoot(t))
	if code != exitFail || !strings.Contains(stderr, "symbolic link") {
		t.Errorf("init: exit %d, want %d and a message about the link\n%s%s", code, exitFail, stdout, stderr)
	}
	if got := snapshot(t, outside); len(got) > 0 {
		var names []string
		for name := range got {
			names = append(names, name)
		}
		t.Errorf("init --force wrote outside %s, into the symlink's target: %v", dir, names)
	}
}

// TestInitDockerStepUsesImageReference: with --http the summary's docker
// step names the image the README and Dockerfile use, a valid (lower
// case) reference, not the binary name (example.com/WeatherServer).
func TestInitDockerStepUsesImageReference(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "srv")
	code, stdout, stderr := cli(t, "init", dir, "--module", "example.com/WeatherServer", "--http", "--files-only", "--replace", repoRoot(t))
	if code != exitOK {
		t.Fatalf("init: exit %d\n%s%s", code, stdout, stderr)
	}
	m := regexp.MustCompile(`docker build -t (\S+) `).FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("no docker build step in the summary:\n%s", stdout)
	}
	component := `[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*`
	ref := regexp.MustCompile(`^(?:[a-zA-Z0-9.-]+(?::[0-9]+)?/)?` + component + `(?:/` + component + `)*(?::[\w][\w.-]{0,127})?$`)
	if !ref.MatchString(m[1]) {
		t.Errorf("summary says `docker build -t %s`: not a valid image reference\n%s", m[1], stdout)
	}
	for _, name := range []string{"README.md", "Dockerfile", "main.go"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), m[1]) {
			t.Errorf("%s does not use the image %s of the summary", name, m[1])
		}
	}
}

// TestInitRefusesGoSumLink: init's help promises it "writes only inside
// dir, never through a symbolic link". A go.sum in dir that links to a file
// elsewhere would be skipped as existing by --force, and the dependency
// step (go list -mod=mod) would then write the checksums through the link
// into the file outside the project; init refuses the link before writing
// anything. (GOSUMDB=off lets the offline go command record the sums, as it
// does online with the checksum database.)
func TestInitRefusesGoSumLink(t *testing.T) {
	t.Setenv("GOSUMDB", "off")
	t.Setenv("GOFLAGS", "-modcacherw")
	tmp := t.TempDir()
	dir, outside := filepath.Join(tmp, "proj"), filepath.Join(tmp, "outside")
	for _, d := range []string{dir, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	target := filepath.Join(outside, "go.sum")
	mustWrite(t, target, "")
	if err := os.Symlink(target, filepath.Join(dir, "go.sum")); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := cli(t, "init", dir, "--module", "example.com/proj", "--force", "--replace", repoRoot(t))
	data, err := os.ReadFile(target)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) != 0 {
		t.Errorf("init (exit %d, stderr %q) wrote %d bytes into %s, outside the project folder, through the link %s",
			code, stderr, len(data), target, filepath.Join(dir, "go.sum"))
	}
	if code != exitFail || !strings.Contains(stderr, "symbolic link") {
		t.Errorf("init: exit %d, stderr %q; want %d and a message about the link", code, stderr, exitFail)
	}
	if got := snapshot(t, dir); len(got) > 1 {
		t.Errorf("init wrote files before refusing the link: %d entries in %s", len(got), dir)
	}
}

// TestInitEmptyFolderIsUsageError: an empty project folder argument ("") is
// a missing project folder, a usage error (exit 2) like `mcpgen init` with
// no folder, not a scaffold of the current folder's name that fails with
// "mkdir : no such file or directory".
func TestInitEmptyFolderIsUsageError(t *testing.T) {
	t.Chdir(t.TempDir())
	code, stdout, stderr := cli(t, "init", "", "--files-only")
	if code != exitUsage || strings.Contains(stderr, "mkdir") || !strings.Contains(stderr, "empty") || stdout != "" {
		t.Errorf(`init "": exit %d, stdout %q, stderr %q; want exit %d and a usage error naming the empty folder argument`, code, stdout, stderr, exitUsage)
	}
}

// TestInitRefusesModuleNamedLikeGoFile: the executable `go build` writes is
// named after the module path's last element, and init itself writes go.sum
// (from --replace's checkout, or while resolving the dependencies), so
// example.com/go.sum would make `go build` fail ("build output "go.sum"
// already exists and is not an object file") or overwrite go.sum with the
// binary; a binary named go.work or vendor would be read by the go command.
// init refuses them with a usage error naming --module, and writes nothing.
func TestInitRefusesModuleNamedLikeGoFile(t *testing.T) {
	for _, mod := range []string{"example.com/go.sum", "example.com/go.mod", "example.com/go.work", "example.com/vendor"} {
		dir := filepath.Join(t.TempDir(), "proj")
		code, _, stderr := cli(t, "init", dir, "--module", mod, "--files-only", "--replace", repoRoot(t))
		if code != exitUsage || !strings.Contains(stderr, "--module") {
			t.Errorf("init --module %s: exit %d (stderr %q); want %d and a message naming --module", mod, code, stderr, exitUsage)
		}
		if _, err := os.Stat(dir); err == nil {
			t.Errorf("init --module %s wrote %s", mod, dir)
		}
	}
}

// TestInitRefusesStandardLibraryModulePath: `mcpgen init time` ("time" is
// the name of a well-known MCP server) would take the folder name, a path
// of the standard library, as the module path; the go command then finds
// the package time twice ("ambiguous import") and the scaffold does not
// build. init refuses such a module path up front (exit 2, nothing
// written), as it does other unusable folder names ("pass --module"), and
// the module paths the go command reserves (go, toolchain).
func TestInitRefusesStandardLibraryModulePath(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "time")
	code, _, stderr := cli(t, "init", dir, "--replace", repoRoot(t))
	if code != exitUsage || !strings.Contains(stderr, "standard library") || !strings.Contains(stderr, "--module") {
		t.Errorf("init %s: exit %d, stderr:\n%s\nwant %d and a usage error naming the module path (it is the standard library's time package)", dir, code, stderr, exitUsage)
	}
	if _, err := os.Stat(dir); err == nil {
		t.Errorf("the refused init left a project in %s", dir)
	}
	for _, mod := range []string{"net/http", "go", "toolchain"} {
		dir := filepath.Join(t.TempDir(), "srv")
		code, _, stderr := cli(t, "init", dir, "--module", mod, "--files-only", "--replace", repoRoot(t))
		if code != exitUsage || !strings.Contains(stderr, "--module") {
			t.Errorf("init --module %s: exit %d, stderr %q; want %d", mod, code, stderr, exitUsage)
		}
		if _, err := os.Stat(dir); err == nil {
			t.Errorf("init --module %s wrote %s", mod, dir)
		}
	}
	// A first element with a dot is never looked up in the standard library.
	dir = filepath.Join(t.TempDir(), "srv")
	if code, stdout, stderr := cli(t, "init", dir, "--module", "example.com/time", "--files-only", "--replace", repoRoot(t)); code != exitOK {
		t.Errorf("init --module example.com/time: exit %d\n%s%s", code, stdout, stderr)
	}
}

// TestInitNotEmptyMessageSaysEntries: `mcpgen init DIR` on a folder holding
// two files says "DIR is not empty (2 entries)", not "(2 entrys)": the
// first message a new user meets when the folder is not fresh.
func TestInitNotEmptyMessageSaysEntries(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.txt", "b.txt"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, _, stderr := cli(t, "init", dir, "--module", "example.com/x")
	if code == exitOK {
		t.Fatalf("init into a non-empty folder without --force: exit 0")
	}
	if !strings.Contains(stderr, "(2 entries)") {
		t.Errorf("want \"(2 entries)\": %s", stderr)
	}
	for _, c := range []struct {
		n          int
		noun, want string
	}{{1, "entry", "1 entry"}, {2, "entry", "2 entries"}, {2, "key", "2 keys"}, {0, "error", "0 errors"}, {3, "file", "3 files"}} {
		if got := plural(c.n, c.noun); got != c.want {
			t.Errorf("plural(%d, %q) = %q, want %q", c.n, c.noun, got, c.want)
		}
	}
}
