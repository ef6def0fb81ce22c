package server

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/internal/metamember"
)

type outgoingMetaKey struct{}

// WithOutgoingMeta returns a context under which the messages the server
// sends for the request being handled carry members in their _meta: its
// progress and log notifications and, in a legacy session, its requests
// to the client (elicitation/create, sampling/createMessage, roots/list).
// A listen stream's notifications belong to the stream, not to one
// request, and are sent as they are; a message whose _meta already has one
// of the keys keeps its own. An Interceptor passes such a context to next
// (only the interceptor chain's context is read); the otel module writes
// the server span's traceparent and tracestate this way, as the
// OpenTelemetry conventions for MCP ask of whoever creates a request or
// notification.
func WithOutgoingMeta(ctx context.Context, members map[string]string) context.Context {
	if len(members) == 0 {
		return ctx
	}
	ms := make([]metamember.Member, 0, len(members))
	for k, v := range members {
		ms = append(ms, metamember.Member{Key: k, Value: v})
	}
	slices.SortFunc(ms, func(a, b metamember.Member) int { return strings.Compare(a.Key, b.Key) })
	return context.WithValue(ctx, outgoingMetaKey{}, ms)
}

// outgoingMeta returns the members WithOutgoingMeta put in ctx.
func outgoingMeta(ctx context.Context) []metamember.Member {
	ms, _ := ctx.Value(outgoingMetaKey{}).([]metamember.Member)
	return ms
}

// withOutgoingMeta returns params (a JSON object; nil is {}) with the
// context's outgoing _meta members, params itself when there are none.
func (s *Server) withOutgoingMeta(ctx context.Context, params json.RawMessage) json.RawMessage {
	if s.chain == nil || ctx == nil { // only interceptors set them
		return params
	}
	ms := outgoingMeta(ctx)
	if len(ms) == 0 {
		return params
	}
	if params == nil {
		params = json.RawMessage("{}")
	}
	return metamember.Add(params, ms)
}
