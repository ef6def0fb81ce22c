package mcpotel

import (
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/server"
	"go.opentelemetry.io/otel/attribute"
)

// otherValue stands for a method, tool or prompt the server does not know
// on the metrics and in span names: the client chooses these strings
// freely, and each distinct value would be a time series of its own (the
// placeholder the OpenTelemetry conventions use for an unknown
// http.request.method or rpc.method).
const otherValue = "_OTHER"

// maxSpanValue bounds, in bytes, the method, tool and prompt names a span
// records as the client sent them.
const maxSpanValue = 256

// names are a request's method and target as the metrics and the span
// name record them: as sent when the server knows them, else otherValue.
type names struct {
	method    string
	targetKey attribute.Key // gen_ai.tool.name or gen_ai.prompt.name; "" for none
	target    string
}

// boundedNames returns the low-cardinality names of req.
func boundedNames(req *server.Request) names {
	n := names{method: otherValue}
	if !req.KnownMethod() {
		return n
	}
	n.method = req.Method
	if req.Name == "" {
		return n
	}
	switch req.Method {
	case methodToolsCall:
		n.targetKey = keyToolName
	case methodPromptsGet:
		n.targetKey = keyPromptName
	default:
		return n
	}
	n.target = otherValue
	if req.KnownName() {
		n.target = req.Name
	}
	return n
}

// spanName is "{mcp.method.name} {target}" with a known tool or prompt as
// the target, else the method (otherValue for an unknown one).
func (n names) spanName() string {
	if n.targetKey != "" && n.target != otherValue {
		return n.method + " " + n.target
	}
	return n.method
}

// metricAttrs are the attributes of mcp.server.operation.duration that
// the request fixes: the method, the tool or prompt, and for tools/call
// the GenAI operation (the outcome adds the others).
func (n names) metricAttrs() []attribute.KeyValue {
	attrs := make([]attribute.KeyValue, 0, 6) // with the outcome's three
	attrs = append(attrs, keyMethod.String(n.method))
	if n.targetKey != "" {
		attrs = append(attrs, n.targetKey.String(n.target))
		if n.targetKey == keyToolName {
			attrs = append(attrs, keyOperation.String(operationExecTool))
		}
	}
	return attrs
}

// truncate cuts s to at most maxSpanValue bytes, at a rune boundary.
func truncate(s string) string {
	if len(s) <= maxSpanValue {
		return s
	}
	cut := maxSpanValue
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}
