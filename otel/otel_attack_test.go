package mcpotel

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"testing"

	"github.com/mcpgen/mcpgen/server"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
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

// The package documentation promises that the duration histogram carries
// only "the attributes above that have low cardinality: mcp.method.name,
// error.type, rpc.response.status_code, gen_ai.tool.name, …". A client
// chooses the tool name of a tools/call freely, registered or not: each
// unknown name becomes a new time series. With the SDK's default
// cardinality limit (2000) a client flooding unknown names pushes the
// server's real tools into the overflow series, so their metrics are lost.
func TestAttackUnknownToolNamesDoNotFloodMetricSeries(t *testing.T) {
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

// The same with JSON-RPC method names: every unknown method the client
// sends (answered -32601) is a new mcp.method.name value on the histogram
// and on mcp.server.active_requests.
func TestAttackUnknownMethodsDoNotFloodMetricSeries(t *testing.T) {
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
// version the server does not support is answered -32022, yet the
// requested string (any string the client chose) becomes the
// mcp.protocol.version of its span and of a new histogram series.
func TestAttackUnsupportedVersionsDoNotFloodMetricSeries(t *testing.T) {
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

// The package documentation: "Put it first in server.Options.Interceptors
// so that its span covers the other interceptors", and it promises "one
// SERVER span per request" and mcp.server.active_requests as "requests in
// flight". The server recovers a panic of the chain as a whole (README,
// Panics: "and so is the interceptor chain as a whole"), so a panicking
// interceptor after this one is answered -32603 and the server goes on;
// but this interceptor ends its span and decrements the counter only when
// next returns, so the request's span is never ended (never exported) and
// mcp.server.active_requests stays at 1 for good.
func TestAttackPanickingInnerInterceptorEndsSpanAndCounter(t *testing.T) {
	k := &kit{spans: tracetest.NewSpanRecorder(), reader: sdkmetric.NewManualReader()}
	k.tp = sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(k.spans))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(k.reader))
	ic, err := Interceptor(Options{TracerProvider: k.tp, MeterProvider: mp})
	if err != nil {
		t.Fatal(err)
	}
	boom := func(next server.Handler) server.Handler {
		return func(ctx context.Context, req *server.Request) (json.RawMessage, error) {
			if req.Method == "tools/list" {
				panic("interceptor bug")
			}
			return next(ctx, req)
		}
	}
	k.srv, err = server.New(server.Options{Name: "otel-test", Version: "1",
		Interceptors: []server.Interceptor{ic, boom},
		Logger:       slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	r := k.call(t, "1", "tools/list", `{"_meta":{`+modernMeta+`}}`)
	if e, _ := r["error"].(map[string]any); e == nil || e["code"] != float64(-32603) {
		t.Fatalf("answer %v, want -32603", r)
	}
	if n := len(k.spans.Ended()); n != 1 {
		t.Errorf("%d spans ended for the request, want 1", n)
	}
	if s, ok := collect(t, k.reader)["mcp.server.active_requests"].(metricdata.Sum[int64]); !ok || sumOf(s) != 0 {
		t.Errorf("mcp.server.active_requests after the request was answered: %+v, want 0", s.DataPoints)
	}
}
