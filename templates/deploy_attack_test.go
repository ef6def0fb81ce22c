package templates

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// ociName is the repository name grammar of the OCI distribution spec
// (distribution/reference): path components of lower-case alphanumerics
// joined by one '.', one or two '_', or dashes; no component starts or ends
// with a separator.
var ociName = regexp.MustCompile(`^ghcr\.io(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)+$`)

// ImageName promises "the OCI image of the server"; init --http writes it
// into the Dockerfile's and README's `docker build -t <image>:0.1.0`, the
// summary it prints, and server.json's package identifier. For module paths
// init accepts (they pass checkModulePath and CheckBinaryName and Scaffold
// renders them), the last element is copied with its leading/trailing or
// doubled separators, giving a reference docker rejects ("invalid reference
// format").
func TestAttackImageNameIsOCIReference(t *testing.T) {
	for _, mod := range []string{"example.com/my_", "example.com/_srv", "example.com/srv-", "example.com/a._b", "example.com/a___b", "example.com/x.-y"} {
		files, err := Scaffold(Data{Module: mod, Name: "srv", Version: "v1.2.3", HTTP: true})
		if err != nil {
			t.Errorf("%s: %v", mod, err) // refusing the module would be a fix too
			continue
		}
		image := ImageName(mod)
		if !ociName.MatchString(image) {
			t.Errorf("module %s: ImageName %q is not a valid OCI repository name; the Dockerfile says %q",
				mod, image, firstLine(file(t, files, "Dockerfile"), "docker build"))
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

// The registry's server.json schema (2025-12-11) bounds "name" to 200
// characters; RegistryName copies the module path's host and last element
// unbounded, so a module path init accepts gets a server.json the registry
// rejects (TestServerJSONValidates holds the scaffold's server.json to that
// schema).
func TestAttackServerJSONLongModuleValidates(t *testing.T) {
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
	mod := "example.com/" + strings.Repeat("w", 200)
	files, err := Scaffold(Data{Module: mod, Name: "Weather", Version: "v1.2.3", HTTP: true})
	if err != nil {
		t.Skipf("module refused: %v", err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(file(t, files, "server.json")))
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(inst); err != nil {
		t.Errorf("server.json for module %s does not validate against %s: %v", mod, RegistrySchemaURL, err)
	}
}
