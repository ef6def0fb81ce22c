package main

import "strings"

func helpCommand() *command {
	return &command{
		name:    "help",
		summary: "show help for mcpgen or a command",
		usage: `
Usage:
  mcpgen help [command]

Help shows the list of commands, or the help of one command (the same as
'mcpgen <command> --help').

Examples:
  mcpgen help
  mcpgen help generate
  mcpgen help schema diff
`,
		run: runHelp,
	}
}

func runHelp(e *env, c *command, args []string) int {
	switch {
	case len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help"):
		e.printHelp(e.stdout, c, nil)
		return exitOK
	case len(args) == 0:
		e.printMainUsage(e.stdout)
		return exitOK
	}
	// Asking a command for --help prints its help with its flags.
	name := strings.Join(args, " ")
	if sub := lookup(commands(), args[0]); sub != nil {
		return sub.run(e, sub, append(args[1:], "--help"))
	}
	e.errorf("unknown command %q", name)
	e.printMainUsage(e.stderr)
	return exitUsage
}
