package templates

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// httpFiles are the files only an --http scaffold has.
var httpFiles = []string{".dockerignore", "Dockerfile", "health.go", "health_test.go", "server.json"}

func TestScaffoldHTTPFiles(t *testing.T) {
	with, err := Scaffold(Data{Module: "github.com/alice/weather", Name: "Weather", Version: "v1.2.3", HTTP: true})
	if err != nil {
		t.Fatal(err)
	}
	without, err := Scaffold(Data{Module: "github.com/alice/weather", Name: "Weather", Version: "v1.2.3"})
	if err != nil {
		t.Fatal(err)
	}
	want := slices.Sorted(slices.Values(append(slices.Clone(wantFiles), httpFiles...)))
	if got := names(with); !slices.Equal(got, want) {
		t.Errorf("--http files %v, want %v", got, want)
	}
	if got := names(without); !slices.Equal(got, wantFiles) {
		t.Errorf("files without --http %v, want %v", got, wantFiles)
	}
	main := string(file(t, with, "main.go"))
	for _, want := range []string{`fs.String("probe"`, "probe(*probeURL)", `fs.Float64("rate"`, `fs.String("cors-origins"`} {
		if !strings.Contains(main, want) {
			t.Errorf("main.go lacks %s", want)
		}
	}
	if strings.Contains(string(file(t, without, "main.go")), "probeURL") {
		t.Error("main.go without --http has the probe")
	}
	if !strings.Contains(string(file(t, with, "README.md")), "## Deploy") {
		t.Error("README.md lacks the Deploy section")
	}
}

// instruction is one Dockerfile instruction, continuation lines joined.
type instruction struct {
	line int
	cmd  string // upper case
	args string
}

// parseDockerfile splits a Dockerfile into instructions the way the
// builder does: comments and blank lines dropped, a trailing backslash
// continuing the line. The parser directives (# syntax=…) come back apart.
func parseDockerfile(t *testing.T, src string) (directives map[string]string, out []instruction) {
	t.Helper()
	directives = map[string]string{}
	lines := strings.Split(src, "\n")
	inDirectives := true
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if inDirectives {
			if m := regexp.MustCompile(`^#\s*([a-z]+)\s*=\s*(\S+)$`).FindStringSubmatch(l); m != nil {
				directives[m[1]] = m[2]
				continue
			}
			inDirectives = false
		}
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		start := i
		for strings.HasSuffix(l, `\`) && i+1 < len(lines) {
			i++
			l = strings.TrimSuffix(l, `\`) + " " + strings.TrimSpace(lines[i])
		}
		cmd, args, _ := strings.Cut(l, " ")
		out = append(out, instruction{line: start + 1, cmd: strings.ToUpper(cmd), args: strings.TrimSpace(args)})
	}
	return directives, out
}

// execForm decodes the JSON array form of ENTRYPOINT, CMD and HEALTHCHECK
// CMD (the shell form needs a shell, which distroless has not).
func execForm(t *testing.T, in instruction, args string) []string {
	t.Helper()
	var argv []string
	if err := json.Unmarshal([]byte(args), &argv); err != nil || len(argv) == 0 {
		t.Fatalf("Dockerfile:%d: %s %s is not the exec form (a JSON array): %v", in.line, in.cmd, args, err)
	}
	return argv
}

// TestDockerfile checks the scaffold's Dockerfile at the level of a linter
// (there is no docker here): known instructions only; two stages, the
// first named and building a static binary (CGO_ENABLED=0), the last a
// distroless static nonroot image with pinned tags (no latest); COPY
// --from a stage that exists, into the path ENTRYPOINT and HEALTHCHECK run;
// a numeric non-root USER after the last FROM; exec forms everywhere; the
// HEALTHCHECK probing /healthz on the EXPOSEd port the server listens on;
// the registry label equal to server.json's name.
func TestDockerfile(t *testing.T) {
	for _, d := range []Data{
		{Module: "github.com/alice/weather", Name: "Weather", Version: "v1.2.3", HTTP: true},
		{Module: "example.com/tools/weather/v2", Name: `Wea"ther ☀`, Version: UnpublishedVersion, Replace: "/src/mcpgen", HTTP: true, Auth: true, Cluster: true},
	} {
		files, err := Scaffold(d)
		if err != nil {
			t.Fatal(err)
		}
		directives, ins := parseDockerfile(t, string(file(t, files, "Dockerfile")))
		if directives["syntax"] != "docker/dockerfile:1" {
			t.Errorf("%s: syntax directive %q", d.Module, directives["syntax"])
		}
		known := map[string]bool{"FROM": true, "WORKDIR": true, "COPY": true, "RUN": true, "LABEL": true, "USER": true,
			"EXPOSE": true, "HEALTHCHECK": true, "STOPSIGNAL": true, "ENTRYPOINT": true, "CMD": true, "ENV": true, "ARG": true}
		var froms []instruction
		stages := map[string]bool{}
		var binary, user, label, port string
		var entry, health []string
		var buildRuns []string
		for _, in := range ins {
			if !known[in.cmd] {
				t.Errorf("Dockerfile:%d: unknown instruction %s", in.line, in.cmd)
			}
			last := len(froms) - 1
			switch in.cmd {
			case "FROM":
				f := strings.Fields(in.args)
				if strings.HasSuffix(f[0], ":latest") || !strings.Contains(f[0], ":") {
					t.Errorf("Dockerfile:%d: image %s has no pinned tag", in.line, f[0])
				}
				if len(f) == 3 && strings.EqualFold(f[1], "AS") {
					stages[f[2]] = true
				}
				froms = append(froms, in)
				user = "" // USER does not carry over a FROM
			case "RUN":
				if last == 0 {
					buildRuns = append(buildRuns, in.args)
				} else {
					t.Errorf("Dockerfile:%d: RUN in the final stage (it has no shell)", in.line)
				}
			case "COPY":
				if from, ok := strings.CutPrefix(strings.Fields(in.args)[0], "--from="); ok {
					if !stages[from] {
						t.Errorf("Dockerfile:%d: COPY --from=%s, no such stage", in.line, from)
					}
					f := strings.Fields(in.args)
					binary = f[len(f)-1]
				}
			case "USER":
				user = in.args
			case "LABEL":
				k, v, _ := strings.Cut(in.args, "=")
				if k == "io.modelcontextprotocol.server.name" {
					if err := json.Unmarshal([]byte(v), &label); err != nil {
						t.Errorf("Dockerfile:%d: label value %s: %v", in.line, v, err)
					}
				}
			case "EXPOSE":
				port = in.args
			case "HEALTHCHECK":
				_, cmd, ok := strings.Cut(in.args, " CMD ")
				if !ok {
					t.Fatalf("Dockerfile:%d: HEALTHCHECK without CMD", in.line)
				}
				health = execForm(t, in, strings.TrimSpace(cmd))
			case "ENTRYPOINT":
				entry = execForm(t, in, in.args)
			case "CMD":
				execForm(t, in, in.args)
			}
		}
		if len(froms) != 2 || len(stages) != 1 {
			t.Fatalf("%s: %d stages (%d named), want a build stage and a final one", d.Module, len(froms), len(stages))
		}
		if !strings.HasPrefix(froms[0].args, "golang:1.26 ") {
			t.Errorf("build stage %q, want golang:1.26 (go.mod's go line)", froms[0].args)
		}
		if final := froms[1].args; final != "gcr.io/distroless/static-debian13:nonroot" {
			t.Errorf("final stage %q, want distroless static nonroot", final)
		}
		build := strings.Join(buildRuns, "\n")
		if !regexp.MustCompile(`CGO_ENABLED=0 go build .*-o /out/server`).MatchString(build) {
			t.Errorf("the build stage does not build a static binary into /out/server:\n%s", build)
		}
		if m := regexp.MustCompile(`^(\d+)(:(\d+))?$`).FindStringSubmatch(user); m == nil || m[1] == "0" || m[3] == "0" {
			t.Errorf("final USER %q, want a numeric non-root uid:gid", user)
		}
		if binary != "/server" || len(entry) < 3 || entry[0] != binary || !slices.Equal(entry[1:3], []string{"--http", "0.0.0.0:" + port}) {
			t.Errorf("ENTRYPOINT %q with the binary at %s and EXPOSE %s", entry, binary, port)
		}
		if len(health) != 3 || health[0] != binary || health[1] != "--probe" || health[2] != "http://127.0.0.1:"+port+"/healthz" {
			t.Errorf("HEALTHCHECK %q, want %s --probe on /healthz at port %s", health, binary, port)
		}
		var sj struct{ Name string }
		if err := json.Unmarshal(file(t, files, "server.json"), &sj); err != nil {
			t.Fatal(err)
		}
		if label == "" || label != sj.Name {
			t.Errorf("label io.modelcontextprotocol.server.name %q, server.json name %q", label, sj.Name)
		}
		ignore := strings.Split(string(file(t, files, ".dockerignore")), "\n")
		if !slices.Contains(ignore, ".git") {
			t.Errorf(".dockerignore %q does not keep .git out of the build context", ignore)
		}
	}
}

func TestRegistryName(t *testing.T) {
	for _, c := range []struct{ module, name, image string }{
		{"github.com/alice/weather", "io.github.alice/weather", "ghcr.io/alice/weather"},
		{"github.com/Alice-B/mcp-tools/v2", "io.github.Alice-B/mcp-tools", "ghcr.io/alice-b/mcp-tools"},
		{"example.com/tools/weather", "com.example/weather", "ghcr.io/your-org/weather"},
		{"Gitlab.Example.org/x/srv_1.2", "org.example.gitlab/srv_1.2", "ghcr.io/your-org/srv_1.2"},
		{"hello", "com.example/hello", "ghcr.io/your-org/hello"},
		{"example.com/~user/x", "com.example/x", "ghcr.io/your-org/x"},
	} {
		if got := RegistryName(c.module); got != c.name {
			t.Errorf("RegistryName(%q) = %q, want %q", c.module, got, c.name)
		}
		if got := ImageName(c.module); got != c.image {
			t.Errorf("ImageName(%q) = %q, want %q", c.module, got, c.image)
		}
	}
}

// registryModule is the MCP registry release whose validator embeds the
// server.json schema of RegistrySchemaURL (its CurrentSchemaVersion).
const registryModule = "github.com/modelcontextprotocol/registry@v1.8.9"

// registrySchema returns the registry's own copy of the server.json schema,
// from the registry's Go module (go mod download: the module proxy, or the
// module cache).
func registrySchema(t *testing.T) []byte {
	t.Helper()
	cmd := exec.Command("go", "mod", "download", "-json", registryModule)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	out, err := cmd.Output()
	var info struct{ Dir, Error string }
	_ = json.Unmarshal(out, &info)
	if err != nil || info.Dir == "" {
		t.Fatalf("go mod download %s (the registry's schema; needs the module proxy or cache): %v %s", registryModule, err, info.Error)
	}
	version := strings.TrimSuffix(strings.TrimPrefix(RegistrySchemaURL, "https://static.modelcontextprotocol.io/schemas/"), "/server.schema.json")
	data, err := os.ReadFile(filepath.Join(info.Dir, "internal", "validators", "schemas", version+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestServerJSONValidates: the scaffold's server.json validates against the
// registry's schema (draft-07, formats asserted) and names it by its $id,
// for module paths on GitHub, on another host, without a host, and a
// server name too long to be the registry's title.
func TestServerJSONValidates(t *testing.T) {
	raw := registrySchema(t)
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if id, _ := doc.(map[string]any)["$id"].(string); id != RegistrySchemaURL {
		t.Fatalf("the registry's schema has $id %q, the scaffold names %q", id, RegistrySchemaURL)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(RegistrySchemaURL, doc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile(RegistrySchemaURL)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []Data{
		{Module: "github.com/alice/weather", Name: "Weather", Version: "v1.2.3", HTTP: true},
		{Module: "example.com/tools/weather/v2", Name: `Wea"ther ☀`, Version: "v1.2.3", HTTP: true, Auth: true},
		{Module: "hello", Name: strings.Repeat("n", 128), Version: "v1.2.3", HTTP: true},
	} {
		files, err := Scaffold(d)
		if err != nil {
			t.Fatal(err)
		}
		content := file(t, files, "server.json")
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(content))
		if err != nil {
			t.Fatalf("%s: server.json is not JSON: %v\n%s", d.Module, err, content)
		}
		if err := schema.Validate(inst); err != nil {
			t.Errorf("%s: server.json does not validate against %s: %v\n%s", d.Module, RegistrySchemaURL, err, content)
		}
		m := inst.(map[string]any)
		if m["$schema"] != RegistrySchemaURL || m["name"] != RegistryName(d.Module) || m["version"] != "0.1.0" {
			t.Errorf("%s: server.json %s", d.Module, content)
		}
		if title, has := m["title"]; (len(d.Name) <= 100) != has || (has && title != d.Name) {
			t.Errorf("%s: title %v for the name %q", d.Module, title, d.Name)
		}
	}
	// The schema does reject: a server.json without a version fails.
	bad := map[string]any{"$schema": RegistrySchemaURL, "name": "com.example/x", "description": "x"}
	if schema.Validate(bad) == nil {
		t.Fatal("the registry's schema accepts a server.json without version: the check proves nothing")
	}
}

// ociName is the repository name grammar of the OCI distribution spec
// (distribution/reference): path components of lower-case alphanumerics
// joined by one '.', one or two '_', or dashes; no component starts or ends
// with a separator.
var ociName = regexp.MustCompile(`^ghcr\.io(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)+$`)

// TestImageNameIsOCIRepositoryName: ImageName is "the OCI image of the
// server"; init --http writes it into the Dockerfile's and README's
// `docker build -t <image>:0.1.0`, the summary and server.json. For module
// paths init accepts whose last element has separators at its ends or
// doubled (my_, a._b), the name follows the grammar docker accepts, and it
// is at most 255 bytes.
func TestImageNameIsOCIRepositoryName(t *testing.T) {
	for _, mod := range []string{"example.com/my_", "example.com/_srv", "example.com/srv-", "example.com/a._b", "example.com/a___b", "example.com/x.-y",
		"github.com/-Alice_/srv", "example.com/" + strings.Repeat("w", 300), "example.com/" + strings.Repeat("w.", 150) + "w"} {
		files, err := Scaffold(Data{Module: mod, Name: "srv", Version: "v1.2.3", HTTP: true})
		if err != nil {
			t.Errorf("%s: %v", mod, err)
			continue
		}
		image := ImageName(mod)
		if !ociName.MatchString(image) || len(image) > 255 {
			t.Errorf("module %s: ImageName %q is not a valid OCI repository name; the Dockerfile says %q",
				mod, image, firstLine(file(t, files, "Dockerfile"), "docker build"))
		}
	}
	for mod, want := range map[string]string{
		"example.com/a._b":        "ghcr.io/your-org/a-b",
		"example.com/my_":         "ghcr.io/your-org/my",
		"example.com/a__b":        "ghcr.io/your-org/a__b",
		"example.com/Weather--Go": "ghcr.io/your-org/weather--go",
	} {
		if got := ImageName(mod); got != want {
			t.Errorf("ImageName(%s) = %s, want %s", mod, got, want)
		}
	}
}

func firstLine(content []byte, substr string) string {
	for _, line := range strings.Split(string(content), "\n") {
		if strings.Contains(line, substr) {
			return strings.TrimSpace(line)
		}
	}
	return ""
}

// TestServerJSONLongModuleValidates: the registry's server.json schema
// bounds "name" to 200 characters; for a module path init accepts whose
// host and last element are longer, RegistryName is shortened
// deterministically (a prefix and a hash), so server.json still validates,
// and two such modules keep distinct names.
func TestServerJSONLongModuleValidates(t *testing.T) {
	raw := registrySchema(t)
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(RegistrySchemaURL, doc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile(RegistrySchemaURL)
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("w", 200)
	for _, mod := range []string{"example.com/" + long, "example.com/" + long + "x", strings.Repeat("h", 150) + ".example.com/" + long, "github.com/alice/" + long} {
		files, err := Scaffold(Data{Module: mod, Name: "Weather", Version: "v1.2.3", HTTP: true})
		if err != nil {
			t.Fatalf("module %s: %v", mod, err)
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(file(t, files, "server.json")))
		if err != nil {
			t.Fatal(err)
		}
		if err := schema.Validate(inst); err != nil {
			t.Errorf("server.json for module %s does not validate against %s: %v", mod, RegistrySchemaURL, err)
		}
	}
	a, b := RegistryName("example.com/"+long), RegistryName("example.com/"+long+"x")
	if a == b {
		t.Errorf("two long modules share the registry name %s", a)
	}
	if got := RegistryName("github.com/alice/" + long); !strings.HasPrefix(got, "io.github.alice/www") {
		t.Errorf("RegistryName keeps the namespace of a GitHub module: got %s", got)
	}
}
