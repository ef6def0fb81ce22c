package mcpotel

import (
	"strings"
	"testing"
)

// A client-chosen resource URI is recorded on the span unbounded (Request.
// Name is the URI for resources/read; KnownName: "resource URIs ... have no
// bound"). The package's own contract (spanAttrs: "the method and target
// as the client sent them (bounded in length)"; README "Middleware and
// observability": "spans keep the names as sent, cut to 256 bytes") bounds
// what a client writes into a span: the default SDK has no attribute length
// limit, so each request's 64 KiB URI is held by every span
// processor and exporter.
func TestSpanResourceURIIsCut(t *testing.T) {
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

// README "Middleware and observability": "spans keep the names as sent,
// cut to 256 bytes" — the tool name on gen_ai.tool.name is cut, but the
// same name reaches the span whole in its status description, the error
// message "Unknown tool: <name>" (and an unknown method whole in "Method
// not found: <method>"), so a client still writes 64 KiB of its choosing
// into every span.
func TestSpanStatusDescriptionIsCut(t *testing.T) {
	k := newKit(t)
	name := strings.Repeat("n", 64<<10)
	k.call(t, "1", "tools/call", `{"name":"`+name+`","arguments":{},"_meta":{`+modernMeta+`}}`)
	k.call(t, "2", strings.Repeat("m", 64<<10), `{"_meta":{`+modernMeta+`}}`)
	spans := k.spans.Ended()
	if len(spans) != 2 {
		t.Fatalf("%d spans", len(spans))
	}
	for _, s := range spans {
		if got := attrs(s)[keyToolName]; len(got) > maxSpanValue {
			t.Errorf("gen_ai.tool.name %d bytes", len(got))
		}
		if d := s.Status().Description; len(d) > 2*maxSpanValue {
			t.Errorf("span %q: status description is %d bytes (the client's name uncut); names are cut to %d", s.Name(), len(d), maxSpanValue)
		}
	}
}
