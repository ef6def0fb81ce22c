package mcpotel

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mcpgen/mcpgen/server"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// BenchmarkToolsCall is the server's benchmark call (a weather-like
// tool, in process through HandleBytes) without and with the OTel
// interceptor, on the real SDK: every span sampled and ended (no
// exporter), metrics aggregated by a ManualReader. The difference is the
// interceptor's cost per call.
func BenchmarkToolsCall(b *testing.B) {
	for _, withOTel := range []bool{false, true} {
		name := "none"
		if withOTel {
			name = "otel"
		}
		b.Run(name, func(b *testing.B) {
			var ics []server.Interceptor
			if withOTel {
				tp := sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.AlwaysSample()))
				mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
				ic, err := Interceptor(Options{TracerProvider: tp, MeterProvider: mp})
				if err != nil {
					b.Fatal(err)
				}
				ics = []server.Interceptor{ic}
			}
			tool := server.NewTool(server.ToolInfo{Name: "weather_current", InputSchema: json.RawMessage(`{"type":"object","properties":{"location":{"type":"string"},"units":{"type":"string"}},"required":["location"]}`)},
				func(ctx context.Context, in struct {
					Location string `json:"location"`
					Units    string `json:"units"`
				}) (string, error) {
					return in.Location + ": 21.5 " + in.Units, nil
				})
			s, err := server.New(server.Options{Name: "bench", Version: "1", Tools: []server.Tool{tool}, Interceptors: ics})
			if err != nil {
				b.Fatal(err)
			}
			msg := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"},"name":"weather_current","arguments":{"location":"Paris","units":"metric"}}}`)
			ctx := context.Background()
			if resp := s.HandleBytes(ctx, msg, nil); resp.Code != 0 {
				b.Fatalf("%s", resp.Body)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s.HandleBytes(ctx, msg, nil)
			}
		})
	}
}
