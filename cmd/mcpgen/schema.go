package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"text/tabwriter"
	"time"

	"github.com/mcpgen/mcpgen/schema"
	"github.com/mcpgen/mcpgen/schemadiff"
	"github.com/mcpgen/mcpgen/specfetch"
)

// envSpecBaseURL overrides where `schema fetch` downloads from (mirrors, tests).
const envSpecBaseURL = "MCPGEN_SPEC_BASE_URL"

func schemaCommand() *command {
	return &command{
		name:    "schema",
		summary: "fetch, list and compare MCP schema revisions",
		usage: `
Usage:
  mcpgen schema fetch <version> [--timeout 30s]
  mcpgen schema list
  mcpgen schema diff <old> <new> [--json]

Fetch downloads schema.json and schema.ts of a revision from the MCP
specification repository into the user cache, where 'mcpgen generate
--schema <version>' finds it. List shows the revisions at hand: those in
$MCPGEN_SPEC_DIR/schema and in the cache. Diff shows what changed between two
revisions (each a schema.json file or a version name): methods, types,
fields, error codes and deprecations, with what the generated code enforces
(closed or open objects, bounds, formats).

Examples:
  mcpgen schema fetch 2026-07-28
  mcpgen schema list
  mcpgen schema diff 2025-11-25 2026-07-28
  mcpgen schema diff old/schema.json 2026-07-28 --json
`,
		run: runSchema,
	}
}

// schemaCommands are the subcommands of `mcpgen schema`.
func schemaCommands() []*command {
	return []*command{schemaFetchCommand(), schemaListCommand(), schemaDiffCommand()}
}

func runSchema(e *env, c *command, args []string) int {
	if len(args) == 0 {
		return e.usageError(c, "missing subcommand (fetch, list or diff)")
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		e.printHelp(e.stdout, c, nil)
		return exitOK
	}
	sub := lookup(schemaCommands(), args[0])
	if sub == nil {
		return e.usageError(c, "unknown subcommand %q (want fetch, list or diff)", args[0])
	}
	return sub.run(e, sub, args[1:])
}

func schemaFetchCommand() *command {
	return &command{
		name:    "schema fetch",
		summary: "download a schema revision into the user cache",
		usage: `
Usage:
  mcpgen schema fetch <version> [--timeout 30s]

Fetch downloads schema.json and schema.ts of a protocol revision from
https://github.com/modelcontextprotocol/modelcontextprotocol into the user
cache (replacing an earlier copy only once both downloads succeeded). Set
MCPGEN_SPEC_BASE_URL to download from a mirror instead.

Examples:
  mcpgen schema fetch 2026-07-28
  mcpgen generate --schema 2026-07-28 --out generated/mcp
`,
		run: func(e *env, c *command, args []string) int {
			fs := newFlags(c)
			timeout := fs.Duration("timeout", specfetch.DefaultTimeout, "give up after this `duration`")
			pos, code, done := e.parse(c, fs, args)
			if done {
				return code
			}
			if len(pos) != 1 {
				return e.usageError(c, "want one version, got %d arguments", len(pos))
			}
			if !specfetch.IsVersion(pos[0]) {
				return e.usageError(c, "%q is not a version name such as 2026-07-28", pos[0])
			}
			cache, err := specfetch.CacheDir()
			if err != nil {
				e.errorf("no user cache folder: %v", err)
				return exitFail
			}
			f := &specfetch.Fetcher{BaseURL: os.Getenv(envSpecBaseURL), CacheDir: cache, Timeout: *timeout}
			got, err := f.Fetch(context.Background(), pos[0])
			if err != nil {
				e.errorf("schema fetch %s: %v", pos[0], err)
				return exitFail
			}
			fmt.Fprintf(e.stdout, "mcpgen: fetched %s into %s (%d files)\n", got.Version, got.Dir, len(got.Files))
			return exitOK
		},
	}
}

func schemaListCommand() *command {
	return &command{
		name:    "schema list",
		summary: "list the schema revisions at hand",
		usage: `
Usage:
  mcpgen schema list

List shows the protocol revisions found in $MCPGEN_SPEC_DIR/schema and in the
user cache, with where each lives.

Example:
  MCPGEN_SPEC_DIR=../shared/mcp-spec mcpgen schema list
`,
		run: func(e *env, c *command, args []string) int {
			fs := newFlags(c)
			pos, code, done := e.parse(c, fs, args)
			if done {
				return code
			}
			if len(pos) != 0 {
				return e.usageError(c, "unexpected argument %q", pos[0])
			}
			loc := specfetch.Default()
			entries, err := loc.List()
			if err != nil {
				e.errorf("%v", err)
				return exitFail
			}
			if len(entries) == 0 {
				e.errorf("no schema revisions found (MCPGEN_SPEC_DIR=%q, cache %s); set MCPGEN_SPEC_DIR or run 'mcpgen schema fetch <version>'", loc.SpecDir, loc.CacheDir)
				return exitOK
			}
			tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "VERSION\tSOURCE\tSCHEMA")
			for _, en := range entries {
				fmt.Fprintf(tw, "%s\t%s\t%s\n", en.Version, en.Source, en.Path)
			}
			tw.Flush()
			return exitOK
		},
	}
}

func schemaDiffCommand() *command {
	return &command{
		name:    "schema diff",
		summary: "show what changed between two schema revisions",
		usage: `
Usage:
  mcpgen schema diff <old> <new> [--json]

Diff loads two revisions (each a schema.json file or a version name) and
lists what changed: methods, types (kinds, union members, enum values),
fields (added, removed, type or required-ness changed), error codes and
deprecations. Lines start with + (added), - (removed) or ~ (changed).

Examples:
  mcpgen schema diff 2025-11-25 2026-07-28
  mcpgen schema diff 2025-11-25 2026-07-28 --json
`,
		run: func(e *env, c *command, args []string) int {
			fs := newFlags(c)
			asJSON := fs.Bool("json", false, "print the changes as JSON")
			verbose := fs.Bool("v", false, "print what is loaded, with timings")
			pos, code, done := e.parse(c, fs, args)
			if done {
				return code
			}
			if len(pos) != 2 {
				return e.usageError(c, "want two revisions (old and new), got %d arguments", len(pos))
			}
			loc := specfetch.Default()
			var models [2]*schema.Model
			for i, arg := range pos {
				start := time.Now()
				path, err := loc.Resolve(arg)
				if err != nil {
					e.errorf("%v", err)
					return exitUsage
				}
				m, err := loadSchema(e, path)
				if err != nil {
					return exitUsage
				}
				if *verbose {
					e.errorf("loaded %s from %s (%s)", m.Version, path, since(start))
				}
				models[i] = m
			}
			report := schemadiff.Diff(models[0], models[1])
			var err error
			if *asJSON {
				err = report.WriteJSON(e.stdout)
			} else {
				err = report.WriteText(e.stdout)
			}
			if err != nil && !errors.Is(err, os.ErrClosed) {
				e.errorf("%v", err)
				return exitFail
			}
			return exitOK
		},
	}
}
