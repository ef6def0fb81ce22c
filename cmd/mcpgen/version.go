package main

import (
	"fmt"

	"github.com/mcpgen/mcpgen/internal/version"
)

func versionCommand() *command {
	return &command{
		name:    "version",
		summary: "print the mcpgen version",
		usage: `
Usage:
  mcpgen version

Version prints the version of mcpgen: the module version of an installed
binary, else the version of the source tree.

Example:
  mcpgen version
`,
		run: func(e *env, c *command, args []string) int {
			pos, code, done := e.parse(c, newFlags(c), args)
			if done {
				return code
			}
			if len(pos) > 0 {
				return e.usageError(c, "unexpected argument %q", pos[0])
			}
			fmt.Fprintf(e.stdout, "mcpgen %s\n", version.String())
			return exitOK
		},
	}
}
