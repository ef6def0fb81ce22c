package server

import (
	"bytes"
	"encoding/json"
	"github.com/mcpgen/mcpgen/internal/jsonscan"
	"strconv"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// rawResult is a result already encoded by a registry, complete with
// resultType and _meta; it is sent verbatim.
type rawResult []byte

// policy is the cache policy of the current request's result.
func (r *request) policy() CachePolicy {
	if r.cache != nil {
		return *r.cache
	}
	if r.s.opts.Cache.Scope == "" && r.ctx != nil && Principal(r.ctx) != nil {
		// An authenticated caller's results may hold what only that
		// caller may see (caching.mdx): private unless configured.
		p := r.s.cache
		p.Scope = "private"
		return p
	}
	return r.s.cache
}

// fillCache applies the cache policy unless the result set a cacheScope.
func (r *request) fillCache(ttl *int64, scope *string) {
	if *scope == "" {
		p := r.policy()
		*ttl, *scope = p.TTLMs, p.Scope
	}
}

// fillMeta adds serverInfo to a result's _meta.
func (s *Server) fillMeta(m *mcp.ResultMetaObject) *mcp.ResultMetaObject {
	if m == nil {
		return s.resultMeta
	}
	if m.ServerInfo == nil {
		c := *m
		c.ServerInfo = &s.info
		return &c
	}
	return m
}

func complete(rt string) string {
	if rt == "" {
		return "complete"
	}
	return rt
}

var errNoResult = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "Internal error: the handler returned no result"}

// encodeResult encodes a handler's result with the fields every result
// carries: resultType ("complete" unless it is an InputRequiredResult),
// _meta.io.modelcontextprotocol/serverInfo, and for cacheable results ttlMs
// and cacheScope (the server's defaults unless the result set its own).
// Results are copied before they are completed, so handlers may return
// shared values.
func (s *Server) encodeResult(r *request, result any) ([]byte, *jsonrpc.Error) {
	var v any
	unknown := false
	switch x := result.(type) {
	case nil:
		return nil, errNoResult
	case rawResult:
		return x, nil
	case *mcp.CallToolResult:
		if x == nil {
			return nil, errNoResult
		}
		c := *x
		c.ResultType, c.Meta = complete(c.ResultType), s.fillMeta(c.Meta)
		if c.Content == nil {
			c.Content = []mcp.ContentBlock{}
		}
		v = c
	case *mcp.InputRequiredResult:
		if x == nil {
			return nil, errNoResult
		}
		c := *x
		c.ResultType, c.Meta = "input_required", s.fillMeta(c.Meta)
		v = c
	case *mcp.GetPromptResult:
		if x == nil {
			return nil, errNoResult
		}
		c := *x
		c.ResultType, c.Meta = complete(c.ResultType), s.fillMeta(c.Meta)
		if c.Messages == nil {
			c.Messages = []mcp.PromptMessage{}
		}
		v = c
	case *mcp.ReadResourceResult:
		if x == nil {
			return nil, errNoResult
		}
		c := *x
		c.ResultType, c.Meta = complete(c.ResultType), s.fillMeta(c.Meta)
		if c.CacheScope == "" || c.TTLMs == nil {
			p := r.policy()
			if c.CacheScope == "" {
				c.CacheScope = p.Scope
			}
			if c.TTLMs == nil {
				c.TTLMs = &p.TTLMs
			}
		}
		if c.Contents == nil {
			c.Contents = []mcp.ResourceContentsUnion{}
		}
		v = c
	case *mcp.ListToolsResult:
		if x == nil {
			return nil, errNoResult
		}
		c := *x
		c.ResultType, c.Meta = complete(c.ResultType), s.fillMeta(c.Meta)
		r.fillCache(&c.TTLMs, &c.CacheScope)
		if c.Tools == nil {
			c.Tools = []mcp.Tool{}
		}
		v = c
	case *mcp.ListPromptsResult:
		if x == nil {
			return nil, errNoResult
		}
		c := *x
		c.ResultType, c.Meta = complete(c.ResultType), s.fillMeta(c.Meta)
		r.fillCache(&c.TTLMs, &c.CacheScope)
		if c.Prompts == nil {
			c.Prompts = []mcp.Prompt{}
		}
		v = c
	case *mcp.ListResourcesResult:
		if x == nil {
			return nil, errNoResult
		}
		c := *x
		c.ResultType, c.Meta = complete(c.ResultType), s.fillMeta(c.Meta)
		r.fillCache(&c.TTLMs, &c.CacheScope)
		if c.Resources == nil {
			c.Resources = []mcp.Resource{}
		}
		v = c
	case *mcp.ListResourceTemplatesResult:
		if x == nil {
			return nil, errNoResult
		}
		c := *x
		c.ResultType, c.Meta = complete(c.ResultType), s.fillMeta(c.Meta)
		r.fillCache(&c.TTLMs, &c.CacheScope)
		if c.ResourceTemplates == nil {
			c.ResourceTemplates = []mcp.ResourceTemplate{}
		}
		v = c
	case *mcp.DiscoverResult:
		if x == nil {
			return nil, errNoResult
		}
		c := *x
		c.ResultType, c.Meta = complete(c.ResultType), s.fillMeta(c.Meta)
		r.fillCache(&c.TTLMs, &c.CacheScope)
		v = c
	case *mcp.CompleteResult:
		if x == nil {
			return nil, errNoResult
		}
		c := *x
		c.ResultType, c.Meta = complete(c.ResultType), s.fillMeta(c.Meta)
		if c.Completion.Values == nil {
			c.Completion.Values = []string{}
		}
		v = c
	case *mcp.SubscriptionsListenResult:
		if x == nil {
			return nil, errNoResult
		}
		c := *x
		c.ResultType = complete(c.ResultType)
		if c.Meta.ServerInfo == nil {
			c.Meta.ServerInfo = &s.info
		}
		v = c
	case *mcp.Result:
		if x == nil {
			return nil, errNoResult
		}
		c := *x
		c.ResultType, c.Meta = complete(c.ResultType), s.fillMeta(c.Meta)
		v = c
	default:
		v, unknown = result, true
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "Internal error: encoding the result: " + err.Error()}
	}
	if unknown {
		b = addResultType(b)
	}
	return b, nil
}

// addResultType inserts "resultType":"complete" into an encoded object that
// lacks it (results of types the runtime does not know).
func addResultType(b []byte) []byte {
	if jsonscan.Kind(b) != '{' {
		return b
	}
	has := false
	jsonscan.EachMember(b, func(key, _ []byte) {
		if jsonscan.KeyEquals(key, "resultType") {
			has = true
		}
	})
	if has {
		return b
	}
	i := bytes.IndexByte(b, '{') + 1
	rest := bytes.TrimSpace(b[i:])
	out := make([]byte, 0, len(b)+26)
	out = append(out, b[:i]...)
	out = append(out, `"resultType":"complete"`...)
	if len(rest) > 0 && rest[0] != '}' {
		out = append(out, ',')
	}
	return append(out, rest...)
}

// appendList appends a complete list result: {"<field>":page,
// "nextCursor":…, "ttlMs":…, "cacheScope":…, "resultType":"complete",
// "_meta":{serverInfo}}.
func (s *Server) appendList(dst []byte, r *request, field string, page []byte, next string) []byte {
	p := r.policy()
	dst = append(dst, `{"`...)
	dst = append(dst, field...)
	dst = append(dst, `":`...)
	dst = append(dst, page...)
	if next != "" {
		dst = append(dst, `,"nextCursor":"`...)
		dst = append(dst, next...) // base64url: no escaping needed
		dst = append(dst, '"')
	}
	dst = append(dst, `,"ttlMs":`...)
	dst = strconv.AppendInt(dst, p.TTLMs, 10)
	dst = append(dst, `,"cacheScope":"`...)
	dst = append(dst, p.Scope...)
	dst = append(dst, `","resultType":"complete","_meta":`...)
	dst = append(dst, s.metaJSON...)
	return append(dst, '}')
}
