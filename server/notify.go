package server

import (
	"context"
	"encoding/json"
	"math"
	"strconv"
	"sync"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// Progress reports progress for the current request when the client asked
// for it (a progressToken in _meta); otherwise it does nothing. total <= 0
// means unknown. Progress should increase with every call; nothing is sent
// once the handler has returned or the request was cancelled.
//
// Every notification sent is valid JSON and follows progress.mdx: a
// progress that is not a finite number, or that does not increase over the
// last one sent for the request, is dropped; a total that is not finite is
// left out. In an initialize-era session, where a handler that needs input
// is run again under the same client request and progressToken, "the
// request" is the client's: progress must increase across those rounds.
func Progress(ctx context.Context, progress, total float64, message string) {
	r := requestFrom(ctx)
	if r == nil || r.meta.progressToken == nil || math.IsNaN(progress) || math.IsInf(progress, 0) {
		return
	}
	ps := &r.progress
	if c := legacyFrom(ctx); c != nil {
		ps = &c.progress // one record across the rounds of the client's request
	}
	if !ps.advance(progress) {
		return
	}
	if math.IsNaN(total) || math.IsInf(total, 0) {
		total = 0
	}
	b := make([]byte, 0, 96)
	b = append(b, `{"progressToken":`...)
	b = append(b, r.meta.progressToken...)
	b = append(b, `,"progress":`...)
	b = strconv.AppendFloat(b, progress, 'g', -1, 64)
	if total > 0 {
		b = append(b, `,"total":`...)
		b = strconv.AppendFloat(b, total, 'g', -1, 64)
	}
	if message != "" {
		m, _ := json.Marshal(message)
		b = append(b, `,"message":`...)
		b = append(b, m...)
	}
	b = append(b, '}')
	r.notify(mcp.MethodNotificationsProgress, b)
}

// logSeverity orders the RFC 5424 levels from least to most severe.
var logSeverity = map[mcp.LoggingLevel]int{
	mcp.LoggingLevelDebug:     0,
	mcp.LoggingLevelInfo:      1,
	mcp.LoggingLevelNotice:    2,
	mcp.LoggingLevelWarning:   3,
	mcp.LoggingLevelError:     4,
	mcp.LoggingLevelCritical:  5,
	mcp.LoggingLevelAlert:     6,
	mcp.LoggingLevelEmergency: 7,
}

// Log sends a log message for the current request when the client asked
// for one at this level (io.modelcontextprotocol/logLevel); otherwise nothing
// (server/utilities/logging.mdx: no notifications/message without logLevel).
// In a legacy session the level is the one logging/setLevel set; nothing is
// sent before the client sets one.
// data is any JSON-encodable value.
func Log(ctx context.Context, level mcp.LoggingLevel, logger string, data any) {
	r := requestFrom(ctx)
	if r == nil {
		return
	}
	min := r.meta.logLevel
	if lc := legacyFrom(ctx); lc != nil {
		min = lc.sess.logLevel() // legacy session: the level of logging/setLevel
	}
	if min == "" {
		return
	}
	sev, ok := logSeverity[level]
	if !ok || sev < logSeverity[min] {
		return
	}
	params, err := json.Marshal(mcp.LoggingMessageNotificationParams{Level: level, Logger: logger, Data: data})
	if err != nil {
		r.s.logger.Warn("log message not encodable", "err", err)
		return
	}
	r.notify(mcp.MethodNotificationsMessage, params)
}

// RequireCapabilities returns an error answered with -32021
// (MissingRequiredClientCapability, data.requiredCapabilities) unless the
// current request declared the given client capabilities. Only what is
// missing is listed in data.requiredCapabilities. A tool function returns
// the error as is (it becomes a JSON-RPC error, not an isError result).
func RequireCapabilities(ctx context.Context, required mcp.ClientCapabilities) error {
	have := ClientCapabilities(ctx)
	var missing mcp.ClientCapabilities
	short := false
	if required.Sampling != nil {
		if have.Sampling == nil ||
			(required.Sampling.Tools != nil && have.Sampling.Tools == nil) ||
			(required.Sampling.Context != nil && have.Sampling.Context == nil) {
			missing.Sampling, short = required.Sampling, true
		}
	}
	if required.Roots != nil && have.Roots == nil {
		missing.Roots, short = required.Roots, true
	}
	if e := required.Elicitation; e != nil {
		h := have.Elicitation
		// An empty elicitation object declares form mode (backward compatible).
		formOK := h != nil && (h.Form != nil || h.URL == nil)
		urlOK := h != nil && h.URL != nil
		if h == nil || (e.Form != nil && !formOK) || (e.URL != nil && !urlOK) || (e.Form == nil && e.URL == nil && !formOK && !urlOK) {
			missing.Elicitation, short = e, true
		}
	}
	for k, v := range required.Extensions {
		if _, ok := have.Extensions[k]; !ok {
			if missing.Extensions == nil {
				missing.Extensions = map[string]mcp.JSONObject{}
			}
			missing.Extensions[k], short = v, true
		}
	}
	for k, v := range required.Experimental {
		if _, ok := have.Experimental[k]; !ok {
			if missing.Experimental == nil {
				missing.Experimental = map[string]mcp.JSONObject{}
			}
			missing.Experimental[k], short = v, true
		}
	}
	if !short {
		return nil
	}
	return missingCapabilities(missing)
}

// missingCapabilities is the -32021 error naming the client capabilities
// missing (data.requiredCapabilities).
func missingCapabilities(missing mcp.ClientCapabilities) error {
	return jsonrpc.NewError(mcp.CodeMissingRequiredClientCapability, "Missing required client capability",
		map[string]mcp.ClientCapabilities{"requiredCapabilities": missing})
}

// progressState is the last progress sent for a request.
type progressState struct {
	mu   sync.Mutex
	sent bool
	last float64
}

// advance records progress and reports whether it increases over the last
// value sent (the first value always does).
func (ps *progressState) advance(progress float64) bool {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if ps.sent && progress <= ps.last {
		return false
	}
	ps.sent, ps.last = true, progress
	return true
}
