package mcpotel

import (
	"fmt"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/sdk/metric/metricdata"
)

// durationSeries returns the attribute sets of the
// mcp.server.operation.duration histogram's data points.
func durationSeries(t *testing.T, k *kit) []metricdata.HistogramDataPoint[float64] {
	t.Helper()
	h, ok := collect(t, k.reader)["mcp.server.operation.duration"].(metricdata.Histogram[float64])
	if !ok {
		t.Fatal("no mcp.server.operation.duration histogram")
	}
	return h.DataPoints
}

// The duration histogram carries only low-cardinality attributes: a
// client chooses the tool name of a tools/call freely, so unknown names
// share one series (_OTHER) instead of one each. Were each a series, a
// client flooding unknown names would push the server's real tools past
// the SDK's default cardinality limit (2000) into the overflow series.
func TestUnknownToolNamesDoNotFloodMetricSeries(t *testing.T) {
	k := newKit(t)
	for i := range 2100 {
		k.call(t, fmt.Sprint(i), "tools/call", fmt.Sprintf(`{"name":"no-such-tool-%d","arguments":{},"_meta":{%s}}`, i, modernMeta))
	}
	k.call(t, "9999", "tools/call", `{"name":"echo","arguments":{"text":"hi"},"_meta":{`+modernMeta+`}}`)
	dps := durationSeries(t, k)
	found := false
	for _, dp := range dps {
		if v, ok := dp.Attributes.Value(keyToolName); ok && v.AsString() == "echo" {
			found = true
		}
	}
	if len(dps) > 100 {
		t.Errorf("2100 calls of unknown tools made %d series of mcp.server.operation.duration; the documented attributes are low cardinality", len(dps))
	}
	if !found {
		t.Errorf("after the flood, the registered tool echo has no series of its own (its duration went to the overflow series)")
	}
}

// The same with JSON-RPC method names: the unknown methods a client sends
// (answered -32601) share mcp.method.name _OTHER on the histogram and on
// mcp.server.active_requests.
func TestUnknownMethodsDoNotFloodMetricSeries(t *testing.T) {
	k := newKit(t)
	for i := range 2100 {
		k.call(t, fmt.Sprint(i), fmt.Sprintf("x/m%d", i), `{"_meta":{`+modernMeta+`}}`)
	}
	k.call(t, "9999", "tools/list", `{"_meta":{`+modernMeta+`}}`)
	dps := durationSeries(t, k)
	found := false
	for _, dp := range dps {
		if v, ok := dp.Attributes.Value(keyMethod); ok && v.AsString() == "tools/list" {
			found = true
		}
	}
	if len(dps) > 100 {
		t.Errorf("2100 unknown methods made %d series of mcp.server.operation.duration", len(dps))
	}
	if !found {
		t.Errorf("after the flood, tools/list has no series of its own (its duration went to the overflow series)")
	}
}

// The same with mcp.protocol.version: a request whose _meta names a
// version the server does not support is answered -32022 and recorded
// without mcp.protocol.version (the string is any the client chose).
func TestUnsupportedVersionsDoNotFloodMetricSeries(t *testing.T) {
	k := newKit(t)
	for i := range 2100 {
		k.call(t, fmt.Sprint(i), "tools/list", fmt.Sprintf(`{"_meta":{"io.modelcontextprotocol/protocolVersion":"v-%d","io.modelcontextprotocol/clientCapabilities":{}}}`, i))
	}
	k.call(t, "9999", "tools/list", `{"_meta":{`+modernMeta+`}}`)
	dps := durationSeries(t, k)
	found := false
	for _, dp := range dps {
		if v, ok := dp.Attributes.Value(keyProtocol); ok && v.AsString() == "2026-07-28" {
			found = true
		}
	}
	if len(dps) > 100 {
		t.Errorf("2100 requests naming unsupported versions made %d series of mcp.server.operation.duration", len(dps))
	}
	if !found {
		t.Errorf("after the flood, a supported 2026-07-28 request has no series of its own (overflow)")
	}
}

// A tools/call of an unknown tool is recorded on the metric as _OTHER (one
// series for all of them); its span is named after the method alone and
// keeps the name the client sent, cut to maxSpanValue bytes.
func TestUnknownToolIsOtherOnMetricsAndBoundedOnSpans(t *testing.T) {
	k := newKit(t)
	long := strings.Repeat("é", 300) // 600 bytes
	k.call(t, "1", "tools/call", `{"name":"no-such-tool","arguments":{},"_meta":{`+modernMeta+`}}`)
	k.call(t, "2", "tools/call", `{"name":"`+long+`","arguments":{},"_meta":{`+modernMeta+`}}`)
	k.call(t, "3", "x/unknown", `{"_meta":{`+modernMeta+`}}`)

	var other uint64
	for _, dp := range durationSeries(t, k) {
		if v, ok := dp.Attributes.Value(keyToolName); ok && v.AsString() == otherValue {
			other += dp.Count
		}
		if v, _ := dp.Attributes.Value(keyMethod); v.AsString() == "x/unknown" {
			t.Errorf("the unknown method is on the metric: %v", dp.Attributes)
		}
	}
	if other != 2 {
		t.Errorf("%d calls recorded with gen_ai.tool.name %q, want 2", other, otherValue)
	}
	spans := k.spans.Ended()
	if len(spans) != 3 {
		t.Fatalf("%d spans", len(spans))
	}
	for i, want := range []struct{ name, tool, method string }{
		{"tools/call", "no-such-tool", "tools/call"},
		{"tools/call", strings.Repeat("é", maxSpanValue/2), "tools/call"},
		{otherValue, "", "x/unknown"},
	} {
		a := attrs(spans[i])
		if spans[i].Name() != want.name || a[keyToolName] != want.tool || a[keyMethod] != want.method {
			t.Errorf("span %d: %q %s=%q %s=%q, want %q %q %q", i, spans[i].Name(), keyToolName, a[keyToolName], keyMethod, a[keyMethod], want.name, want.tool, want.method)
		}
	}
}
