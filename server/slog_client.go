package server

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// ClientLogOptions configure ClientLogHandler.
type ClientLogOptions struct {
	// Logger is the notifications' logger field ("" leaves it out).
	Logger string
}

// ClientLogHandler returns a slog.Handler that forwards records to the
// client of the request in the record's context, as notifications/message
// (server/utilities/logging.mdx): logger.InfoContext(ctx, …) inside a
// tool, prompt or resource function, a handler or an interceptor. Only
// what the client asked for is sent: in the 2026-07-28 era a request that
// carries io.modelcontextprotocol/logLevel in its _meta gets the records
// at or above that level; in a legacy session, the level logging/setLevel
// set (nothing before it is set). Records logged outside a request, or
// below the level, are dropped; combine the handler with the server's own
// (slog.NewMultiHandler) to keep them locally too.
//
// Levels map with LoggingLevel. The notification's data is an object
// holding the record's message under "message" and its attributes
// (groups as nested objects; errors as their text, times in RFC 3339,
// durations as Go durations).
func ClientLogHandler(opts ClientLogOptions) slog.Handler {
	return &clientLogHandler{logger: opts.Logger}
}

// LoggingLevel maps a slog level to the MCP (RFC 5424) logging level sent
// for it: below Info debug; Info info; above Info, below Warn notice;
// Warn warning; Error error; Error+4 critical; Error+8 alert; Error+12
// and above emergency.
func LoggingLevel(l slog.Level) mcp.LoggingLevel {
	switch {
	case l < slog.LevelInfo:
		return mcp.LoggingLevelDebug
	case l == slog.LevelInfo:
		return mcp.LoggingLevelInfo
	case l < slog.LevelWarn:
		return mcp.LoggingLevelNotice
	case l < slog.LevelError:
		return mcp.LoggingLevelWarning
	case l < slog.LevelError+4:
		return mcp.LoggingLevelError
	case l < slog.LevelError+8:
		return mcp.LoggingLevelCritical
	case l < slog.LevelError+12:
		return mcp.LoggingLevelAlert
	}
	return mcp.LoggingLevelEmergency
}

// clientLogLevel returns the least severe level the current request's
// client asked messages for, "" when none (or outside a request).
func clientLogLevel(ctx context.Context) mcp.LoggingLevel {
	if ctx == nil {
		return ""
	}
	r := requestFrom(ctx)
	if r == nil {
		return ""
	}
	if lc := legacyFrom(ctx); lc != nil {
		return lc.sess.logLevel()
	}
	return r.meta.logLevel
}

type clientLogHandler struct {
	logger string
	attrs  []groupedAttr // from WithAttrs, in order
	groups []string      // from WithGroup
}

type groupedAttr struct {
	groups []string
	attr   slog.Attr
}

func (h *clientLogHandler) Enabled(ctx context.Context, level slog.Level) bool {
	min := clientLogLevel(ctx)
	return min != "" && logSeverity[LoggingLevel(level)] >= logSeverity[min]
}

func (h *clientLogHandler) Handle(ctx context.Context, rec slog.Record) error {
	if !h.Enabled(ctx, rec.Level) {
		return nil
	}
	data := map[string]any{"message": rec.Message}
	for _, ga := range h.attrs {
		putAttr(data, ga.groups, ga.attr)
	}
	rec.Attrs(func(a slog.Attr) bool {
		putAttr(data, h.groups, a)
		return true
	})
	Log(ctx, LoggingLevel(rec.Level), h.logger, data)
	return nil
}

func (h *clientLogHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	c := *h
	c.attrs = append(c.attrs[:len(c.attrs):len(c.attrs)], make([]groupedAttr, 0, len(attrs))...)
	for _, a := range attrs {
		c.attrs = append(c.attrs, groupedAttr{groups: h.groups, attr: a})
	}
	return &c
}

func (h *clientLogHandler) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	c := *h
	c.groups = append(h.groups[:len(h.groups):len(h.groups)], name)
	return &c
}

// putAttr stores a under the nested groups of data, following slog's
// rules: an empty attribute is dropped, a group with an empty key is
// inlined.
func putAttr(data map[string]any, groups []string, a slog.Attr) {
	a.Value = a.Value.Resolve()
	if a.Equal(slog.Attr{}) {
		return
	}
	m := data
	for _, g := range groups {
		sub, ok := m[g].(map[string]any)
		if !ok {
			sub = map[string]any{}
			m[g] = sub
		}
		m = sub
	}
	if a.Value.Kind() == slog.KindGroup {
		attrs := a.Value.Group()
		if len(attrs) == 0 {
			return
		}
		inner := groups
		if a.Key != "" {
			inner = append(groups[:len(groups):len(groups)], a.Key)
		}
		for _, ga := range attrs {
			putAttr(data, inner, ga)
		}
		return
	}
	m[a.Key] = jsonValue(a.Value)
}

// jsonValue is a slog value as the notification's JSON carries it.
func jsonValue(v slog.Value) any {
	switch v.Kind() {
	case slog.KindTime:
		return v.Time().Format(time.RFC3339Nano)
	case slog.KindDuration:
		return v.Duration().String()
	case slog.KindAny:
		switch x := v.Any().(type) {
		case error:
			return x.Error()
		case json.Marshaler:
			return x
		}
		if _, err := json.Marshal(v.Any()); err != nil {
			return v.String()
		}
		return v.Any()
	}
	return v.Any()
}
