package mcpotel

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/server"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

type kit struct {
	srv    *server.Server
	spans  *tracetest.SpanRecorder
	reader *sdkmetric.ManualReader
	tp     *sdktrace.TracerProvider
}

type echoArgs struct {
	Text string `json:"text" jsonschema:"required"`
}

func newKit(t testing.TB) *kit {
	t.Helper()
	k := &kit{spans: tracetest.NewSpanRecorder(), reader: sdkmetric.NewManualReader()}
	k.tp = sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(k.spans))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(k.reader))
	ic, err := Interceptor(Options{TracerProvider: k.tp, MeterProvider: mp})
	if err != nil {
		t.Fatal(err)
	}
	tools := []server.Tool{
		server.NewTool(server.ToolInfo{Name: "echo", InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`)},
			func(ctx context.Context, in echoArgs) (string, error) { return in.Text, nil }),
		server.NewTool(server.ToolInfo{Name: "fail", InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(ctx context.Context, in json.RawMessage) (string, error) { return "", io.ErrUnexpectedEOF }),
	}
	tools = append(tools, server.NewTool(server.ToolInfo{Name: "tick", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, in json.RawMessage) (string, error) {
			server.Progress(ctx, 1, 2, "half")
			return "ok", nil
		}))
	prompts := []server.Prompt{server.NewPrompt(server.PromptInfo{Name: "hello"}, func(ctx context.Context, in struct{}) (string, error) { return "hi", nil })}
	resources := []server.Resource{server.NewResource(server.ResourceInfo{URI: "test://a", Name: "a"}, func(ctx context.Context) (string, error) { return "A", nil })}
	k.srv, err = server.New(server.Options{
		Name: "otel-test", Version: "1", Tools: tools, Prompts: prompts, Resources: resources,
		Interceptors: []server.Interceptor{ic},
		Logger:       slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	return k
}

const modernMeta = `"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}`

func (k *kit) call(t testing.TB, id, method, params string) map[string]any {
	t.Helper()
	msg := `{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `","params":` + params + `}`
	resp := k.srv.HandleBytes(context.Background(), []byte(msg), nil)
	var m map[string]any
	if err := json.Unmarshal(resp.Body, &m); err != nil {
		t.Fatalf("%s: %v", resp.Body, err)
	}
	return m
}

func attrs(s sdktrace.ReadOnlySpan) map[attribute.Key]string {
	m := map[attribute.Key]string{}
	for _, kv := range s.Attributes() {
		m[kv.Key] = kv.Value.Emit()
	}
	return m
}

func TestSpansFollowTheConventions(t *testing.T) {
	k := newKit(t)
	const parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	ok := k.call(t, "1", "tools/call", `{"name":"echo","arguments":{"text":"hi"},"_meta":{`+modernMeta+`,"traceparent":"`+parent+`","tracestate":"rojo=00f067aa0ba902b7"}}`)
	k.call(t, `"req-2"`, "tools/call", `{"name":"nope","_meta":{`+modernMeta+`}}`)
	k.call(t, "3", "tools/call", `{"name":"fail","arguments":{},"_meta":{`+modernMeta+`}}`)
	k.call(t, "4", "prompts/get", `{"name":"hello","_meta":{`+modernMeta+`}}`)
	k.call(t, "5", "resources/read", `{"uri":"test://a","_meta":{`+modernMeta+`}}`)
	k.call(t, "6", "tools/list", `{"_meta":{`+modernMeta+`}}`)

	spans := k.spans.Ended()
	if len(spans) != 6 {
		t.Fatalf("%d spans", len(spans))
	}
	want := []struct {
		name string
		kv   map[attribute.Key]string
		err  string
	}{
		{"tools/call echo", map[attribute.Key]string{keyMethod: "tools/call", keyRequestID: "1", keyToolName: "echo", keyOperation: "execute_tool", keyProtocol: "2026-07-28"}, ""},
		{"tools/call", map[attribute.Key]string{keyRequestID: "req-2", keyToolName: "nope", keyErrorType: "-32602", keyRPCStatusCode: "-32602"}, "-32602"},
		{"tools/call fail", map[attribute.Key]string{keyToolName: "fail", keyErrorType: "tool_error"}, "tool_error"},
		{"prompts/get hello", map[attribute.Key]string{keyMethod: "prompts/get", keyPromptName: "hello"}, ""},
		{"resources/read", map[attribute.Key]string{keyMethod: "resources/read", keyResourceURI: "test://a"}, ""},
		{"tools/list", map[attribute.Key]string{keyMethod: "tools/list", keyRequestID: "6"}, ""},
	}
	for i, w := range want {
		s := spans[i]
		if s.Name() != w.name || s.SpanKind() != trace.SpanKindServer {
			t.Errorf("span %d: %q kind %v, want %q", i, s.Name(), s.SpanKind(), w.name)
		}
		got := attrs(s)
		for key, v := range w.kv {
			if got[key] != v {
				t.Errorf("span %q: %s = %q, want %q (all %v)", s.Name(), key, got[key], v, got)
			}
		}
		if _, has := got[keyErrorType]; has != (w.err != "") {
			t.Errorf("span %q: error.type %q", s.Name(), got[keyErrorType])
		}
		if (s.Status().Code == codes.Error) != (w.err != "") {
			t.Errorf("span %q: status %v", s.Name(), s.Status())
		}
	}
	if d := spans[1].Status().Description; !strings.Contains(d, "Unknown tool") {
		t.Errorf("status description %q", d)
	}
	// The parent is the _meta's trace context; the result's _meta names
	// the server span.
	first := spans[0]
	if first.Parent().TraceID().String() != "4bf92f3577b34da6a3ce929d0e0e4736" || first.Parent().SpanID().String() != "00f067aa0ba902b7" || !first.Parent().IsRemote() {
		t.Fatalf("parent %v", first.Parent())
	}
	if first.SpanContext().TraceState().String() != "rojo=00f067aa0ba902b7" {
		t.Errorf("tracestate %q", first.SpanContext().TraceState().String())
	}
	meta := ok["result"].(map[string]any)["_meta"].(map[string]any)
	wantTP := "00-4bf92f3577b34da6a3ce929d0e0e4736-" + first.SpanContext().SpanID().String() + "-01"
	if meta["traceparent"] != wantTP || meta["tracestate"] != "rojo=00f067aa0ba902b7" || meta["io.modelcontextprotocol/serverInfo"] == nil {
		t.Fatalf("result _meta %v, want traceparent %s", meta, wantTP)
	}
	if spans[5].Parent().IsValid() {
		t.Errorf("a request without trace context got parent %v", spans[5].Parent())
	}
}

// TestAmbientSpanIsLinked: a span already in the request's context (the
// transport's) is linked when _meta has a parent, and is the parent when
// it has none.
func TestAmbientSpanIsLinked(t *testing.T) {
	k := newKit(t)
	ctx, ambient := k.tp.Tracer("http").Start(context.Background(), "POST /mcp")
	msg := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{` + modernMeta + `,"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}}}`
	k.srv.HandleBytes(ctx, []byte(msg), nil)
	msg = `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{` + modernMeta + `}}}`
	k.srv.HandleBytes(ctx, []byte(msg), nil)
	ambient.End()
	spans := k.spans.Ended()
	if len(spans) != 3 {
		t.Fatalf("%d spans", len(spans))
	}
	linked := spans[0]
	if len(linked.Links()) != 1 || linked.Links()[0].SpanContext.SpanID() != ambient.SpanContext().SpanID() {
		t.Fatalf("links %v", linked.Links())
	}
	if linked.Parent().TraceID().String() != "4bf92f3577b34da6a3ce929d0e0e4736" {
		t.Fatalf("parent %v", linked.Parent())
	}
	if child := spans[1]; child.Parent().SpanID() != ambient.SpanContext().SpanID() || len(child.Links()) != 0 {
		t.Fatalf("without _meta: parent %v links %v", child.Parent(), child.Links())
	}
}

// TestLegacySessionSpans: an initialize-era HTTP session's requests are
// traced with mcp.session.id and the negotiated version.
func TestLegacySessionSpans(t *testing.T) {
	k := newKit(t)
	hs := httptest.NewServer(k.srv.HTTPHandler(server.HTTPOptions{}))
	defer hs.Close()
	post := func(body, session string) *http.Response {
		req, _ := http.NewRequest("POST", hs.URL, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
			req.Header.Set("MCP-Protocol-Version", "2025-06-18")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	resp := post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"old","version":"1"}}}`, "")
	sid := resp.Header.Get("Mcp-Session-Id")
	if sid == "" {
		t.Fatalf("no session: %v", resp.Status)
	}
	post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, sid)
	post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"},"_meta":{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}}}`, sid)
	spans := k.spans.Ended()
	if len(spans) != 2 {
		t.Fatalf("%d spans", len(spans))
	}
	for i, name := range []string{"initialize", "tools/call echo"} {
		a := attrs(spans[i])
		if spans[i].Name() != name || a[keySessionID] != sid || a[keyProtocol] != "2025-06-18" {
			t.Errorf("span %d: %q %v", i, spans[i].Name(), a)
		}
	}
	if spans[1].Parent().TraceID().String() != "4bf92f3577b34da6a3ce929d0e0e4736" {
		t.Errorf("legacy parent %v", spans[1].Parent())
	}
}

func collect(t *testing.T, r *sdkmetric.ManualReader) map[string]metricdata.Aggregation {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := r.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	out := map[string]metricdata.Aggregation{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			out[m.Name] = m.Data
		}
	}
	return out
}

func TestMetrics(t *testing.T) {
	k := newKit(t)
	k.call(t, "1", "tools/call", `{"name":"echo","arguments":{"text":"hi"},"_meta":{`+modernMeta+`}}`)
	k.call(t, "2", "tools/call", `{"name":"echo","arguments":{"text":"hi"},"_meta":{`+modernMeta+`}}`)
	k.call(t, "3", "tools/call", `{"name":"nope","_meta":{`+modernMeta+`}}`)

	// A listen stream stays open until its context ends.
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		msg := `{"jsonrpc":"2.0","id":9,"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},"_meta":{` + modernMeta + `}}}`
		k.srv.HandleBytes(ctx, []byte(msg), noteSink{})
	}()
	var open int64
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if s, ok := collect(t, k.reader)["mcp.server.active_listen_streams"].(metricdata.Sum[int64]); ok && len(s.DataPoints) == 1 {
			if open = s.DataPoints[0].Value; open == 1 {
				break
			}
		}
	}
	if open != 1 {
		t.Fatalf("open listen streams %d", open)
	}
	if s := collect(t, k.reader)["mcp.server.active_requests"].(metricdata.Sum[int64]); sumOf(s) != 1 {
		t.Fatalf("in flight while listening: %+v", s.DataPoints)
	}
	cancel()
	<-done

	m := collect(t, k.reader)
	if s := m["mcp.server.active_listen_streams"].(metricdata.Sum[int64]); s.DataPoints[0].Value != 0 || s.IsMonotonic {
		t.Fatalf("listen streams after: %+v", s)
	}
	if s := m["mcp.server.active_requests"].(metricdata.Sum[int64]); sumOf(s) != 0 {
		t.Fatalf("in flight after: %+v", s.DataPoints)
	}
	h := m["mcp.server.operation.duration"].(metricdata.Histogram[float64])
	var calls, errs uint64
	for _, dp := range h.DataPoints {
		method, _ := dp.Attributes.Value(keyMethod)
		if method.AsString() != "tools/call" {
			continue
		}
		if tool, _ := dp.Attributes.Value(keyToolName); tool.AsString() == "" {
			t.Errorf("no gen_ai.tool.name: %v", dp.Attributes)
		}
		if _, has := dp.Attributes.Value(keyResourceURI); has {
			t.Errorf("resource URI on the metric")
		}
		calls += dp.Count
		if et, ok := dp.Attributes.Value(keyErrorType); ok {
			errs += dp.Count
			if et.AsString() != "-32602" {
				t.Errorf("error.type %q", et.AsString())
			}
		}
		if len(dp.Bounds) != len(durationBuckets) || dp.Bounds[0] != 0.01 {
			t.Errorf("bounds %v", dp.Bounds)
		}
	}
	if calls != 3 || errs != 1 {
		t.Fatalf("tools/call count %d, errors %d", calls, errs)
	}
}

func sumOf(s metricdata.Sum[int64]) int64 {
	var n int64
	for _, dp := range s.DataPoints {
		n += dp.Value
	}
	return n
}

type noteSink struct{}

func (noteSink) Notify(string, any) error { return nil }

func TestWithTraceContext(t *testing.T) {
	in := &instruments{prop: (&Options{}).propagator()}
	ctx := trace.ContextWithSpanContext(context.Background(), trace.NewSpanContext(trace.SpanContextConfig{
		TraceID: [16]byte{1}, SpanID: [8]byte{2}, TraceFlags: trace.FlagsSampled,
	}))
	tp := `"traceparent":"00-01000000000000000000000000000000-0200000000000000-01"`
	for _, c := range []struct{ in, want string }{
		{`{"a":1}`, `{"_meta":{` + tp + `},"a":1}`},
		{`{}`, `{"_meta":{` + tp + `}}`},
		{`{"a":1,"_meta":{"x":2}}`, `{"a":1,"_meta":{` + tp + `,"x":2}}`},
		{`{"_meta":{}}`, `{"_meta":{` + tp + `}}`},
		{`{"_meta":{"traceparent":"keep"}}`, `{"_meta":{"traceparent":"keep"}}`},
		{`{"_meta":5}`, `{"_meta":5}`},
		{`[1]`, `[1]`},
	} {
		got := string(withTraceContext(json.RawMessage(c.in), in.traceContext(ctx)))
		if got != c.want {
			t.Errorf("%s: %s, want %s", c.in, got, c.want)
		}
		if strings.HasPrefix(c.want, "{") && !json.Valid([]byte(got)) {
			t.Errorf("%s: invalid %s", c.in, got)
		}
	}
}

type noteRecorder struct{ params []json.RawMessage }

func (r *noteRecorder) Notify(method string, params any) error {
	r.params = append(r.params, append(json.RawMessage(nil), params.(json.RawMessage)...))
	return nil
}

// TestNotificationsCarryTheSpan: a progress notification sent while the
// request is handled carries the server span's traceparent in its _meta.
func TestNotificationsCarryTheSpan(t *testing.T) {
	k := newKit(t)
	w := &noteRecorder{}
	msg := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"tick","arguments":{},"_meta":{` + modernMeta + `,"progressToken":5,"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}}}`
	k.srv.HandleBytes(context.Background(), []byte(msg), w)
	spans := k.spans.Ended()
	if len(spans) != 1 || len(w.params) != 1 {
		t.Fatalf("%d spans, notifications %s", len(spans), w.params)
	}
	var p struct {
		Meta map[string]string `json:"_meta"`
	}
	if err := json.Unmarshal(w.params[0], &p); err != nil {
		t.Fatal(err)
	}
	want := "00-4bf92f3577b34da6a3ce929d0e0e4736-" + spans[0].SpanContext().SpanID().String() + "-01"
	if p.Meta["traceparent"] != want {
		t.Fatalf("progress _meta %v, want traceparent %s", p.Meta, want)
	}
}

// A panic in an interceptor after this one (the server answers -32603:
// README, Panics, "and so is the interceptor chain as a whole") still
// ends the request's span, with error.type -32603, and takes the request
// out of mcp.server.active_requests; the panic goes on to the server's
// recovery.
func TestPanickingInnerInterceptorEndsSpanAndCounter(t *testing.T) {
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
	if spans := k.spans.Ended(); len(spans) != 1 {
		t.Errorf("%d spans ended for the request, want 1", len(spans))
	} else if a := attrs(spans[0]); spans[0].Status().Code != codes.Error || a[keyErrorType] != "-32603" {
		t.Errorf("span of the panicking request: status %v, error.type %q", spans[0].Status(), a[keyErrorType])
	}
	if s, ok := collect(t, k.reader)["mcp.server.active_requests"].(metricdata.Sum[int64]); !ok || sumOf(s) != 0 {
		t.Errorf("mcp.server.active_requests after the request was answered: %+v, want 0", s.DataPoints)
	}
}
