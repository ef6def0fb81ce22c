// Package driver runs the same tools/call workload against several MCP
// server implementations (in-process, stdio, Streamable HTTP), interleaving
// the runs, and reports the medians side by side.
package driver

import (
	"context"
	"fmt"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// Server describes one implementation under test (one column of the table).
type Server struct {
	// Name is the column header, e.g. "go-sdk".
	Name string
	// Package is the Go package to build, relative to the module directory
	// given to Build (e.g. "./servers/gosdk"). Empty means Binary is used as is.
	Package string
	// Binary is the executable to start; Build fills it in.
	Binary string
	// Args are passed on every start, before the driver's own flags
	// (-http ADDR, -cpuprofile FILE).
	Args []string
	// Protocol selects the wire era the driver speaks to this server.
	Protocol Protocol
	// HTTPPath is the Streamable HTTP endpoint; empty means "/mcp".
	HTTPPath string
	// InProcess, if set, is the server's in-memory dispatch path (row "inproc").
	InProcess InProcess
	// Floor marks a floor server: it answers only the weather call
	// (Measurement.Workload ""), in process, on stdio and on HTTP.
	Floor bool
	// NoHTTP skips the HTTP rows (a floor whose HTTP side is another's).
	NoHTTP bool
	// Kinds, if set, are the only kinds of row the server runs (a variant
	// of another column that matters for a few rows only).
	Kinds []Kind
	// ModernOnly lists workloads (Measurement.Workload prefixes) the server
	// leaves out: a legacy-session column has no multi round-trip rows.
	ModernOnly []string
}

// skips says why s does not run m ("" if it does).
func (s Server) skips(m Measurement) string {
	switch {
	case s.Floor && (m.Workload != "" || m.Kind != KindInProc && m.Kind != KindStdio && m.Kind != KindHTTP):
		return "a floor answers only the weather call"
	case s.NoHTTP && m.Kind == KindHTTP:
		return "no HTTP side"
	case len(s.Kinds) > 0 && !slices.Contains(s.Kinds, m.Kind):
		return "runs only its own kinds of row"
	}
	for _, w := range s.ModernOnly {
		if m.Workload != "" && strings.HasPrefix(m.Workload, w) {
			return "a 2026-07-28 workload"
		}
	}
	return ""
}

func (s Server) httpPath() string {
	if s.HTTPPath == "" {
		return "/mcp"
	}
	return s.HTTPPath
}

// Build compiles every server that has a Package into outDir with a single
// `go build` run in moduleDir, and sets each Binary.
func Build(ctx context.Context, moduleDir, outDir string, servers []Server) error {
	args := []string{"build", "-o", outDir + string(filepath.Separator)}
	seen := map[string]string{}
	for i := range servers {
		s := &servers[i]
		if s.Package == "" {
			if s.Binary == "" {
				return fmt.Errorf("server %q: neither Package nor Binary is set", s.Name)
			}
			continue
		}
		base := path.Base(s.Package)
		other, dup := seen[base]
		if dup && other != s.Package {
			return fmt.Errorf("servers %q and %q build to the same binary name %q", other, s.Package, base)
		}
		s.Binary = filepath.Join(outDir, base)
		if !dup { // two columns may share a binary (e.g. the floors, told apart by Args)
			seen[base] = s.Package
			args = append(args, s.Package)
		}
	}
	if len(seen) == 0 {
		return nil
	}
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = moduleDir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return nil
}
