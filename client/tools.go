package client

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"sync"

	"github.com/mcpgen/mcpgen/argschema"
	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/internal/httpwire"
	"github.com/mcpgen/mcpgen/internal/jsonscan"
	"github.com/mcpgen/mcpgen/internal/reqmeta"
)

// toolCache remembers what tools/list said about each tool: its
// x-mcp-header declarations (mirrored into Mcp-Param-* headers on HTTP)
// and its outputSchema (for CallToolAs).
type toolCache struct {
	mirror bool // the transport carries Mcp-Param-* headers

	mu    sync.Mutex
	tools map[string]*toolEntry
}

type toolEntry struct {
	params       []httpwire.ParamHeader
	outputSchema json.RawMessage
	compiled     *argschema.Validator
	compileErr   error
}

// observe records the tools of a tools/list result. On HTTP a tool with an
// invalid x-mcp-header annotation is dropped from the result and a warning
// logged ("Clients using the Streamable HTTP transport MUST reject tool
// definitions where any x-mcp-header value violates these constraints").
func (tc *toolCache) observe(result json.RawMessage, log *slog.Logger) (json.RawMessage, error) {
	members, err := exactMembers(result)
	if err != nil {
		return nil, fmt.Errorf("client: the tools/list result: %w", err)
	}
	var tools []json.RawMessage
	if err := json.Unmarshal(members["tools"], &tools); err != nil {
		return nil, fmt.Errorf("client: the tools/list result's tools is not an array: %w", err)
	}
	kept := tools[:0]
	tc.mu.Lock()
	defer tc.mu.Unlock()
	if tc.tools == nil {
		tc.tools = map[string]*toolEntry{}
	}
	for i, raw := range tools {
		tool, err := exactMembers(raw)
		if err != nil {
			return nil, fmt.Errorf("client: tools/list tools[%d]: %w", i, err)
		}
		name, ok := jsonscan.String(tool["name"])
		if !ok {
			return nil, fmt.Errorf("client: tools/list tools[%d] has no string name", i)
		}
		e := &toolEntry{outputSchema: tool["outputSchema"]}
		if tc.mirror {
			params, err := httpwire.ParamHeadersFromSchema(tool["inputSchema"])
			if err != nil {
				log.Warn("mcp client: tool rejected for an invalid x-mcp-header annotation", "tool", name, "error", err)
				delete(tc.tools, name)
				continue
			}
			e.params = params
		}
		// The cache is bounded: a server that lists ever new names (one
		// listing after another) cannot grow it without end. A tool past
		// the bound is still returned, only not remembered.
		if _, known := tc.tools[name]; known || len(tc.tools) < MaxListedTools {
			tc.tools[name] = e
		}
		kept = append(kept, raw)
	}
	if len(kept) == len(tools) {
		return result, nil
	}
	b, err := json.Marshal(kept)
	if err != nil {
		return nil, err
	}
	members["tools"] = b
	return reqmeta.Join(members), nil
}

// headers returns the Mcp-Param-* headers of a call to tool name.
func (tc *toolCache) headers(name string, args json.RawMessage) (http.Header, error) {
	tc.mu.Lock()
	e := tc.tools[name]
	tc.mu.Unlock()
	if e == nil || len(e.params) == 0 {
		return nil, nil
	}
	h := http.Header{}
	if err := httpwire.MirrorParams(h, e.params, args); err != nil {
		return nil, err
	}
	return h, nil
}

func (tc *toolCache) entry(name string) *toolEntry {
	tc.mu.Lock()
	defer tc.mu.Unlock()
	return tc.tools[name]
}

// refreshTools lists every tool again (after a HeaderMismatch: "the client
// SHOULD call tools/list to check for changes to the tool's inputSchema").
func (c *Client) refreshTools(ctx context.Context) error {
	_, err := c.AllTools(ctx)
	return err
}

// MaxListedTools bounds the tools AllTools collects and the tools the
// client remembers from tools/list (for x-mcp-header mirroring and
// CallToolAs's outputSchema); AllTools fails beyond it.
const MaxListedTools = 100_000

// AllTools lists every tool, following nextCursor. A server whose
// cursors repeat (a loop), or that lists more than MaxListedTools tools or
// 1000 pages, gets an error instead of an endless or unbounded listing.
func (c *Client) AllTools(ctx context.Context) ([]mcp.Tool, error) {
	var all []mcp.Tool
	params := &mcp.PaginatedRequestParams{}
	seen := map[string]bool{}
	for page := 0; ; page++ {
		if page >= 1000 {
			return nil, fmt.Errorf("client: tools/list returned more than 1000 pages")
		}
		res, err := c.ListTools(ctx, params)
		if err != nil {
			return nil, err
		}
		if len(all)+len(res.Tools) > MaxListedTools {
			return nil, fmt.Errorf("client: tools/list returned more than %d tools (MaxListedTools)", MaxListedTools)
		}
		all = append(all, res.Tools...)
		if res.NextCursor == nil {
			return all, nil
		}
		if seen[*res.NextCursor] {
			return nil, fmt.Errorf("client: tools/list page %d names cursor %q, which an earlier page already named: the listing loops",
				page+1, clipString(*res.NextCursor))
		}
		seen[*res.NextCursor] = true
		params = &mcp.PaginatedRequestParams{Cursor: res.NextCursor}
	}
}
