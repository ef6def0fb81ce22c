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
	if name, plain := t.PlainKey(i); plain {
		if m := knownMethod(name); m != "" {
			return m
		}
	}
	return t.Text(i)
}

// knownMethod is the knownMethods constant equal to s (never s itself,
// which may be a view of a message's bytes), "" when there is none: one
// switch, where a comparison with each known name cost more than the rest
// of the envelope's reading (TestKnownMethod keeps it in step with
// knownMethods).
func knownMethod(s string) string {
	switch s {
	case "tools/call":
		return "tools/call"
	case "tools/list":
		return "tools/list"
	case "resources/read":
		return "resources/read"
	case "resources/list":
		return "resources/list"
	case "resources/templates/list":
		return "resources/templates/list"
	case "prompts/get":
		return "prompts/get"
	case "prompts/list":
		return "prompts/list"
	case "completion/complete":
		return "completion/complete"
	case "server/discover":
		return "server/discover"
	case "subscriptions/listen":
		return "subscriptions/listen"
	case "tasks/get":
		return "tasks/get"
	case "tasks/result":
		return "tasks/result"
	case "tasks/list":
		return "tasks/list"
	case "tasks/cancel":
		return "tasks/cancel"
	case "notifications/cancelled":
		return "notifications/cancelled"
	case "notifications/progress":
		return "notifications/progress"
	case "notifications/message":
		return "notifications/message"
	case "initialize":
		return "initialize"
	case "ping":
		return "ping"
	case "notifications/initialized":
		return "notifications/initialized"
	}
	return ""
}
