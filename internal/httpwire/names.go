package httpwire

// Header names of the Streamable HTTP request metadata. Header names compare
// case-insensitively (RFC 9110); these are the spellings the spec uses.
const (
	// HeaderProtocolVersion carries the request's protocol version; it must
	// equal _meta["io.modelcontextprotocol/protocolVersion"].
	HeaderProtocolVersion = "MCP-Protocol-Version"
	// HeaderMethod mirrors the JSON-RPC method.
	HeaderMethod = "Mcp-Method"
	// HeaderName mirrors params.name (tools/call, prompts/get), params.uri
	// (resources/read) or params.taskId (tasks/get|update|cancel).
	HeaderName = "Mcp-Name"
	// ParamHeaderPrefix prefixes the headers that mirror tool arguments
	// annotated with x-mcp-header: "Mcp-Param-" + annotation value.
	ParamHeaderPrefix = "Mcp-Param-"
)

// ProtocolVersion is the protocol revision this package implements.
const ProtocolVersion = "2026-07-28"

// JSON-RPC error codes used by this package (basic/index.mdx, schema.json).
const (
	CodeParseError                 int64 = -32700
	CodeInvalidRequest             int64 = -32600
	CodeMethodNotFound             int64 = -32601
	CodeInvalidParams              int64 = -32602
	CodeInternalError              int64 = -32603
	CodeHeaderMismatch             int64 = -32020
	CodeMissingClientCapability    int64 = -32021
	CodeUnsupportedProtocolVersion int64 = -32022
)

// NameField reports which params field the Mcp-Name header mirrors for
// method: "name" for tools/call and prompts/get, "uri" for resources/read,
// "taskId" for tasks/get, tasks/update and tasks/cancel (the tasks
// extension, SEP-2663). ok is false for every other method, which carries
// no Mcp-Name header.
func NameField(method string) (field string, ok bool) {
	switch method {
	case "tools/call", "prompts/get":
		return "name", true
	case "resources/read":
		return "uri", true
	case "tasks/get", "tasks/update", "tasks/cancel":
		return "taskId", true
	}
	return "", false
}
