package mcpotel

import (
	"context"
	"encoding/json"
	"sort"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
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

// withTraceContext writes the span context of ctx into the _meta of the
// encoded result (creating _meta when it has none); a result whose _meta
// already carries one of the keys, or that is not an object, is returned
// as it is.
func (in *instruments) withTraceContext(ctx context.Context, result json.RawMessage) json.RawMessage {
	carrier := propagation.MapCarrier{}
	in.prop.Inject(ctx, carrier)
	delete(carrier, "baggage") // the client's own baggage: not echoed back
	if len(carrier) == 0 {
		return result
	}
	keys := make([]string, 0, len(carrier))
	for k := range carrier {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var members []byte
	for _, k := range keys {
		members = append(members, '"')
		members = append(members, k...)
		members = append(members, `":`...)
		v, _ := json.Marshal(carrier[k])
		members = append(members, v...)
		members = append(members, ',')
	}

	metaAt, taken, isObject := -1, false, false
	ok := jsonscan.EachMember(result, func(key, value []byte) {
		if !jsonscan.KeyEquals(key, "_meta") {
			return
		}
		if jsonscan.Kind(value) != '{' {
			taken = true // a _meta that is not an object: leave it
			return
		}
		jsonscan.EachMember(value, func(k, _ []byte) {
			for _, mk := range metaKeys {
				if jsonscan.KeyEquals(k, mk) {
					taken = true
				}
			}
		})
		// value is a subslice of result: its offset is what the
		// capacities differ by.
		metaAt = cap(result) - cap(value)
		isObject = true
	})
	if !ok || taken {
		return result
	}
	out := make([]byte, 0, len(result)+len(members)+12)
	if isObject {
		at := metaAt + 1 // after the _meta's '{'
		rest := jsonscan.TrimSpace(result[at:])
		if len(rest) > 0 && rest[0] == '}' {
			members = members[:len(members)-1] // an empty _meta: no trailing comma
		}
		out = append(out, result[:at]...)
		out = append(out, members...)
		return append(out, result[at:]...)
	}
	open := jsonscan.SkipSpace(result, 0) + 1 // after the result's '{'
	rest := jsonscan.TrimSpace(result[open:])
	out = append(out, result[:open]...)
	out = append(out, `"_meta":{`...)
	out = append(out, members[:len(members)-1]...)
	out = append(out, '}')
	if len(rest) > 0 && rest[0] != '}' {
		out = append(out, ',')
	}
	return append(out, result[open:]...)
}
