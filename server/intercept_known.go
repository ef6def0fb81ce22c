package server

import "github.com/mcpgen/mcpgen/generated/mcp"

// KnownMethod reports whether the request's Method is one the server
// knows: a request or notification of the protocol (any revision it
// speaks, including those 2026-07-28 removed), a method of one of its
// extensions (tasks included), or one its Options.Handlers take over. A
// client chooses the method freely; an interceptor that records it where
// every distinct value costs (a metric attribute, a log index) records
// the unknown ones under one placeholder, as the otel module does.
func (r *Request) KnownMethod() bool {
	if coreMethod(r.Method) {
		return true
	}
	if r.s == nil {
		return false
	}
	return r.s.extensions.methods[r.Method] != nil || r.s.handles(r.Method)
}

// KnownName reports whether the request's Name is a tool (tools/call) or
// a prompt (prompts/get) registered on the server now; false for every
// other method (resource URIs and task ids have no bound) and for a tool
// or prompt only an Options.Handlers value answers. Like KnownMethod it
// lets an interceptor keep names the client chose out of low-cardinality
// records.
func (r *Request) KnownName() bool {
	if r.s == nil || r.Name == "" {
		return false
	}
	switch r.Method {
	case mcp.MethodToolsCall:
		return r.s.tools.catalog.get(r.Name) != nil
	case mcp.MethodPromptsGet:
		return r.s.prompts.catalog.get(r.Name) != nil
	}
	return false
}
