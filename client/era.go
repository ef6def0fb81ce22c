package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/internal/jsonscan"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// ensureEra finds the server's era once (basic/versioning.mdx, "Backward
// Compatibility with Initialization-Based Versions"): EraAuto probes with
// server/discover, EraLegacy initializes, EraModern assumes modern.
func (c *Client) ensureEra(ctx context.Context) error {
	c.eraMu.Lock()
	defer c.eraMu.Unlock()
	if c.eraKnown {
		return nil
	}
	switch c.opts.Era {
	case EraModern:
		c.eraKnown = true
		c.modern.Store(true)
		return nil
	case EraLegacy:
		return c.initializeLocked(ctx)
	}
	modern, err := c.probeLocked(ctx)
	if err != nil {
		return err
	}
	if modern {
		c.eraKnown = true
		c.modern.Store(true)
		return nil
	}
	return c.initializeLocked(ctx)
}

// probeLocked sends server/discover (retrying once at a version the
// server names in -32022). It reports modern for a DiscoverResult; an
// error that is not a recognized modern error, or silence, means legacy.
func (c *Client) probeLocked(ctx context.Context) (modern bool, err error) {
	pctx, cancel := context.WithTimeoutCause(ctx, c.opts.probeTimeout(), errors.New("no answer to the server/discover probe"))
	defer cancel()
	for attempt := 0; attempt < 2; attempt++ {
		req := &Request{ID: jsonrpc.IntID(c.seq.Add(1)), Method: mcp.MethodServerDiscover, ProtocolVersion: c.version}
		meta, err := c.meta(map[string]json.RawMessage{}, false, c.version, ctx)
		if err != nil {
			return false, err
		}
		req.Params, _ = json.Marshal(map[string]json.RawMessage{"_meta": meta.raw})
		raw, err := c.t.RoundTrip(pctx, req)
		if err == nil {
			if nerr := checkNames(raw); nerr != nil {
				return false, fmt.Errorf("client: the server/discover result: %w", nerr)
			}
			var d mcp.DiscoverResult
			if derr := json.Unmarshal(raw, &d); derr != nil {
				return false, fmt.Errorf("client: the server/discover result does not decode: %w", derr)
			}
			c.discover = &d
			if !slices.Contains(d.SupportedVersions, c.version) {
				for _, v := range modernVersions {
					if slices.Contains(d.SupportedVersions, v) {
						c.version = v
						break
					}
				}
			}
			return true, nil
		}
		if ctx.Err() != nil {
			return false, fmt.Errorf("client: server/discover: %w", context.Cause(ctx))
		}
		var rpcErr *jsonrpc.Error
		if errors.As(err, &rpcErr) && rpcErr.Code == codeUnsupportedVersion {
			var data struct {
				Supported []string `json:"supported"`
			}
			_ = json.Unmarshal(rpcErr.Data, &data)
			next := ""
			for _, v := range modernVersions {
				if slices.Contains(data.Supported, v) {
					next = v
					break
				}
			}
			if next != "" && attempt == 0 {
				c.version = next // even the same version once: the rejection may have been transient
				continue
			}
			// A modern server without a modern version in common: a legacy
			// version it lists may still work.
			for _, v := range legacyVersions {
				if slices.Contains(data.Supported, v) {
					return false, nil
				}
			}
			return false, fmt.Errorf("client: the server supports %v, none of which this client speaks: %w", data.Supported, err)
		}
		if errors.As(err, &rpcErr) && (rpcErr.Code == codeHeaderMismatch || rpcErr.Code == codeMissingCapability) {
			return false, fmt.Errorf("client: server/discover: %w", err)
		}
		var statusErr *StatusError
		var loginErr *loginError
		if errors.As(err, &loginErr) || errors.As(err, &statusErr) && (statusErr.StatusCode == 401 || statusErr.StatusCode == 403) {
			return false, fmt.Errorf("client: server/discover: %w", err) // authentication, not an era question
		}
		return false, nil // not a modern answer: legacy
	}
	return false, nil
}

// initializeLocked opens a legacy session: initialize at the newest
// legacy version (or the preferred one when it is legacy), then
// notifications/initialized, then logging/setLevel when a level is set.
func (c *Client) initializeLocked(ctx context.Context) error {
	want := legacyVersions[0]
	if slices.Contains(legacyVersions, c.opts.ProtocolVersion) {
		want = c.opts.ProtocolVersion
	}
	c.modern.Store(false) // a legacy server may send requests from now on
	if ls, ok := c.t.(legacySessioner); ok {
		ls.startLegacy("")
	}
	params, err := json.Marshal(map[string]json.RawMessage{
		"protocolVersion": mustJSON(want),
		"capabilities":    c.caps,
		"clientInfo":      c.info,
	})
	if err != nil {
		return err
	}
	ictx, cancel := context.WithTimeoutCause(ctx, c.opts.probeTimeout(), errors.New("no answer to initialize"))
	defer cancel()
	raw, err := c.t.RoundTrip(ictx, &Request{ID: jsonrpc.IntID(c.seq.Add(1)), Method: "initialize", Params: params})
	if err != nil {
		return fmt.Errorf("client: the server answers neither server/discover nor initialize: %w", err)
	}
	res, err := parseInitializeResult(raw)
	if err != nil {
		return err
	}
	if !slices.Contains(legacyVersions, res.version) {
		return fmt.Errorf("client: the server chose protocol version %q, which this client does not speak (%v)", res.version, legacyVersions)
	}
	c.version, c.legacy, c.eraKnown, c.initRes, c.initCaps = res.version, true, true, raw, res.capabilities
	if ls, ok := c.t.(legacySessioner); ok {
		ls.startLegacy(res.version)
	}
	// The rest of the handshake is bounded like initialize: a server that
	// never answers these POSTs does not hold Connect.
	nctx, ncancel := context.WithTimeoutCause(ctx, c.opts.probeTimeout(), errors.New("no answer to notifications/initialized"))
	defer ncancel()
	if err := c.t.Notify(nctx, &Request{Method: "notifications/initialized", ProtocolVersion: c.version}); err != nil {
		if nctx.Err() != nil {
			err = context.Cause(nctx)
		}
		return fmt.Errorf("client: sending notifications/initialized: %w", err)
	}
	if ls, ok := c.t.(legacySessioner); ok {
		ls.sessionReady()
	}
	if c.opts.LogLevel != "" {
		if _, logging := res.capabilities["logging"]; logging {
			p, _ := json.Marshal(map[string]any{"level": c.opts.LogLevel})
			lctx, lcancel := context.WithTimeoutCause(ctx, c.opts.probeTimeout(), errors.New("no answer to logging/setLevel"))
			defer lcancel()
			if _, err := c.t.RoundTrip(lctx, &Request{ID: jsonrpc.IntID(c.seq.Add(1)), Method: "logging/setLevel", Params: p, ProtocolVersion: c.version}); err != nil {
				return fmt.Errorf("client: logging/setLevel: %w", err)
			}
		}
	}
	return nil
}

// initializeResult is what the client reads of a legacy initialize result.
type initializeResult struct {
	version      string
	capabilities map[string]any // the server's capabilities, nil when not an object
}

// parseInitializeResult reads a legacy initialize result in one parse
// (jsonscan.Tree): members by their exact names, and a name given twice in
// any object an error naming it, as the typed decoders refuse it.
func parseInitializeResult(raw []byte) (initializeResult, error) {
	tree, perr := jsonscan.Tree(jsonscan.TrimSpace(raw), jsonscan.MaxNesting)
	if perr != nil {
		return initializeResult{}, fmt.Errorf("client: the initialize result does not decode: %w", perr)
	}
	obj, ok := tree.(map[string]any)
	if !ok {
		return initializeResult{}, errors.New("client: the initialize result is not a JSON object")
	}
	version, _ := obj["protocolVersion"].(string)
	caps, _ := obj["capabilities"].(map[string]any)
	return initializeResult{version: version, capabilities: caps}, nil
}
