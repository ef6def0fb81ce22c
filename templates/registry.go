package templates

import (
	"path"
	"slices"
	"strings"
)

// RegistrySchemaURL is the server.json schema a scaffold's server.json
// names: the MCP registry's current released version (2025-12-11, the
// CurrentSchemaVersion of github.com/modelcontextprotocol/registry v1.8.9).
const RegistrySchemaURL = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"

// RegistryName is the MCP registry name of the server of modulePath:
// reverse-DNS namespace, a slash, the server (the binary name), as the
// registry's pattern ^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$ wants. A GitHub
// module github.com/alice/weather is io.github.alice/weather (the
// namespace the registry authenticates by GitHub login); a module on
// another host, example.com/tools/weather, is com.example/weather (proved
// by DNS or HTTP); a module path without a host is com.example/<binary>, to
// be edited before publishing.
func RegistryName(modulePath string) string {
	server := registryPart(BinaryName(modulePath), "._-")
	if server == "" {
		server = "server"
	}
	first, rest, _ := strings.Cut(modulePath, "/")
	if !strings.Contains(first, ".") {
		return "com.example/" + server
	}
	labels := strings.Split(strings.ToLower(first), ".")
	slices.Reverse(labels)
	ns := strings.Join(labels, ".")
	if ns == "com.github" {
		owner, _, _ := strings.Cut(rest, "/")
		if owner = registryPart(owner, ".-"); owner != "" {
			ns = "io.github." + owner
		}
	}
	return registryPart(ns, ".-") + "/" + server
}

// ImageName is the OCI image of the server of modulePath, without a tag:
// ghcr.io/<owner>/<binary> for a GitHub module, else ghcr.io/your-org/<binary>
// (to be edited). OCI names are lower case.
func ImageName(modulePath string) string {
	owner := "your-org"
	if rest, ok := strings.CutPrefix(modulePath, "github.com/"); ok {
		if o, _, _ := strings.Cut(rest, "/"); registryPart(o, "-") != "" {
			owner = strings.ToLower(registryPart(o, "-"))
		}
	}
	bin := strings.ToLower(registryPart(path.Base(BinaryName(modulePath)), "._-"))
	if bin == "" {
		bin = "server"
	}
	return "ghcr.io/" + owner + "/" + bin
}

// registryPart keeps the ASCII letters, digits and the characters of
// extra in s.
func registryPart(s, extra string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', strings.ContainsRune(extra, r):
			return r
		}
		return -1
	}, s)
}
