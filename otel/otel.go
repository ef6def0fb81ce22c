package mcpotel

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/mcpgen/mcpgen/jsonrpc"
	"github.com/mcpgen/mcpgen/server"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// instrumentationName names the tracer and the meter.
const instrumentationName = "github.com/mcpgen/mcpgen/otel"

// Attribute keys of the MCP semantic conventions (and the general ones
// they use).
const (
	keyMethod         = attribute.Key("mcp.method.name")
	keySessionID      = attribute.Key("mcp.session.id")
	keyProtocol       = attribute.Key("mcp.protocol.version")
	keyResourceURI    = attribute.Key("mcp.resource.uri")
	keyRequestID      = attribute.Key("jsonrpc.request.id")
	keyToolName       = attribute.Key("gen_ai.tool.name")
	keyPromptName     = attribute.Key("gen_ai.prompt.name")
	keyOperation      = attribute.Key("gen_ai.operation.name")
	keyErrorType      = attribute.Key("error.type")
	keyRPCStatusCode  = attribute.Key("rpc.response.status_code")
	operationExecTool = "execute_tool"
	errorTypeTool     = "tool_error"
)

// durationBuckets are the conventions' bucket boundaries of
// mcp.server.operation.duration, in seconds.
var durationBuckets = []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300}

// Options configure Interceptor. The zero value uses the global providers
// and W3C Trace Context plus Baggage.
type Options struct {
	// TracerProvider creates the spans (default otel.GetTracerProvider()).
	TracerProvider trace.TracerProvider
	// MeterProvider creates the instruments (default
	// otel.GetMeterProvider()).
	MeterProvider metric.MeterProvider
	// Propagator reads the trace context from params._meta and writes the
	// server span's into the result's _meta (default W3C Trace Context and
	// Baggage).
	Propagator propagation.TextMapPropagator
	// NoResultTraceContext leaves the _meta of results, notifications and
	// server-to-client requests alone.
	NoResultTraceContext bool
}

// Interceptor returns the tracing and metrics interceptor described in
// the package documentation. Put it first in server.Options.Interceptors
// so that its span covers the other interceptors.
func Interceptor(opts Options) (server.Interceptor, error) {
	tp := opts.TracerProvider
	if tp == nil {
		tp = otel.GetTracerProvider()
	}
	mp := opts.MeterProvider
	if mp == nil {
		mp = otel.GetMeterProvider()
	}
	prop := opts.propagator()
	meter := mp.Meter(instrumentationName)
	duration, err := meter.Float64Histogram("mcp.server.operation.duration",
		metric.WithUnit("s"),
		metric.WithDescription("MCP request duration as observed on the receiver from the time it was received until the result or ack is sent."),
		metric.WithExplicitBucketBoundaries(durationBuckets...))
	if err != nil {
		return nil, err
	}
	active, err := meter.Int64UpDownCounter("mcp.server.active_requests",
		metric.WithUnit("{request}"), metric.WithDescription("MCP requests being handled."))
	if err != nil {
		return nil, err
	}
	streams, err := meter.Int64UpDownCounter("mcp.server.active_listen_streams",
		metric.WithUnit("{stream}"), metric.WithDescription("Open subscriptions/listen streams."))
	if err != nil {
		return nil, err
	}
	in := &instruments{
		tracer:   tp.Tracer(instrumentationName),
		prop:     prop,
		inject:   !opts.NoResultTraceContext,
		duration: duration,
		active:   active,
		streams:  streams,
	}
	return in.intercept, nil
}

// propagator is Options.Propagator or W3C Trace Context plus Baggage.
func (opts *Options) propagator() propagation.TextMapPropagator {
	if opts.Propagator != nil {
		return opts.Propagator
	}
	return propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})
}

type instruments struct {
	tracer   trace.Tracer
	prop     propagation.TextMapPropagator
	inject   bool
	duration metric.Float64Histogram
	active   metric.Int64UpDownCounter
	streams  metric.Int64UpDownCounter
}

func (in *instruments) intercept(next server.Handler) server.Handler {
	return func(ctx context.Context, req *server.Request) (json.RawMessage, error) {
		start := time.Now()
		bounded := boundedNames(req)
		methodSet := metric.WithAttributeSet(attribute.NewSet(keyMethod.String(bounded.method)))
		in.active.Add(ctx, 1, methodSet)
		listen := req.Method == methodListen
		if listen {
			in.streams.Add(ctx, 1)
		}

		spanCtx, links := in.parent(ctx, req.Meta)
		spanCtx, span := in.tracer.Start(spanCtx, bounded.spanName(), trace.WithSpanKind(trace.SpanKindServer),
			trace.WithAttributes(spanAttrs(req)...), trace.WithLinks(links...))
		var members map[string]string
		if in.inject {
			members = in.traceContext(spanCtx)
		}
		end := func(o server.Outcome) {
			in.record(ctx, req, bounded, span, start, o)
			in.active.Add(ctx, -1, methodSet)
			if listen {
				in.streams.Add(ctx, -1)
			}
		}

		ended := false
		defer func() {
			if ended {
				return
			}
			// next panicked (or called runtime.Goexit): end the span and
			// the counts as the server's recovery answers, then let the
			// panic go on to that recovery.
			v := recover()
			if v != nil {
				span.RecordError(fmt.Errorf("panic: %v", v), trace.WithStackTrace(true))
			}
			end(server.Outcome{Code: jsonrpc.CodeInternalError, Message: panicMessage})
			if v != nil {
				panic(v)
			}
		}()
		result, err := next(server.WithOutgoingMeta(spanCtx, members), req)
		ended = true

		if len(members) > 0 && err == nil && result != nil {
			result = withTraceContext(result, members)
		}
		end(server.OutcomeOf(req.Method, result, err))
		return result, err
	}
}

// panicMessage is the message of the -32603 the server answers a
// panicking chain with.
const panicMessage = "Internal error: the handler panicked"

// record ends span with the outcome o and records the request's duration.
func (in *instruments) record(ctx context.Context, req *server.Request, bounded names, span trace.Span, start time.Time, o server.Outcome) {
	version := req.ProtocolVersion() // after next: initialize has negotiated it
	var outcome []attribute.KeyValue
	if version != "" {
		outcome = append(outcome, keyProtocol.String(version))
	}
	switch {
	case o.Code != 0:
		code := strconv.FormatInt(o.Code, 10)
		outcome = append(outcome, keyErrorType.String(code), keyRPCStatusCode.String(code))
		span.SetStatus(codes.Error, truncate(o.Message))
	case o.ToolError:
		outcome = append(outcome, keyErrorType.String(errorTypeTool))
		span.SetStatus(codes.Error, errorTypeTool)
	}
	span.SetAttributes(outcome...)
	span.End()

	metricAttrs := append(bounded.metricAttrs(), outcome...)
	in.duration.Record(ctx, time.Since(start).Seconds(), metric.WithAttributes(metricAttrs...))
}

const (
	methodToolsCall  = "tools/call"
	methodPromptsGet = "prompts/get"
	methodListen     = "subscriptions/listen"
)

// spanAttrs are the span's attributes known when it starts: the method
// and target as the client sent them (bounded in length), the request id,
// the session and, for tools/call, the GenAI operation.
func spanAttrs(req *server.Request) []attribute.KeyValue {
	attrs := make([]attribute.KeyValue, 0, 6)
	attrs = append(attrs, keyMethod.String(truncate(req.Method)))
	if req.Name != "" {
		switch req.Method {
		case methodToolsCall:
			attrs = append(attrs, keyToolName.String(truncate(req.Name)), keyOperation.String(operationExecTool))
		case methodPromptsGet:
			attrs = append(attrs, keyPromptName.String(truncate(req.Name)))
		case "resources/read", "resources/subscribe", "resources/unsubscribe":
			attrs = append(attrs, keyResourceURI.String(truncate(req.Name)))
		}
	}
	if id := requestID(req); id != "" {
		attrs = append(attrs, keyRequestID.String(id))
	}
	if req.SessionID != "" {
		attrs = append(attrs, keySessionID.String(req.SessionID))
	}
	return attrs
}

// requestID is the id as the conventions want it: a string id unquoted, a
// number as written.
func requestID(req *server.Request) string {
	if s, ok := req.ID.Str(); ok {
		return s
	}
	return req.ID.String()
}

// parent returns the context to start the server span in: the remote
// parent from _meta when it carries one (the ambient span, if any, is then
// linked), else ctx itself.
func (in *instruments) parent(ctx context.Context, meta json.RawMessage) (context.Context, []trace.Link) {
	carrier := metaCarrier(meta)
	if len(carrier) == 0 {
		return ctx, nil
	}
	ambient := trace.SpanContextFromContext(ctx)
	extracted := in.prop.Extract(ctx, carrier)
	remote := trace.SpanContextFromContext(extracted)
	if !remote.IsValid() || remote.Equal(ambient) {
		return extracted, nil
	}
	if ambient.IsValid() {
		return extracted, []trace.Link{{SpanContext: ambient}}
	}
	return extracted, nil
}
