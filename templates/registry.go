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
// be edited before publishing. A name longer than the registry's 200
// characters is shortened deterministically: the server part, then the
// namespace, keep a prefix and gain a hash of the whole.
func RegistryName(modulePath string) string {
	server := registryPart(BinaryName(modulePath), "._-")
	if server == "" {
		server = "server"
	}
	return boundRegistryName(registryNamespace(modulePath), server)
}

// maxRegistryName is the maxLength of a server.json name.
const maxRegistryName = 200

// boundRegistryName joins namespace and server, shortening them (server
// first, keeping at least 64 bytes of it) when the name would be longer
// than the registry allows.
func boundRegistryName(ns, server string) string {
	if len(ns)+1+len(server) <= maxRegistryName {
		return ns + "/" + server
	}
	server = shorten(server, max(64, maxRegistryName-1-len(ns)))
	ns = shorten(ns, maxRegistryName-1-len(server))
	return ns + "/" + server
}

// registryNamespace is the reverse-DNS namespace of modulePath's host.
func registryNamespace(modulePath string) string {
	first, rest, _ := strings.Cut(modulePath, "/")
	if !strings.Contains(first, ".") {
		return "com.example"
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
	return registryPart(ns, ".-")
}

// ImageName is the OCI image of the server of modulePath, without a tag:
// ghcr.io/<owner>/<binary> for a GitHub module, else ghcr.io/your-org/<binary>
// (to be edited). Each part follows the OCI distribution name grammar
// (lower case alphanumerics joined by '.', '_', '__' or dashes; other
// characters dropped, other runs of separators made one '-'), and the name
// is at most 255 bytes, as image references allow.
func ImageName(modulePath string) string {
	owner := "your-org"
	if rest, ok := strings.CutPrefix(modulePath, "github.com/"); ok {
		o, _, _ := strings.Cut(rest, "/")
		if c := ociComponent(o); c != "" {
			owner = c
		}
	}
	bin := ociComponent(path.Base(BinaryName(modulePath)))
	if bin == "" {
		bin = "server"
	}
	const prefix = "ghcr.io/"
	owner = shorten(owner, 64)
	return prefix + owner + "/" + shorten(bin, maxImageName-len(prefix)-len(owner)-1)
}

// maxImageName bounds the length of an image name (distribution/reference's
// NameTotalLengthMax).
const maxImageName = 255

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
