// Command mcpgen generates typed Go code for Model Context Protocol servers.
//
// Run `mcpgen help` for the commands.
package main

import (
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// commands is the dispatch table, in the order `mcpgen help` lists them.
// Each command lives in a file of its own (generate.go, schema.go, …) with
// a constructor returning its *command; adding one is adding its file and
// an entry here. (Constructors rather than package variables, so that a
// command may refer to itself and to this table without an initialization
// cycle.)
func commands() []*command {
	return []*command{
		initCommand(),
		generateCommand(),
		toolsCommand(),
		schemaCommand(),
		callCommand(),
		versionCommand(),
		helpCommand(),
	}
}

// run runs mcpgen with args (without the program name) and returns the exit
// status: 0 success, 1 failure, 2 usage error or bad input.
func run(args []string, stdout, stderr io.Writer) int {
	e := &env{stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		e.printMainUsage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help":
		e.printMainUsage(stdout)
		return exitOK
	case "-version", "--version":
		c := versionCommand()
		return c.run(e, c, args[1:])
	}
	c := lookup(commands(), args[0])
	if c == nil {
		e.errorf("unknown command %q", args[0])
		e.printMainUsage(stderr)
		return exitUsage
	}
	return c.run(e, c, args[1:])
}
