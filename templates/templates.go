// Package templates holds the files `mcpgen init` writes for a new MCP server
// project. The files live under scaffold/ as text/template sources embedded
// with go:embed, so the CLI stays a thin layer over [Scaffold].
package templates

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"go/format"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/template"
	"unicode"
	"unicode/utf8"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
)

// ModulePath is the module path of mcpgen, which every scaffold requires.
const ModulePath = "github.com/mcpgen/mcpgen"

// DefaultGoVersion is the go line of a scaffold's go.mod when Data.GoVersion
// is empty.
const DefaultGoVersion = "1.26.0"

// UnpublishedVersion is the placeholder version a scaffold requires when
// mcpgen has no real module version to offer; such a go.mod needs a replace
// directive (Data.Replace) to build.
const UnpublishedVersion = "v0.0.0-00010101000000-000000000000"

//go:embed scaffold/*.tmpl
var scaffoldFS embed.FS

// Data fills in the scaffold.
type Data struct {
	// Module is the module path of the new project, e.g. example.com/weather.
	Module string
	// Name is the MCP server name (serverInfo name, and the key of the
	// host configuration snippet in the README).
	Name string
	// Version is the version of mcpgen to require: a module version such
	// as v1.2.3, or UnpublishedVersion together with Replace.
	Version string
	// Replace, when set, is the absolute path of an mcpgen checkout that a
	// replace directive points the requirement at.
	Replace string
	// GoVersion is the go line of go.mod; DefaultGoVersion if empty.
	GoVersion string
	// Auth scaffolds an OAuth-protected HTTP server (mcpgen init --auth):
	// auth.go wires the oauth module's verifiers from flags and the
	// environment, and go.mod requires OAuthModulePath too.
	Auth bool
	// Cluster scaffolds a server that runs as one replica of several
	// (mcpgen init --cluster): cluster.go connects it to the others through
	// NATS (MCPGEN_NATS_URL) or Redis (MCPGEN_REDIS_URL), and go.mod
	// requires NATSModulePath and RedisModulePath too.
	Cluster bool
	// HTTP scaffolds the deployment of a Streamable HTTP server (mcpgen
	// init --http): a Dockerfile (static binary, non-root, HEALTHCHECK on
	// /healthz through the binary's --probe), a .dockerignore, a server.json
	// for the MCP registry, and health.go with its test.
	HTTP bool
}

// OAuthModulePath is the module of the token verifiers (--auth scaffolds).
const OAuthModulePath = ModulePath + "/oauth"

// NATSModulePath and RedisModulePath are the cluster backends (--cluster
// scaffolds).
const (
	NATSModulePath  = ModulePath + "/cluster/natscluster"
	RedisModulePath = ModulePath + "/cluster/rediscluster"
)

// File is one file of the scaffold: a slash-separated path relative to the
// project folder and its content.
type File struct {
	Name    string
	Content []byte
}

// view is what the templates see: Data plus derived values.
type view struct {
	Data
	// Binary is the name `go build` gives the executable.
	Binary string
	// ModPath, ReplacePath and OAuthReplacePath are Module, Replace and
	// Replace's oauth folder quoted for go.mod when needed.
	ModPath, ReplacePath, OAuthReplacePath string
	// MCPGen is the module path of mcpgen; OAuth that of its verifiers.
	MCPGen, OAuth string
	// NATS and Redis are the cluster backends' module paths; their
	// ReplacePaths the folders in Replace.
	NATS, Redis                       string
	NATSReplacePath, RedisReplacePath string
	// RegistryName is the server's name in the MCP registry (reverse DNS of
	// the module's host, then the binary: io.github.alice/weather), Image
	// its OCI image without the tag, RegistryTitle the Name when the
	// registry accepts it as a title (at most 100 characters), else "".
	RegistryName, Image, RegistryTitle string
	// ServerJSONSchema is the server.json schema URL (RegistrySchemaURL).
	ServerJSONSchema string
	// GoImage is the tag of the golang build image: GoVersion's major and
	// minor (1.26).
	GoImage string
}

// Scaffold renders every file of a new server project, sorted by name. Go
// files come out gofmt-formatted. Invalid Data is an error naming the field.
func Scaffold(d Data) ([]File, error) {
	if d.GoVersion == "" {
		d.GoVersion = DefaultGoVersion
	}
	if err := d.validate(); err != nil {
		return nil, err
	}
	v := view{
		Data:             d,
		Binary:           BinaryName(d.Module),
		ModPath:          modfile.AutoQuote(d.Module),
		ReplacePath:      modfile.AutoQuote(d.Replace),
		OAuthReplacePath: modfile.AutoQuote(filepath.Join(d.Replace, "oauth")),
		MCPGen:           ModulePath,
		OAuth:            OAuthModulePath,
		NATS:             NATSModulePath,
		Redis:            RedisModulePath,
		NATSReplacePath:  modfile.AutoQuote(filepath.Join(d.Replace, "cluster", "natscluster")),
		RedisReplacePath: modfile.AutoQuote(filepath.Join(d.Replace, "cluster", "rediscluster")),
		RegistryName:     RegistryName(d.Module),
		Image:            ImageName(d.Module),
		ServerJSONSchema: RegistrySchemaURL,
		GoImage:          goMinor(d.GoVersion),
	}
	if utf8.RuneCountInString(d.Name) <= 100 {
		v.RegistryTitle = d.Name
	}
	names, err := fs.Glob(scaffoldFS, "scaffold/*.tmpl")
	if err != nil {
		return nil, err
	}
	var files []File
	for _, src := range names {
		name := outputName(src)
		content, err := render(src, v)
		if err != nil {
			return nil, fmt.Errorf("templates: %s: %w", name, err)
		}
		if len(bytes.TrimSpace(content)) == 0 {
			continue // a file only some scaffolds have (auth.go without --auth)
		}
		if strings.HasSuffix(name, ".go") {
			if content, err = format.Source(content); err != nil {
				return nil, fmt.Errorf("templates: %s is not valid Go: %w", name, err)
			}
		}
		files = append(files, File{Name: name, Content: content})
	}
	slices.SortFunc(files, func(a, b File) int { return strings.Compare(a.Name, b.Name) })
	return files, nil
}

// outputName maps scaffold/x.tmpl to x; dot files are stored without their
// dot (go:embed skips dot files), so scaffold/gitignore.tmpl is .gitignore,
// and "__" stands for a directory separator, so
// scaffold/skills__greet-people__SKILL.md.tmpl is skills/greet-people/SKILL.md
// (and scaffold/dockerignore.tmpl is .dockerignore).
func outputName(src string) string {
	name := strings.TrimSuffix(path.Base(src), ".tmpl")
	switch name {
	case "gitignore", "dockerignore":
		return "." + name
	}
	return strings.ReplaceAll(name, "__", "/")
}

var funcs = template.FuncMap{
	// goString quotes s as a Go string literal.
	"goString": strconv.Quote,
	// json encodes s as a JSON string.
	"json": func(s string) (string, error) {
		b, err := json.Marshal(s)
		return string(b), err
	},
}

func render(src string, v view) ([]byte, error) {
	text, err := scaffoldFS.ReadFile(src)
	if err != nil {
		return nil, err
	}
	t, err := template.New(path.Base(src)).Funcs(funcs).Option("missingkey=error").Parse(string(text))
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func (d Data) validate() error {
	var errs []error
	if d.Module == "" {
		errs = append(errs, errors.New("templates: the module path is empty"))
	} else if err := module.CheckImportPath(d.Module); err != nil {
		errs = append(errs, fmt.Errorf("templates: invalid module path: %w", err))
	} else if err := CheckBinaryName(d.Module); err != nil {
		errs = append(errs, fmt.Errorf("templates: module path %q: %w", d.Module, err))
	}
	if err := CheckName(d.Name); err != nil {
		errs = append(errs, fmt.Errorf("templates: %w", err))
	}
	switch {
	case d.Version == "":
		errs = append(errs, errors.New("templates: the mcpgen version is empty"))
	default:
		if err := module.Check(ModulePath, d.Version); err != nil {
			errs = append(errs, fmt.Errorf("templates: invalid mcpgen version: %w", err))
		} else if module.CanonicalVersion(d.Version) != d.Version {
			errs = append(errs, fmt.Errorf("templates: invalid mcpgen version %q: not a canonical module version", d.Version))
		}
	}
	if d.Replace != "" && !filepath.IsAbs(d.Replace) {
		errs = append(errs, fmt.Errorf("templates: the replace path %q is not absolute", d.Replace))
	}
	if strings.ContainsAny(d.Replace, "\n\r") {
		errs = append(errs, errors.New("templates: the replace path contains a line break"))
	}
	if !modfile.GoVersionRE.MatchString(d.GoVersion) {
		errs = append(errs, fmt.Errorf("templates: invalid go version %q (want e.g. 1.26)", d.GoVersion))
	}
	return errors.Join(errs...)
}

// goMinor is the major.minor of a go line version (1.26.0 → 1.26).
func goMinor(v string) string {
	if major, rest, ok := strings.Cut(v, "."); ok {
		minor, _, _ := strings.Cut(rest, ".")
		return major + "." + minor
	}
	return v
}

// CheckName reports whether name can be an MCP server name: 1 to 128
// printable characters, not starting or ending with a space.
func CheckName(name string) error {
	switch {
	case name == "":
		return errors.New("the server name is empty")
	case len(name) > 128:
		return fmt.Errorf("the server name %q is longer than 128 bytes", name)
	case strings.TrimSpace(name) != name:
		return fmt.Errorf("the server name %q starts or ends with a space", name)
	}
	for _, r := range name {
		if !unicode.IsPrint(r) || r == unicode.ReplacementChar {
			return fmt.Errorf("the server name %q contains the unprintable character %U", name, r)
		}
	}
	return nil
}

// BinaryName is the name `go build` gives the executable of the main
// package at the root of module: the last path element, or the one before
// it when the last is a major-version suffix such as v2.
func BinaryName(modulePath string) string {
	dir, elem := path.Split(modulePath)
	if dir != "" && len(elem) > 1 && elem[0] == 'v' && strings.Trim(elem[1:], "0123456789") == "" && elem != "v0" && elem != "v1" {
		return path.Base(strings.TrimSuffix(dir, "/"))
	}
	return elem
}
