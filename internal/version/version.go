// Package version holds the version of mcpgen.
package version

import "runtime/debug"

// Version is the version of this source tree. Installed binaries report the
// module version recorded in their build info instead (see String).
const Version = "0.1.0-dev"

// String returns the version to show users: the module version of an
// installed binary (go install github.com/mcpgen/mcpgen/cmd/mcpgen@v1.2.3),
// else Version.
func String() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		if v := info.Main.Version; v != "" && v != "(devel)" {
			return v
		}
	}
	return Version
}
