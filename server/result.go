package server

import (
	"bytes"
	"runtime/debug"
	"strconv"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/internal/jsonenc"
	"github.com/mcpgen/mcpgen/internal/jsonscan"
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

var errNoResult = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "Internal error: the handler returned no result"}

// resultDefaults is what every result this request answers with carries
// unless the handler set its own: _meta.io.modelcontextprotocol/serverInfo
// and, for cacheable results, the cache policy.
func (r *request) resultDefaults() *mcp.ResultDefaults {
	p := r.policy()
	return &mcp.ResultDefaults{Meta: mcp.ResultMetaObject{ServerInfo: &r.s.info}, TTLMs: p.TTLMs, CacheScope: p.Scope}
}

// jsonAppender is implemented by the generated types: AppendJSON writes
// what MarshalJSON returns, straight into dst.
type jsonAppender interface {
	AppendJSON(dst []byte) ([]byte, error)
}

// encodeResult encodes a handler's result with the members every result
// carries (mcp.ResultCompleter): resultType (which the generated encoders
// fill in), _meta serverInfo, and for cacheable results ttlMs and
// cacheScope. Results are copied before they are completed, so handlers may
// return shared values. The encoding runs the handler's own code (a
// MarshalJSON of a value it returned) after s.call's recovery has ended,
// so a panic here is recovered too: -32603, logged, the server serving on.
func (s *Server) encodeResult(r *request, result any) (b []byte, rerr *jsonrpc.Error) {
	defer func() {
		if v := recover(); v != nil {
			s.logger.Error("result encoding panic", "method", r.method, "panic", v, "stack", string(debug.Stack()))
			b, rerr = nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "Internal error: encoding the result panicked"}
		}
	}()
	var v any
	unknown := false
	switch x := result.(type) {
	case nil:
		return nil, errNoResult
	case rawResult:
		return x, nil
	case *resultFrame:
		return x.result, nil
	case mcp.ResultCompleter:
		if v = x.Completed(r.resultDefaults()); v == nil {
			return nil, errNoResult
		}
	default:
		v, unknown = result, true
	}
	var err error
	if a, ok := v.(jsonAppender); ok && !unknown {
		// A generated result appends itself: a large blob or text is
		// written once, not re-validated and copied at every level, and
		// behind the room for the response's head (frame.go), so it is
		// not copied into the response either.
		if b, err = a.AppendJSON(r.frame.start()); err == nil {
			b = r.frame.adopt(b)
		}
	} else if ok {
		b, err = a.AppendJSON(nil)
	} else {
		b, err = jsonenc.Marshal(v)
	}
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
