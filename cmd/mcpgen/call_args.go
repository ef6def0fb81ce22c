package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// toolArguments builds a tool's arguments from the command line: one JSON
// object, or key=value pairs whose values are read by the type the
// inputSchema gives the key ("string" as is; number, integer, boolean,
// object, array and null as JSON; a key without a declared type as JSON
// when it parses, else as a string).
func toolArguments(schema json.RawMessage, args []string) (json.RawMessage, error) {
	if len(args) == 1 && strings.HasPrefix(strings.TrimSpace(args[0]), "{") {
		raw := json.RawMessage(strings.TrimSpace(args[0]))
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(raw, &obj); err != nil {
			return nil, &argError{fmt.Sprintf("the arguments are not a JSON object: %v", err)}
		}
		return raw, nil
	}
	var s struct {
		Properties map[string]struct {
			Type json.RawMessage `json:"type"`
		} `json:"properties"`
	}
	_ = json.Unmarshal(schema, &s)
	out := map[string]json.RawMessage{}
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		if !ok || k == "" {
			return nil, &argError{fmt.Sprintf("argument %q is not key=value (or pass one JSON object)", a)}
		}
		if _, dup := out[k]; dup {
			return nil, &argError{fmt.Sprintf("argument %q is given twice", k)}
		}
		types := schemaTypes(s.Properties[k].Type)
		switch {
		case len(types) == 1 && types[0] == "string":
			out[k], _ = json.Marshal(v)
		case len(types) == 0 || contains(types, "string"):
			if isJSONValue(v) && !(contains(types, "string") && !looksTyped(v)) {
				out[k] = json.RawMessage(v)
			} else {
				out[k], _ = json.Marshal(v)
			}
		default:
			if !isJSONValue(v) {
				return nil, &argError{fmt.Sprintf("argument %s=%s: want %s", k, v, strings.Join(types, " or "))}
			}
			out[k] = json.RawMessage(v)
		}
	}
	return json.Marshal(out)
}

func schemaTypes(raw json.RawMessage) []string {
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}
	}
	var many []string
	_ = json.Unmarshal(raw, &many)
	return many
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// isJSONValue reports whether v is exactly one JSON value (surrounding
// white space allowed, nothing else after it: 1] is not).
func isJSONValue(v string) bool {
	return json.Valid([]byte(v))
}

// looksTyped reports whether v is a non-string JSON value (a number,
// boolean, null, object or array).
func looksTyped(v string) bool {
	return isJSONValue(v) && !strings.HasPrefix(strings.TrimSpace(v), `"`)
}
