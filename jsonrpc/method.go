package jsonrpc

import "github.com/mcpgen/mcpgen/internal/jsonscan"

// knownMethods are the method names of the protocol revision, whose
// Message.Method is the constant itself instead of a copy of the bytes.
var knownMethods = [...]string{
	"tools/call", "tools/list", "resources/read", "resources/list",
	"resources/templates/list", "prompts/get", "prompts/list",
	"completion/complete", "server/discover", "subscriptions/listen",
	"tasks/get", "tasks/result", "tasks/list", "tasks/cancel",
	"notifications/cancelled", "notifications/progress",
	"notifications/message", "initialize", "ping",
	"notifications/initialized",
}

// methodName is the text of string node i of t: a known method name
// without allocating.
func methodName(t *jsonscan.Tape, i int) string {
	if !t.Escaped(i) {
		c := t.Contents(i)
		for _, m := range knownMethods {
			if string(c) == m {
				return m
			}
		}
	}
	return t.Text(i)
}
