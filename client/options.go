package client

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// Options configure a Client. The zero value works: a client named
// "mcpgen-client" with no optional capabilities, modern era probed with
// server/discover, 60 s per request.
type Options struct {
	// ClientInfo identifies the client in every request's _meta (and the
	// legacy initialize).
	ClientInfo mcp.Implementation
	// Capabilities are declared on every request. Elicitation, Sampling and
	// Roots are added for the handlers that are set.
	Capabilities mcp.ClientCapabilities
	// ProtocolVersion is the preferred version (default: the newest the
	// client speaks, 2026-07-28). A server that answers -32022 is retried at
	// the newest version both support.
	ProtocolVersion string
	// Era selects how the server's era is found (default EraAuto).
	Era Era
	// LogLevel, when set, asks for notifications/message at this level and
	// above on every request (modern) or with logging/setLevel (legacy).
	LogLevel mcp.LoggingLevel

	// Elicit answers elicitation/create input requests.
	Elicit func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error)
	// Sample answers sampling/createMessage input requests.
	Sample func(ctx context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error)
	// Roots answers roots/list input requests.
	Roots func(ctx context.Context, req *mcp.ListRootsRequest) (*mcp.ListRootsResult, error)
	// MaxRounds bounds the multi round-trip retries of one call (default 8).
	MaxRounds int

	// OnProgress receives notifications/progress of calls without their own
	// WithProgress callback.
	OnProgress func(mcp.ProgressNotificationParams)
	// OnLog receives notifications/message.
	OnLog func(mcp.LoggingMessageNotificationParams)
	// OnNotification receives every other notification outside a Listen.
	//
	// OnProgress, OnLog and OnNotification run on the goroutine that reads
	// the server's messages: they must return promptly, and must not wait
	// for a call of the client (on stdio its answer would wait for them).
	// WithProgress callbacks and Listen loops have no such limit.
	OnNotification func(method string, params json.RawMessage)
	// Logger receives warnings (a tool dropped for an invalid x-mcp-header,
	// a notification that does not decode). Default: slog.Default().
	Logger *slog.Logger

	// RequestTimeout bounds each request, multi round-trip rounds included
	// (default 60 s; negative: none). Listen streams have no timeout.
	RequestTimeout time.Duration
	// ProbeTimeout bounds the era probe (default 10 s, or RequestTimeout
	// when that is shorter): a server that stays silent is taken to be
	// legacy. It bounds each step of a legacy handshake too (initialize,
	// notifications/initialized, logging/setLevel).
	ProbeTimeout time.Duration
}

// Era says how a Client finds out which protocol era a server speaks.
type Era int

const (
	// EraAuto probes with server/discover on the first request: a
	// DiscoverResult or a modern error (-32022) means modern, anything else
	// (another error, an HTTP error status without a modern error body, no
	// answer within ProbeTimeout) opens a legacy initialize session.
	EraAuto Era = iota
	// EraModern sends every request statelessly with its _meta, without a
	// probe. A first request rejected with no recognized modern error still
	// falls back to a legacy session.
	EraModern
	// EraLegacy opens a legacy initialize session at once.
	EraLegacy
)

// Versions the client speaks, newest first.
var (
	modernVersions = []string{"2026-07-28"}
	legacyVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}
)

func (o *Options) requestTimeout() time.Duration {
	switch {
	case o.RequestTimeout < 0:
		return 0
	case o.RequestTimeout == 0:
		return 60 * time.Second
	}
	return o.RequestTimeout
}

// probeTimeout bounds each request of connecting: the probe and the
// legacy handshake are requests too, so a shorter RequestTimeout bounds
// them unless ProbeTimeout is set.
func (o *Options) probeTimeout() time.Duration {
	if o.ProbeTimeout > 0 {
		return o.ProbeTimeout
	}
	if d := o.requestTimeout(); d > 0 && d < 10*time.Second {
		return d
	}
	return 10 * time.Second
}

func (o *Options) maxRounds() int {
	if o.MaxRounds > 0 {
		return o.MaxRounds
	}
	return 8
}

func (o *Options) logger() *slog.Logger {
	if o.Logger != nil {
		return o.Logger
	}
	return slog.Default()
}
