package mcpotel

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"testing"

	"github.com/mcpgen/mcpgen/server"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

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
