package client

import (
	"encoding/json"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// notificationKeys returns the key by which a notification names a
// request, as canonical text: a notifications/progress names one by its
// progress token alone (progressTokenKey's; progress.mdx), a subscription
// id in its _meta notwithstanding; any other notification by the
// subscription id in its _meta (canonicalKey's), which exists so clients
// can demultiplex them (subscriptions.mdx). At most one of token and sub
// is set, so no notification can name two requests. The members are read
// by their exact names, as the generated decoders read them: params or
// _meta naming a member twice (or not an object) name no request, so
// "PROGRESSTOKEN" or a second "progressToken" cannot steer a notification
// to a call that the decoded notification does not name.
func notificationKeys(method string, params json.RawMessage) (token, sub string) {
	members, err := exactMembers(params)
	if err != nil {
		return "", ""
	}
	if method == mcp.MethodNotificationsProgress {
		return progressTokenKey(members["progressToken"]), ""
	}
	if raw, ok := members["_meta"]; ok {
		meta, err := exactMembers(raw)
		if err != nil {
			return "", ""
		}
		sub = canonicalKey(meta["io.modelcontextprotocol/subscriptionId"])
	}
	return "", sub
}

// names reports whether a notification with these keys (notificationKeys')
// is one of req's: it carries req's progress token, or req's id as its
// subscription id. Every transport routes by it.
func (req *Request) names(token, sub string) bool {
	return (token != "" && req.ProgressToken == token) || (sub != "" && req.ID.String() == sub)
}

// ownsStreamed reports whether a notification that arrived on req's own
// response stream (a POST's SSE stream) is req's. One that names a request
// (notificationKeys) is req's only when it names req, as on stdio, where
// the same notification would reach req by the same rule; a
// notifications/progress naming no token is not (it goes to
// Options.OnProgress, as on stdio); any other naming no request is req's,
// being sent on its stream.
func (req *Request) ownsStreamed(method string, params json.RawMessage) bool {
	token, sub := notificationKeys(method, params)
	if token != "" || sub != "" {
		return req.names(token, sub)
	}
	return method != mcp.MethodNotificationsProgress
}

// canonicalKey is the canonical text of a request id (a string or an
// integer, read as jsonrpc.ID reads it), "" for anything else.
func canonicalKey(raw json.RawMessage) string {
	var id jsonrpc.ID
	if raw == nil || id.UnmarshalJSON(raw) != nil {
		return ""
	}
	return id.String()
}

// progressTokenKey is the canonical text of a progress token, read as the
// generated mcp.ProgressToken decoder reads it: a string, or an integer
// written with any zero fraction or exponent (100, 100.0 and 1e2 are one
// token, keyed "100"); "" for anything else.
func progressTokenKey(raw json.RawMessage) string {
	if raw == nil {
		return ""
	}
	if key := canonicalKey(raw); key != "" {
		return key // the common case: a plain string or integer
	}
	var tok mcp.ProgressToken
	if tok.UnmarshalJSON(raw) != nil {
		return ""
	}
	switch v := tok.Value.(type) {
	case int64:
		return jsonrpc.IntID(v).String()
	case string:
		return jsonrpc.StringID(v).String()
	}
	return ""
}
