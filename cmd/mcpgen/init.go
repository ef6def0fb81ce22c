package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/templates"
)

func initCommand() *command {
	return &command{
		name:    "init",
		summary: "create a new MCP server project (go.mod, main.go, a sample tool, tests, README)",
		usage: `
Usage:
  mcpgen init <dir> [--module path] [--name server-name] [--http] [--auth] [--cluster] [--replace path] [--force] [--files-only] [-v]

Init writes a new MCP server project into dir (created if needed):

  go.mod           requires ` + templates.ModulePath + ` (and lists mcpgen as a tool)
  main.go          the server: stdio by default, --http addr for Streamable HTTP at /mcp
  tools.go         one sample tool (//mcp:tool greet) and the //go:generate line
  main_test.go     calls the tool through the in-memory client
  bindings_test.go fails when mcp_gen.go is stale (mcpgen tools --check)
  README.md        how to run it, connect a desktop host, add a tool, regenerate
  .gitignore

With --http the project is ready to deploy as a Streamable HTTP server:
a Dockerfile (multi-stage, a static binary on distroless, non-root, a
HEALTHCHECK on /healthz through the binary's own --probe), .dockerignore,
server.json for the MCP registry (name, OCI package), and health.go with
a test of /healthz and /readyz; the README gains a Deploy section.

With --auth the HTTP server is an OAuth 2.1 resource server (the MCP
authorization spec): auth.go wires the token verifiers of
` + templates.OAuthModulePath + ` from --auth-issuer,
--auth-resource and --auth-scopes (or MCP_AUTH_ISSUER, MCP_AUTH_RESOURCE,
MCP_AUTH_SCOPES), auth_test.go checks the 401 challenge and the metadata,
and the README gains an Authorization section.

With --cluster the server runs as one replica of several behind a load
balancer: cluster.go connects it to the others through NATS
(MCPGEN_NATS_URL, ` + templates.NATSModulePath + `) or Redis
(MCPGEN_REDIS_URL, ` + templates.RedisModulePath + `).

then resolves the dependencies into go.mod and go.sum and writes the bindings
(mcp_gen.go, as 'mcpgen tools' does), so that 'go generate ./... &&
go vet ./... && go test ./... && go build ./...' pass right away.

The module path defaults to the folder name and the server name to the last
element of the module path. That element names the executable 'go build'
writes, so it must not end like a source file (x.go, x.s) or be the name of
a scaffold file (README.md) or of one the go command writes or reads (go.sum,
go.work, vendor). A module path whose first element has no dot must not be
a standard-library package path (time, net/http). The scaffold requires the mcpgen version this
binary was built from. --replace points the requirement at a local mcpgen
checkout with a replace directive; then nothing touches the network (the go
command runs with GOPROXY=off, and go.sum starts from the checkout's go.sum).

Init refuses a folder that is not empty unless --force; even then it never
overwrites a file: existing files are skipped and named, and it writes only
inside dir, never through a symbolic link (a link named skills, go.mod or
go.sum is refused).

Examples:
  mcpgen init ./weather
  mcpgen init ./weather --module example.com/weather --name "Weather"
  mcpgen init ./srv --replace ~/src/mcpgen     # build against a local checkout, offline
  mcpgen init ./srv --http                     # HTTP server with Dockerfile and server.json
  mcpgen init ./srv --auth                     # OAuth-protected HTTP server
  mcpgen init ./srv --cluster                  # replicas sharing NATS or Redis
`,
		run: runInit,
	}
}

// initFlags are the options of one init run.
type initFlags struct {
	dir, module, name, replace string
	force, verbose, filesOnly  bool
	auth, cluster, http        bool
}

func runInit(e *env, c *command, args []string) int {
	fs := newFlags(c)
	var f initFlags
	fs.StringVar(&f.module, "module", "", "module `path` of the new project (default: the folder name)")
	fs.StringVar(&f.name, "name", "", "MCP server `name` (default: the last element of the module path)")
	fs.StringVar(&f.replace, "replace", "", "`path` of a local mcpgen checkout to build against (adds a replace directive; offline)")
	fs.BoolVar(&f.http, "http", false, "add the deployment of an HTTP server: Dockerfile, .dockerignore, server.json (MCP registry), health.go")
	fs.BoolVar(&f.auth, "auth", false, "make the HTTP server an OAuth 2.1 resource server (auth.go; flags --auth-issuer, --auth-resource, --auth-scopes)")
	fs.BoolVar(&f.cluster, "cluster", false, "run as one replica of several: cluster.go connects to NATS (MCPGEN_NATS_URL) or Redis (MCPGEN_REDIS_URL)")
	fs.BoolVar(&f.force, "force", false, "write into a folder that is not empty (existing files are still never overwritten)")
	fs.BoolVar(&f.filesOnly, "files-only", false, "write the files only: do not resolve dependencies or write the bindings")
	fs.BoolVar(&f.verbose, "v", false, "print each step with timings")
	positional, code, done := e.parse(c, fs, args)
	if done {
		return code
	}
	switch len(positional) {
	case 0:
		return e.usageError(c, "missing the project folder")
	case 1:
		if positional[0] == "" {
			return e.usageError(c, "the project folder is an empty string")
		}
		f.dir = positional[0]
	default:
		return e.usageError(c, "want one project folder, got %d arguments", len(positional))
	}
	return e.initProject(c, f)
}

// initProject does the work of init once the flags are parsed.
func (e *env) initProject(c *command, f initFlags) int {
	start := time.Now()
	logf := func(format string, args ...any) {
		if f.verbose {
			e.errorf("init: "+format, args...)
		}
	}
	data, code, ok := e.initData(c, f)
	if !ok {
		return code
	}
	files, err := templates.Scaffold(data)
	if err != nil {
		e.errorf("init: %v", err)
		return exitUsage
	}
	if err := checkTarget(f.dir, f.force); err != nil {
		e.errorf("init: %v", err)
		return exitFail
	}

	var sum summary
	seed, err := goSumSeed(data.Replace, data.Auth, data.Cluster)
	if err != nil {
		e.errorf("init: %v", err)
		return exitFail
	}
	if seed != nil {
		files = append(files, templates.File{Name: "go.sum", Content: seed})
		slices.SortFunc(files, func(a, b templates.File) int { return strings.Compare(a.Name, b.Name) })
	}
	if err := writeFiles(f.dir, files, &sum); err != nil {
		e.errorf("init: %v", err)
		e.printSummary(f, data, &sum)
		return exitFail
	}
	logf("wrote %d files (%s)", len(sum.wrote), since(start))

	status := exitOK
	if !f.filesOnly {
		status = e.initBuildSteps(f, data, &sum, logf)
	}
	if data.Replace == "" && data.Version == templates.UnpublishedVersion {
		fmt.Fprintf(e.stderr, "mcpgen init: warning: this mcpgen is a development build with no published module version;\n"+
			"  the scaffold requires %s %s and needs a replace directive until mcpgen is published:\n"+
			"  rerun with --replace <path to an mcpgen checkout>, or run in %s:\n"+
			"  go mod edit -replace %s=<path to an mcpgen checkout> && go mod tidy\n",
			templates.ModulePath, data.Version, f.dir, templates.ModulePath)
	}
	e.printSummary(f, data, &sum)
	logf("done (%s)", since(start))
	return status
}

// initData works out the template data from the flags.
func (e *env) initData(c *command, f initFlags) (templates.Data, int, bool) {
	abs, err := filepath.Abs(f.dir)
	if err != nil {
		e.errorf("init: %v", err)
		return templates.Data{}, exitFail, false
	}
	d := templates.Data{Module: f.module, Name: f.name, Version: builtVersion(), Auth: f.auth, Cluster: f.cluster, HTTP: f.http}
	if d.Module == "" {
		d.Module = filepath.Base(abs)
		if err := checkInitModule(d.Module); err != nil {
			return d, e.usageError(c, "the module path %q (the folder name): %v; pass --module", d.Module, err), false
		}
	} else if err := checkInitModule(d.Module); err != nil {
		return d, e.usageError(c, "--module %q: %v", d.Module, err), false
	}
	if d.Name == "" {
		d.Name = templates.BinaryName(d.Module)
	} else if err := templates.CheckName(d.Name); err != nil {
		return d, e.usageError(c, "--name: %v", err), false
	}
	if f.replace != "" {
		if d.Replace, err = checkReplace(f.replace); err != nil {
			return d, e.usageError(c, "--replace: %v", err), false
		}
	}
	if d.Version == "" {
		d.Version = templates.UnpublishedVersion
	}
	return d, exitOK, true
}

// checkInitModule reports whether init can scaffold a project of
// modulePath that the go command builds: a valid module path, not one the
// go command reserves or finds in the standard library, whose executable
// has a name free in the project folder.
func checkInitModule(modulePath string) error {
	if err := checkModulePath(modulePath); err != nil {
		return err
	}
	if err := checkNotStandard(modulePath); err != nil {
		return err
	}
	return templates.CheckBinaryName(modulePath)
}

// checkTarget accepts a missing folder (it is created) or an empty one; a
// folder with entries only with force.
func checkTarget(dir string, force bool) error {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		if info, serr := os.Stat(dir); serr == nil && !info.IsDir() {
			return fmt.Errorf("%s is not a folder", dir)
		}
		return err
	case len(entries) > 0 && !force:
		return fmt.Errorf("%s is not empty (%s); use --force to add the scaffold's missing files (existing files are never overwritten)",
			dir, plural(len(entries), "entry"))
	}
	return nil
}

// summary records what init did, for the final report.
type summary struct {
	wrote, skipped []string
	steps          []string // dependencies resolved, bindings generated, …
	next           []string // commands still to run before the usual ones
}

// printSummary prints what was written and the commands to run next.
func (e *env) printSummary(f initFlags, d templates.Data, s *summary) {
	w := e.stdout
	fmt.Fprintf(w, "mcpgen init: MCP server %q, module %s, in %s\n", d.Name, d.Module, f.dir)
	for _, name := range s.wrote {
		fmt.Fprintf(w, "  wrote     %s\n", name)
	}
	for _, name := range s.skipped {
		fmt.Fprintf(w, "  skipped   %s (exists; not overwritten)\n", name)
	}
	for _, step := range s.steps {
		fmt.Fprintf(w, "  %s\n", step)
	}
	fmt.Fprintln(w, "\nNext:")
	if clean := filepath.Clean(f.dir); clean != "." {
		fmt.Fprintf(w, "  cd %s\n", shellQuote(f.dir))
	}
	for _, cmd := range s.next {
		fmt.Fprintf(w, "  %s\n", cmd)
	}
	bin := templates.BinaryName(d.Module)
	fmt.Fprintf(w, "  go generate ./... && go test ./...\n")
	fmt.Fprintf(w, "  go build && ./%s    # stdio; --http 127.0.0.1:8080 serves Streamable HTTP at /mcp\n", bin)
	if d.HTTP {
		image := templates.ImageName(d.Module) + ":0.1.0"
		fmt.Fprintf(w, "  docker build -t %s . && docker run -p 8080:8080 %s    # README.md, Deploy\n", image, image)
	}
	fmt.Fprintf(w, "Then add tools to tools.go; README.md shows how, and the config a desktop MCP host needs.\n")
}

// shellQuote quotes s for a POSIX shell when it needs quoting.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./~+:@,=") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
