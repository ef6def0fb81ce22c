package mcpotel

import (
	"context"
	"encoding/json"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
	"github.com/mcpgen/mcpgen/internal/metamember"
	"go.opentelemetry.io/otel/propagation"
)

// The trace context keys of params._meta (basic/index.mdx: reserved for
// OpenTelemetry, unprefixed, W3C formats).
var metaKeys = []string{"traceparent", "tracestate", "baggage"}

// metaCarrier reads the trace context members of a request's _meta (only
// string values; nil when there are none).
func metaCarrier(meta json.RawMessage) propagation.MapCarrier {
	if len(meta) == 0 {
		return nil
	}
	var c propagation.MapCarrier
	jsonscan.EachMember(meta, func(key, value []byte) {
		for _, k := range metaKeys {
			if jsonscan.KeyEquals(key, k) {
				if s, ok := jsonscan.String(value); ok && s != "" {
					if c == nil {
						c = propagation.MapCarrier{}
					}
					c[k] = s
				}
			}
		}
	})
	return c
}

// traceContext is the trace context of ctx as _meta members: traceparent
// and tracestate (the client's baggage is not echoed back).
func (in *instruments) traceContext(ctx context.Context) map[string]string {
	carrier := propagation.MapCarrier{}
	in.prop.Inject(ctx, carrier)
	delete(carrier, "baggage")
	return carrier
}

// withTraceContext writes members into the _meta of the encoded result
// (creating _meta when it has none); a result whose _meta already carries
// one of them, or that is not an object, is returned as it is.
func withTraceContext(result json.RawMessage, members map[string]string) json.RawMessage {
	ms := make([]metamember.Member, 0, len(members))
	for _, k := range metaKeys {
		if v, ok := members[k]; ok {
			ms = append(ms, metamember.Member{Key: k, Value: v})
		}
	}
	return metamember.Add(result, ms)
}
