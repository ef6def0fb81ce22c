package main

import (
	"flag"
	"strings"
)

// parseArgs parses args with fs, letting flags and positional arguments
// come in any order: `mcpgen schema diff a b --json` is
// `mcpgen schema diff --json a b`. Flags take the forms --name value,
// --name=value, -name value and, for booleans, --name alone. Everything
// after "--" is positional. It returns the positional arguments in order.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var flags, positional []string
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			positional = append(positional, args[i+1:]...)
			break
		}
		if len(arg) < 2 || arg[0] != '-' {
			positional = append(positional, arg)
			continue
		}
		flags = append(flags, arg)
		name, _, hasValue := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(arg, "-"), "-"), "=")
		if hasValue {
			continue
		}
		f := fs.Lookup(name)
		if f == nil || isBool(f) || i+1 == len(args) {
			// fs.Parse reports an unknown flag or a missing value.
			continue
		}
		i++
		flags = append(flags, args[i])
	}
	if err := fs.Parse(flags); err != nil {
		return nil, err
	}
	return positional, nil
}

func isBool(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}
