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

// CompletePromptArgs completes the arguments of test_prompt_with_arguments
// (its directive's complete=): the candidates that start with the typed
// value, at most 100 of them. As a method of the server type it could as
// well consult the server's state.
func (e *Everything) CompletePromptArgs(ctx context.Context, argument, value string, _ map[string]string) ([]string, error) {
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
