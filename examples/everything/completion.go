package main

import (
	"context"
	"slices"
	"strings"
)

// argumentValues are the completion candidates of the prompt arguments of
// test_prompt_with_arguments.
var argumentValues = map[string][]string{
	"arg1": {"test", "testValue1", "testing", "value1"},
	"arg2": {"test", "testValue2", "testing", "value2"},
}

// Complete makes PromptArgs a server.Completer: completion/complete for an
// argument of test_prompt_with_arguments returns the candidates that start
// with the typed value, at most 100 of them.
func (PromptArgs) Complete(ctx context.Context, argument, value string, _ map[string]string) ([]string, error) {
	var out []string
	for _, v := range argumentValues[argument] {
		if strings.HasPrefix(v, value) {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	if len(out) > 100 {
		out = out[:100]
	}
	return out, nil
}
