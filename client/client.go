package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/internal/reqmeta"
	"github.com/mcpgen/mcpgen/internal/version"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// Client is a connection to one MCP server. It implements mcp.Caller and
// embeds the generated *mcp.Client, whose typed methods (CallTool,
// ListTools, GetPrompt, ReadResource, …) send through it. It is safe for
// concurrent use.
type Client struct {
	*mcp.Client

	t    Transport
	opts Options
	caps json.RawMessage // clientCapabilities as sent
	info json.RawMessage // clientInfo as sent
	seq  atomic.Int64

	eraMu    sync.Mutex
	eraKnown bool
	legacy   bool
	version  string // the protocol version requests are sent at
	discover *mcp.DiscoverResult
	initRes  json.RawMessage // legacy InitializeResult
	initCaps map[string]any  // its capabilities, read once (parseInitializeResult)

	tools     toolCache
	listeners legacyListeners // Listen in a legacy session (listen_legacy.go)
	answered  atomic.Bool     // EraModern: the first request settled the era
	modern    atomic.Bool     // a 2026-07-28 session: the server's requests are dropped (acceptServerRequest)

	droppedRequests atomic.Int64 // server requests dropped since the last warning
	droppedWarned   atomic.Int64 // when that warning was logged (UnixNano)
}

// Connect returns a Client for the server t reaches. With EraAuto and
// EraLegacy it talks to the server at once (the probe, or the legacy
// initialize); with EraModern the first request is the first message.
func Connect(ctx context.Context, t Transport, opts *Options) (*Client, error) {
	c := &Client{t: t}
	if opts != nil {
		c.opts = *opts
	}
	if c.opts.ClientInfo.Name == "" {
		c.opts.ClientInfo = mcp.Implementation{Name: "mcpgen-client", Version: version.String()}
	}
	if c.opts.ClientInfo.Version == "" {
		c.opts.ClientInfo.Version = version.String()
	}
	c.version = c.opts.ProtocolVersion
	if c.version == "" {
		c.version = modernVersions[0]
	}
	if !slices.Contains(modernVersions, c.version) && !slices.Contains(legacyVersions, c.version) {
		return nil, fmt.Errorf("client: protocol version %q is not one the client speaks (%s)", c.version,
			strings.Join(append(slices.Clone(modernVersions), legacyVersions...), ", "))
	}
	caps := c.opts.Capabilities
	if c.opts.Elicit != nil && caps.Elicitation == nil {
		caps.Elicitation = &mcp.ClientCapabilitiesElicitation{Form: mcp.JSONObject{}}
	}
	if c.opts.Sample != nil && caps.Sampling == nil {
		caps.Sampling = &mcp.ClientCapabilitiesSampling{}
	}
	if c.opts.Roots != nil && caps.Roots == nil {
		caps.Roots = &mcp.ClientCapabilitiesRoots{}
	}
	var err error
	if c.caps, err = json.Marshal(caps); err != nil {
		return nil, fmt.Errorf("client: encoding capabilities: %w", err)
	}
	if c.info, err = json.Marshal(c.opts.ClientInfo); err != nil {
		return nil, fmt.Errorf("client: encoding clientInfo: %w", err)
	}
	c.Client = mcp.NewClient(c)
	if m, ok := t.(HeaderMirror); ok {
		c.tools.mirror = m.MirrorsHeaders()
	}
	if b, ok := t.(PeerBinder); ok {
		b.BindPeer(c)
	}
	if slices.Contains(legacyVersions, c.version) {
		c.opts.Era = EraLegacy
	}
	if c.opts.Era != EraModern {
		if err := c.ensureEra(ctx); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// Close closes the transport.
func (c *Client) Close() error { return c.t.Close() }

// ProtocolVersion is the version requests are sent at (after negotiation).
func (c *Client) ProtocolVersion() string {
	c.eraMu.Lock()
	defer c.eraMu.Unlock()
	return c.version
}

// Legacy reports whether the client talks to the server in a legacy
// initialize session.
func (c *Client) Legacy() bool {
	c.eraMu.Lock()
	defer c.eraMu.Unlock()
	return c.legacy
}

// ServerInfo returns the server/discover result of the probe (modern), or
// nil. InitializeResult returns a legacy session's initialize result.
func (c *Client) ServerInfo() *mcp.DiscoverResult {
	c.eraMu.Lock()
	defer c.eraMu.Unlock()
	return c.discover
}

// InitializeResult returns the raw initialize result of a legacy session.
func (c *Client) InitializeResult() json.RawMessage {
	c.eraMu.Lock()
	defer c.eraMu.Unlock()
	return c.initRes
}

// Call implements mcp.Caller: it sends method with params (any value that
// encodes as a JSON object, or nil), filling in the _meta, and returns the
// final raw result — multi round-trip input requests answered, the version
// negotiated. A JSON-RPC error comes back as a *jsonrpc.Error.
func (c *Client) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	members, err := paramMembers(params)
	if err != nil {
		return nil, fmt.Errorf("client: %s params: %w", method, err)
	}
	if d := c.opts.requestTimeout(); d > 0 && method != mcp.MethodSubscriptionsListen {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, d, fmt.Errorf("%s timed out after %v (Options.RequestTimeout)", method, d))
		defer cancel()
	}
	if err := c.ensureEra(ctx); err != nil {
		return nil, err
	}
	if c.opts.Era != EraModern || c.answered.Load() {
		return c.call(ctx, method, members, nil)
	}
	result, err := c.call(ctx, method, members, nil)
	if err != nil && !isModernAnswer(err) && ctx.Err() == nil {
		fallbackErr := c.fallBack(ctx)
		c.answered.Store(true) // the era is settled either way
		if fallbackErr == nil {
			return c.call(ctx, method, members, nil)
		}
		return nil, err
	}
	c.answered.Store(true)
	return result, err
}

// isModernAnswer reports whether err is a recognized 2026-07-28 answer
// (streamable-http.mdx "Backward Compatibility": unsupported version,
// missing capability, header mismatch), or any JSON-RPC error of a server
// that returned results before.
func isModernAnswer(err error) bool {
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) {
		return false
	}
	switch rpcErr.Code {
	case codeUnsupportedVersion, codeMissingCapability, codeHeaderMismatch:
		return true
	}
	return false
}

// fallBack opens a legacy session after a first EraModern request failed
// without a modern error.
func (c *Client) fallBack(ctx context.Context) error {
	c.eraMu.Lock()
	defer c.eraMu.Unlock()
	if c.legacy {
		return errors.New("client: already in a legacy session")
	}
	return c.initializeLocked(ctx)
}

// call sends one logical request: it retries on -32022 and on a stale
// x-mcp-header, and resolves multi round-trip input requests.
func (c *Client) call(ctx context.Context, method string, members map[string]json.RawMessage, notify func(string, json.RawMessage)) (json.RawMessage, error) {
	versionRetried, headersRetried := false, false
	rounds := 0
	for {
		result, err := c.send(ctx, method, members, notify)
		var rpcErr *jsonrpc.Error
		if errors.As(err, &rpcErr) {
			switch rpcErr.Code {
			case codeUnsupportedVersion:
				if !versionRetried {
					versionRetried = true
					if c.renegotiate(rpcErr) {
						continue
					}
					if c.fallBackToLegacy(ctx, rpcErr) == nil {
						continue
					}
				}
			case codeHeaderMismatch:
				if method == mcp.MethodToolsCall && !headersRetried && c.tools.mirror {
					headersRetried = true
					if c.refreshTools(ctx) == nil {
						continue
					}
				}
			}
			return nil, err
		}
		if err != nil {
			return nil, err
		}
		if !mrtrMethod(method) {
			return result, nil
		}
		ir, ok, err := inputRequired(result)
		if err != nil {
			return nil, fmt.Errorf("client: %s: %w", method, err)
		}
		if !ok {
			return result, nil
		}
		rounds++
		if rounds > c.opts.maxRounds() {
			return nil, fmt.Errorf("client: %s still needs input after %d rounds (Options.MaxRounds)", method, c.opts.maxRounds())
		}
		if err := c.answerRound(ctx, method, ir, members); err != nil {
			return nil, err
		}
	}
}

// send sends one JSON-RPC request built from members.
func (c *Client) send(ctx context.Context, method string, members map[string]json.RawMessage, notify func(string, json.RawMessage)) (json.RawMessage, error) {
	c.eraMu.Lock()
	legacy, ver := c.legacy, c.version
	c.eraMu.Unlock()
	req := &Request{ID: jsonrpc.IntID(c.seq.Add(1)), Method: method, ProtocolVersion: ver}
	meta, err := c.meta(members, legacy, ver, ctx)
	if err != nil {
		return nil, fmt.Errorf("client: %s params: %w", method, err)
	}
	req.ProgressToken = meta.progressToken
	out := make(map[string]json.RawMessage, len(members)+1)
	for k, v := range members {
		out[k] = v
	}
	if len(meta.raw) > 0 {
		out["_meta"] = meta.raw
	} else {
		delete(out, "_meta")
	}
	if legacy {
		delete(out, "inputResponses")
		delete(out, "requestState")
	}
	if len(out) > 0 || !legacy {
		req.Params = reqmeta.Join(out)
	}
	req.Name = nameOf(method, members)
	if c.tools.mirror && method == mcp.MethodToolsCall {
		if req.Header, err = c.tools.headers(req.Name, members["arguments"]); err != nil {
			return nil, fmt.Errorf("client: tools/call %s: %w", req.Name, err)
		}
	}
	var flush func()
	req.Notify, flush = c.notifier(ctx, notify)
	result, err := c.t.RoundTrip(ctx, req)
	flush()
	if err != nil {
		return nil, err
	}
	if err := checkNames(result); err != nil {
		return nil, fmt.Errorf("client: %s result: %w", method, err)
	}
	if legacy {
		if result, err = upgradeLegacyResult(method, result); err != nil {
			return nil, err
		}
	}
	if method == mcp.MethodToolsList {
		return c.tools.observe(result, c.opts.logger())
	}
	return result, nil
}

// renegotiate picks the newest version in an UnsupportedProtocolVersion
// error's supported list that the client speaks (the one just sent too: a
// server may reject it once); false when there is none.
func (c *Client) renegotiate(e *jsonrpc.Error) bool {
	var data struct {
		Supported []string `json:"supported"`
	}
	if json.Unmarshal(e.Data, &data) != nil {
		return false
	}
	c.eraMu.Lock()
	defer c.eraMu.Unlock()
	for _, v := range modernVersions {
		if slices.Contains(data.Supported, v) {
			c.version = v
			return true
		}
	}
	return false
}

// fallBackToLegacy opens a legacy session when a -32022 lists only legacy
// versions the client speaks (a server that answered the probe but serves
// this request only in a session).
func (c *Client) fallBackToLegacy(ctx context.Context, e *jsonrpc.Error) error {
	var data struct {
		Supported []string `json:"supported"`
	}
	if json.Unmarshal(e.Data, &data) != nil {
		return e
	}
	for _, v := range legacyVersions {
		if slices.Contains(data.Supported, v) {
			c.eraMu.Lock()
			defer c.eraMu.Unlock()
			if c.legacy {
				return e
			}
			return c.initializeLocked(ctx)
		}
	}
	return e
}

func mrtrMethod(method string) bool {
	switch method {
	case mcp.MethodToolsCall, mcp.MethodPromptsGet, mcp.MethodResourcesRead:
		return true
	}
	return false
}

// nameOf returns the value the Mcp-Name header mirrors.
func nameOf(method string, members map[string]json.RawMessage) string {
	key := ""
	switch method {
	case mcp.MethodToolsCall, mcp.MethodPromptsGet:
		key = "name"
	case mcp.MethodResourcesRead:
		key = "uri"
	default:
		return ""
	}
	var s string
	if json.Unmarshal(members[key], &s) != nil {
		return ""
	}
	return s
}

// paramMembers encodes params and splits the JSON object into members.
func paramMembers(params any) (map[string]json.RawMessage, error) { return reqmeta.Params(params) }

// Error codes of 2026-07-28 the client acts on.
const (
	codeHeaderMismatch     int64 = -32020
	codeMissingCapability  int64 = -32021
	codeUnsupportedVersion int64 = -32022
)
