package server

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mcpgen/mcpgen/jsonrpc"
)

// Limits bound what one client, or all clients together, can make a server
// hold: requests in flight, their duration, open streams, sessions, tasks,
// and (for Run's HTTP server) connections, timeouts and header sizes. Every
// field has a safe default (the zero value); a negative value turns that
// limit off.
//
// A request refused by a limit is answered at once and never queued: on
// stdio with -32603 and data {"reason":"busy"} (or "shutdown" while the
// server drains), on HTTP with 503 Service Unavailable, Retry-After and the
// same JSON-RPC error as body. A request over its client's rate (Rate) is
// answered the same way but with data {"reason":"rate_limited",
// "retryAfter":N} and, on HTTP, 429 Too Many Requests (see RateLimit).
type Limits struct {
	// MaxInFlight caps the request handlers running at once in the whole
	// server, every transport together (default 4096). subscriptions/listen
	// streams are capped separately by MaxListenStreams.
	MaxInFlight int
	// MaxInFlightPerConn caps the requests one stdio connection has in
	// flight (default 64). At the cap the server stops reading that
	// connection until one is answered; since an answer waits for the
	// output to be written, a client that does not read stdout stops being
	// read (backpressure), and the memory it can pin is bounded by this cap
	// plus the 256 queued output lines.
	MaxInFlightPerConn int
	// RequestTimeout, when positive, bounds how long one request may run:
	// its handler's context is cancelled and the client gets -32603 with
	// data {"reason":"timeout"} at once, even when the handler ignores its
	// context (it keeps its MaxInFlight slot until it returns). Default
	// none; subscriptions/listen streams are exempt.
	RequestTimeout time.Duration
	// MaxListenStreams caps the open subscriptions/listen streams and legacy
	// GET streams (default 1024). A legacy session holds at most 4 GET
	// streams of them at once; one more is answered 429.
	MaxListenStreams int
	// MaxListenStreamsPerClient caps the streams of MaxListenStreams one
	// client may hold open at once (default 64), so one client cannot take
	// every slot. The client is ClientID(ctx), as for MaxTasksPerClient; a
	// legacy session's GET streams count against the client that opened
	// the session (its initialize). One more stream is refused like one
	// past MaxListenStreams (-32603 reason busy, over HTTP 503), with a
	// message naming this limit; a stream frees its slot when it ends,
	// however it ends. A request with no client identity (the in-memory
	// Caller, Handle called directly) is bound only by MaxListenStreams.
	MaxListenStreamsPerClient int
	// MaxLegacySessions caps the initialize-era HTTP sessions (default
	// 1024). When full, a new session evicts an idle session of the client
	// holding the most sessions, the one of them idle the longest.
	// A session is idle while none of its HTTP requests is being served:
	// no request in flight (one waiting for the client's answer to an
	// elicitation or sampling request included) and no open GET stream;
	// it has been idle since its last request ended. When every session
	// is in use, initialize gets 503 with reason busy. A session idle for
	// 30 minutes is ended: a request naming it then gets 404.
	MaxLegacySessions int
	// MaxLegacySessionsPerClient caps the legacy HTTP sessions one client
	// holds (default 64), so that one client cannot evict every other
	// client's idle session. The client is ClientID(ctx) of the
	// initialize, as for MaxTasksPerClient. A client at its cap ends its
	// own session idle the longest; when all of them are in use, its
	// initialize gets 503 with reason busy.
	MaxLegacySessionsPerClient int
	// MaxTasksPerClient caps the unfinished tasks (tasks extension) one
	// client may hold (default 64, of the store's 1024), so one client
	// cannot take every slot. The client is ClientID(ctx).
	MaxTasksPerClient int
	// ClientID names the client of a request for the per-client quotas.
	// The default is the authenticated principal (issuer and subject of
	// the access token, with HTTPOptions.Auth), else the transport's own
	// identity: the stdio connection or the HTTP connection (its remote
	// address). An empty result falls back to the default.
	ClientID func(ctx context.Context) string
	// DrainGrace is how long Run lets in-flight requests and running tasks
	// finish on shutdown before it cancels them (default 5 s). See
	// Server.Shutdown.
	DrainGrace time.Duration

	// HTTP, used by Run (and HTTPHandler where noted).

	// MaxConnections caps the open HTTP connections (default 1024); at the
	// cap Run stops accepting until one closes.
	MaxConnections int
	// ReadHeaderTimeout bounds reading a request's headers (default 10 s).
	ReadHeaderTimeout time.Duration
	// ReadTimeout bounds reading a request's body, from the end of its
	// headers (default 30 s; HTTPHandler applies it per request). It does
	// not limit a response stream: the deadline is lifted once the body has
	// been read.
	ReadTimeout time.Duration
	// WriteTimeout bounds each write of a response, an SSE event included
	// (default 30 s; HTTPHandler applies it as the response is written: a
	// write blocked for between half of it and all of it fails). A listen
	// stream lives as long as it needs; a client that stops reading it is
	// cut off.
	WriteTimeout time.Duration
	// IdleTimeout closes a keep-alive connection with no request (default
	// 120 s).
	IdleTimeout time.Duration
	// MaxHeaderBytes caps a request's header size (default 64 KiB; over it
	// the client gets 431). The body size is Options.HTTP.MaxBodyBytes.
	MaxHeaderBytes int

	// Rate throttles each client's requests (token buckets, on every
	// transport); the zero value is off. See RateLimit.
	Rate RateLimit
}

// Defaults of Limits.
const (
	defaultMaxInFlight                = 4096
	defaultMaxInFlightPerConn         = 64
	defaultMaxListenStreams           = 1024
	defaultMaxListenStreamsPerClient  = 64
	defaultMaxLegacySessions          = 1024
	defaultMaxLegacySessionsPerClient = 64
	defaultMaxTasksPerClient          = 64
	defaultDrainGrace                 = 5 * time.Second
	defaultMaxConnections             = 1024
	defaultReadHeaderTimeout          = 10 * time.Second
	defaultReadTimeout                = 30 * time.Second
	defaultWriteTimeout               = 30 * time.Second
	defaultIdleTimeout                = 120 * time.Second
	defaultMaxHeaderBytes             = 64 << 10
)

// resolved returns l with defaults filled in; limits turned off (negative)
// become 0 (counts) or 0 (durations), which every user reads as "none".
func (l Limits) resolved() Limits {
	count := func(v *int, def int) {
		switch {
		case *v == 0:
			*v = def
		case *v < 0:
			*v = 0
		}
	}
	dur := func(v *time.Duration, def time.Duration) {
		switch {
		case *v == 0:
			*v = def
		case *v < 0:
			*v = 0
		}
	}
	count(&l.MaxInFlight, defaultMaxInFlight)
	count(&l.MaxInFlightPerConn, defaultMaxInFlightPerConn)
	count(&l.MaxListenStreams, defaultMaxListenStreams)
	count(&l.MaxListenStreamsPerClient, defaultMaxListenStreamsPerClient)
	count(&l.MaxLegacySessions, defaultMaxLegacySessions)
	count(&l.MaxLegacySessionsPerClient, defaultMaxLegacySessionsPerClient)
	count(&l.MaxTasksPerClient, defaultMaxTasksPerClient)
	count(&l.MaxConnections, defaultMaxConnections)
	count(&l.MaxHeaderBytes, defaultMaxHeaderBytes)
	if l.RequestTimeout < 0 {
		l.RequestTimeout = 0
	}
	dur(&l.DrainGrace, defaultDrainGrace)
	dur(&l.ReadHeaderTimeout, defaultReadHeaderTimeout)
	dur(&l.ReadTimeout, defaultReadTimeout)
	dur(&l.WriteTimeout, defaultWriteTimeout)
	dur(&l.IdleTimeout, defaultIdleTimeout)
	return l
}

// Reasons in the data of a refused or cut-off request's -32603 error.
const (
	reasonBusy     = "busy"
	reasonShutdown = "shutdown"
	reasonTimeout  = "timeout"
	reasonQuota    = "quota"
)

// limitError is the -32603 error of a request a limit stopped, with
// data {"reason": reason}.
func limitError(reason, message string) *jsonrpc.Error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: message, Data: []byte(`{"reason":"` + reason + `"}`)}
}

// isRefusal reports whether e is a limit's refusal of a request, one that
// did not run: -32603 with data.reason busy, quota or shutdown, as
// limitError writes it. HTTP answers a refusal with 503 and Retry-After.
// A request a limit cut off once it ran (timeout, the end of a drain's
// grace) is not a refusal: limitOutcome answers it with a plain response.
func isRefusal(e *jsonrpc.Error) bool {
	if e.Code != jsonrpc.CodeInternalError {
		return false
	}
	switch string(e.Data) {
	case `{"reason":"` + reasonBusy + `"}`, `{"reason":"` + reasonQuota + `"}`, `{"reason":"` + reasonShutdown + `"}`:
		return true
	}
	return false
}

var (
	// errRequestTimeout is the cancellation cause of a request that ran
	// past Limits.RequestTimeout.
	errRequestTimeout = errors.New("server: the request ran past its timeout")
	// errShutdownCancel is the cancellation cause of a request still
	// running when the drain's grace ended.
	errShutdownCancel = errors.New("server: the server shut down before the request finished")
)

func busyError() *jsonrpc.Error {
	return limitError(reasonBusy, "Internal error: the server is busy; retry later")
}

func shuttingDownError() *jsonrpc.Error {
	return limitError(reasonShutdown, "Internal error: the server is shutting down; retry on another instance or later")
}

func timeoutError(d time.Duration) *jsonrpc.Error {
	return limitError(reasonTimeout, fmt.Sprintf("Internal error: the request did not finish within %v and was cancelled", d))
}

func shutdownCancelError() *jsonrpc.Error {
	return limitError(reasonShutdown, "Internal error: the server shut down before the request finished; it was cancelled")
}
