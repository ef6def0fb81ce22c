package server

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// request is the per-request state handlers reach through their context.
type request struct {
	s      *Server
	id     jsonrpc.ID
	method string
	meta   requestMeta
	w      MessageWriter
	ctx    context.Context
	inCtx  requestCtx    // ctx when serveParsed made it: the request as a context value
	params requestParams // the request's scanned params (serveParsed)

	progress progressState // the last progress notification sent

	caps atomic.Pointer[clientCaps] // the decoded clientCapabilities (capabilities)

	cache *CachePolicy // per-call override (SetCachePolicy)

	frame   resultFrame // the tool result's buffer, with room for the response head (frame.go)
	toolOut toolText    // the tool's output, lent to it by the registry (toolRegistry.call)

	done atomic.Bool // set when the handler has returned
	// Multi round-trip state: the request may answer input_required
	// (tools/call, prompts/get, resources/read); the rest, when it has any,
	// behind mrtr (mrtr_rounds.go). done and the two flags share one word.
	mrtrAllowed bool
	// argsLent: its arguments were lent to a middleware.
	argsLent bool
	mrtr     atomic.Pointer[mrtrRounds]
	// seals is the flag of its tool that it has sealed states
	// (mrtr_fused.go).
	seals *atomic.Bool
}

type requestKey struct{}

func withRequest(ctx context.Context, r *request) context.Context {
	return context.WithValue(ctx, requestKey{}, r)
}

// requestCtx is what withRequest makes, held inside the request (no
// allocation of its own): parent with r as the value of requestKey.
type requestCtx struct {
	context.Context
	r *request
}

// Value is r for requestKey, the parent's value for any other key.
func (c *requestCtx) Value(key any) any {
	if key == (requestKey{}) {
		return c.r
	}
	return c.Context.Value(key)
}

// String names the context as context.WithValue's does.
func (c *requestCtx) String() string {
	return fmt.Sprintf("%v.WithValue(server.requestKey, request)", c.Context)
}

// withRequestIn is withRequest with the context held in r.
func withRequestIn(ctx context.Context, r *request) context.Context {
	r.inCtx = requestCtx{Context: ctx, r: r}
	return &r.inCtx
}

func requestFrom(ctx context.Context) *request {
	r, _ := ctx.Value(requestKey{}).(*request)
	return r
}

// clientCaps is a request's clientCapabilities, decoded once.
type clientCaps struct {
	caps mcp.ClientCapabilities
	err  error
}

// capabilities decodes the request's clientCapabilities once (whoever
// decodes them first, on any goroutine, wins: the others return the same).
func (r *request) capabilities() (*mcp.ClientCapabilities, error) {
	if c := r.caps.Load(); c != nil {
		return &c.caps, c.err
	}
	c := new(clientCaps)
	if len(r.meta.caps) != 0 && string(r.meta.caps) != "{}" {
		c.err = json.Unmarshal(r.meta.caps, &c.caps)
	}
	if !r.caps.CompareAndSwap(nil, c) {
		c = r.caps.Load()
	}
	return &c.caps, c.err
}

// notify sends a notification tied to this request unless it is finished or
// cancelled (stdio: nothing more may be sent for a cancelled request).
func (r *request) notify(method string, params json.RawMessage) {
	if r.w == nil || r.done.Load() || r.ctx.Err() != nil {
		return
	}
	params = r.s.withOutgoingMeta(r.ctx, params)
	if err := r.w.Notify(method, params); err != nil {
		r.s.logger.Debug("notification not delivered", "method", method, "err", err)
	}
}

// ClientCapabilities returns the capabilities the current request declared
// (an empty value outside a request).
func ClientCapabilities(ctx context.Context) *mcp.ClientCapabilities {
	r := requestFrom(ctx)
	if r == nil {
		return &mcp.ClientCapabilities{}
	}
	caps, _ := r.capabilities()
	return caps
}

// ProtocolVersion returns the protocol version the current request declared
// (in a legacy session, the version initialize negotiated).
func ProtocolVersion(ctx context.Context) string {
	if lc := legacyFrom(ctx); lc != nil {
		return lc.sess.ProtocolVersion()
	}
	if r := requestFrom(ctx); r != nil {
		return r.meta.protocolVersion
	}
	return ""
}

// ClientInfo returns the client identity the current request declared, or
// nil. It is self-reported: use it for display and logs only.
func ClientInfo(ctx context.Context) *mcp.Implementation {
	r := requestFrom(ctx)
	if r == nil || len(r.meta.clientInfo) == 0 {
		return nil
	}
	var info mcp.Implementation
	if json.Unmarshal(r.meta.clientInfo, &info) != nil {
		return nil
	}
	return &info
}

// SetCachePolicy overrides the ttlMs and cacheScope of the current request's
// result when it is cacheable (lists, resources/read, server/discover).
// Results that already carry a cacheScope keep their own values.
func SetCachePolicy(ctx context.Context, p CachePolicy) {
	if r := requestFrom(ctx); r != nil {
		p = p.normalized()
		r.cache = &p
	}
}
