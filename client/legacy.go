package client

import (
	"encoding/json"
	"fmt"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/internal/reqmeta"
)

// cacheableMethods are the requests whose 2026-07-28 results carry the
// required ttlMs and cacheScope (CacheableResult).
var cacheableMethods = map[string]bool{
	mcp.MethodToolsList: true, mcp.MethodPromptsList: true, mcp.MethodResourcesList: true,
	mcp.MethodResourcesTemplatesList: true, mcp.MethodResourcesRead: true, mcp.MethodServerDiscover: true,
}

// upgradeLegacyResult gives a legacy session's result the members the
// 2026-07-28 types require and older revisions do not send: resultType
// "complete" (an absent resultType means complete anyway), and for
// cacheable results ttlMs 0 and cacheScope "private" — the most
// conservative caching, since a legacy server states none.
func upgradeLegacyResult(method string, raw json.RawMessage) (json.RawMessage, error) {
	if !cacheableMethods[method] {
		return raw, nil
	}
	members, err := exactMembers(raw)
	if err != nil {
		return nil, fmt.Errorf("client: the %s result: %w", method, err)
	}
	changed := false
	for k, v := range map[string]string{"resultType": `"complete"`, "ttlMs": `0`, "cacheScope": `"private"`} {
		if _, ok := members[k]; !ok {
			members[k] = json.RawMessage(v)
			changed = true
		}
	}
	if !changed {
		return raw, nil
	}
	return reqmeta.Join(members), nil
}
