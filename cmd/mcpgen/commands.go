package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// Exit statuses.
const (
	exitOK    = 0 // success
	exitFail  = 1 // the command failed (or --check found stale files)
	exitUsage = 2 // bad arguments or bad input (such as an invalid schema)
)

// command is one subcommand of mcpgen.
type command struct {
	// name is what users type: "generate", or "schema diff" for a nested one.
	name string
	// summary is the one line `mcpgen help` shows.
	summary string
	// usage is the help text: usage lines, a description and examples. The
	// flags are listed after it from the command's flag set.
	usage string
	// run runs the command with the arguments after its name and returns
	// the exit status. c is the command itself, for its help and errors.
	run func(e *env, c *command, args []string) int
}

// lookup finds a command by its last name word.
func lookup(cmds []*command, name string) *command {
	for _, c := range cmds {
		if c.name == name || strings.HasSuffix(c.name, " "+name) {
			return c
		}
	}
	return nil
}

// env is what commands print to.
type env struct {
	stdout, stderr io.Writer
}

// errorf prints an error to stderr, prefixed "mcpgen: ".
func (e *env) errorf(format string, args ...any) {
	fmt.Fprintf(e.stderr, "mcpgen: "+format+"\n", args...)
}

// parse parses args with the flags of fs, which may come before or after
// the positional arguments. On --help it prints c's help to stdout; on a
// bad flag it prints the error and a hint to stderr. When done is set the
// command must return code.
func (e *env) parse(c *command, fs *flag.FlagSet, args []string) (positional []string, code int, done bool) {
	positional, err := parseArgs(fs, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		e.printHelp(e.stdout, c, fs)
		return nil, exitOK, true
	case err != nil:
		return nil, e.usageError(c, "%v", err), true
	}
	return positional, exitOK, false
}

// usageError reports a usage mistake and returns exitUsage.
func (e *env) usageError(c *command, format string, args ...any) int {
	fmt.Fprintf(e.stderr, "mcpgen %s: %s\n", c.name, fmt.Sprintf(format, args...))
	fmt.Fprintf(e.stderr, "Run 'mcpgen %s --help' for usage.\n", c.name)
	return exitUsage
}

// newFlags returns an empty flag set for c that prints nothing itself.
func newFlags(c *command) *flag.FlagSet {
	fs := flag.NewFlagSet("mcpgen "+c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// printHelp writes c's help text and its flags.
func (e *env) printHelp(w io.Writer, c *command, fs *flag.FlagSet) {
	fmt.Fprint(w, strings.TrimLeft(c.usage, "\n"))
	if fs == nil {
		return
	}
	var flags strings.Builder
	fs.VisitAll(func(f *flag.Flag) {
		dash := "--"
		if len(f.Name) == 1 {
			dash = "-"
		}
		name, usage := flag.UnquoteUsage(f)
		line := "  " + dash + f.Name
		if name != "" {
			line += " " + name
		}
		fmt.Fprintf(&flags, "%-24s %s", line, usage)
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0s" {
			fmt.Fprintf(&flags, " (default %s)", f.DefValue)
		}
		flags.WriteString("\n")
	})
	if flags.Len() > 0 {
		fmt.Fprintf(w, "\nFlags:\n%s", flags.String())
	}
}

// printMainUsage writes the overview of all commands.
func (e *env) printMainUsage(w io.Writer) {
	var sb strings.Builder
	sb.WriteString("mcpgen generates typed Go code for Model Context Protocol servers.\n\n")
	sb.WriteString("Usage:\n  mcpgen <command> [arguments]\n\nCommands:\n")
	for _, c := range commands() {
		fmt.Fprintf(&sb, "  %-10s %s\n", c.name, c.summary)
	}
	sb.WriteString("\nRun 'mcpgen help <command>' or 'mcpgen <command> --help' for details.\n")
	fmt.Fprint(w, sb.String())
}
