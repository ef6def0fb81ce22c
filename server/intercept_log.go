package server

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/internal/jsonscan"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// Outcome is how a request ended, as interceptors that record requests
// (LogRequests, the otel module) classify it.
type Outcome struct {
	// Code is the JSON-RPC error code the client gets, 0 for a result (and
	// for a request the client cancelled, which gets no response).
	Code int64
	// Message is the error's message ("" for a result).
	Message string
	// ToolError says a tools/call result carries isError: true (the tool
	// failed, or its arguments did not validate).
	ToolError bool
	// Reason names a request that did not run to its end: "cancelled" (the
	// client cancelled it or went away), "timeout" (Limits.RequestTimeout),
	// "shutdown" (the end of a drain's grace); "" otherwise.
	Reason string
}

// OutcomeOf classifies what a Handler returned for a request of method.
func OutcomeOf(method string, result json.RawMessage, err error) Outcome {
	switch {
	case err == nil:
		return Outcome{ToolError: method == mcp.MethodToolsCall && isErrorResult(result)}
	case errors.Is(err, errRequestTimeout):
		return Outcome{Code: jsonrpc.CodeInternalError, Message: err.Error(), Reason: reasonTimeout}
	case errors.Is(err, errShutdownCancel):
		return Outcome{Code: jsonrpc.CodeInternalError, Message: err.Error(), Reason: reasonShutdown}
	case errors.Is(err, context.Canceled):
		return Outcome{Message: err.Error(), Reason: "cancelled"}
	}
	rerr := toRPCError(err)
	return Outcome{Code: rerr.Code, Message: rerr.Message}
}

// isErrorResult reports whether an encoded result has "isError": true.
func isErrorResult(result []byte) bool {
	is := false
	jsonscan.EachMember(result, func(key, value []byte) {
		if string(key) == "isError" && string(jsonscan.TrimSpace(value)) == "true" {
			is = true
		}
	})
	return is
}

// Level is the slog level LogRequests logs an outcome at.
func (o Outcome) Level(success slog.Level) slog.Level {
	switch {
	case o.Reason == "cancelled":
		return success
	case o.Reason == reasonShutdown:
		return slog.LevelWarn
	case o.Code == jsonrpc.CodeInternalError:
		return slog.LevelError
	case o.Code != 0, o.ToolError:
		return slog.LevelWarn
	}
	return success
}

// LogOptions configure LogRequests.
type LogOptions struct {
	// SuccessLevel is the level of a request answered with a result
	// (default slog.LevelInfo; slog.LevelDebug keeps a busy server's
	// Info log quiet).
	SuccessLevel *slog.Level
	// Message is the log record's message (default "mcp request").
	Message string
}

// LogRequests returns an interceptor that logs every request once it is
// answered, through logger, at a level chosen by its outcome:
//
//   - a result, or a request the client cancelled: SuccessLevel (Info);
//   - a client error — any JSON-RPC error but -32603 (-32700, -32600,
//     -32601, -32602, -32020, -32021, -32022, …), a tools/call result with
//     isError — and a request cut off by shutdown: Warn;
//   - an internal error (-32603, a timeout, a panic turned -32603): Error.
//
// Attributes: method, id, name (tool, prompt, URI or task, when the
// request has one), session (legacy session id), protocolVersion,
// subject (Principal's, when authenticated), duration, outcome ("ok",
// "tool_error", "error", "cancelled", "timeout", "shutdown"), and for
// errors code and error (the message sent). Params and results are not
// logged: they may hold what the client would not have logged.
func LogRequests(logger *slog.Logger, opts LogOptions) Interceptor {
	success := slog.LevelInfo
	if opts.SuccessLevel != nil {
		success = *opts.SuccessLevel
	}
	msg := opts.Message
	if msg == "" {
		msg = "mcp request"
	}
	return func(next Handler) Handler {
		return func(ctx context.Context, req *Request) (json.RawMessage, error) {
			if logger == nil {
				return next(ctx, req)
			}
			start := time.Now()
			result, err := next(ctx, req)
			o := OutcomeOf(req.Method, result, err)
			level := o.Level(success)
			if !logger.Enabled(ctx, level) {
				return result, err
			}
			attrs := make([]slog.Attr, 0, 11)
			attrs = append(attrs, slog.String("method", req.Method), slog.String("id", req.ID.String()))
			if req.Name != "" {
				attrs = append(attrs, slog.String("name", req.Name))
			}
			if req.SessionID != "" {
				attrs = append(attrs, slog.String("session", req.SessionID))
			}
			if v := req.ProtocolVersion(); v != "" {
				attrs = append(attrs, slog.String("protocolVersion", v))
			}
			if p := Principal(ctx); p != nil {
				attrs = append(attrs, slog.String("subject", p.Subject))
			}
			attrs = append(attrs, slog.Duration("duration", time.Since(start)), slog.String("outcome", o.name()))
			if o.Code != 0 {
				attrs = append(attrs, slog.Int64("code", o.Code), slog.String("error", o.Message))
			}
			logger.LogAttrs(ctx, level, msg, attrs...)
			return result, err
		}
	}
}

func (o Outcome) name() string {
	switch {
	case o.Reason != "":
		return o.Reason
	case o.Code != 0:
		return "error"
	case o.ToolError:
		return "tool_error"
	}
	return "ok"
}
