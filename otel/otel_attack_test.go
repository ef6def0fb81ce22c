package mcpotel

import (
	"strings"
	"testing"
)

// A client-chosen resource URI and request id are recorded on the span
// unbounded. The package's own contract (spanAttrs: "the method and target
// as the client sent them (bounded in length)"; README "Middleware and
// observability": "spans keep the names as sent, cut to 256 bytes") bounds
// what a client writes into a span: the default SDK has no attribute length
// limit, so each request's 64 KiB URI (or id) is held by every span
// processor and exporter.
func TestAttackSpanResourceURIUnbounded(t *testing.T) {
	k := newKit(t)
	huge := "test://" + strings.Repeat("a", 64<<10)
	k.call(t, "1", "resources/read", `{"uri":"`+huge+`","_meta":{`+modernMeta+`}}`)
	spans := k.spans.Ended()
	if len(spans) != 1 {
		t.Fatalf("%d spans", len(spans))
	}
	if got := attrs(spans[0])[keyResourceURI]; len(got) > maxSpanValue {
		t.Fatalf("mcp.resource.uri is %d bytes, want at most %d", len(got), maxSpanValue)
	}
}

func TestAttackSpanRequestIDUnbounded(t *testing.T) {
	k := newKit(t)
	id := `"` + strings.Repeat("i", 64<<10) + `"`
	k.call(t, id, "tools/list", `{"_meta":{`+modernMeta+`}}`)
	spans := k.spans.Ended()
	if len(spans) != 1 {
		t.Fatalf("%d spans", len(spans))
	}
	if got := attrs(spans[0])[keyRequestID]; len(got) > maxSpanValue {
		t.Fatalf("jsonrpc.request.id is %d bytes, want at most %d", len(got), maxSpanValue)
	}
}
