package server

import "encoding/json"

// MetaJSON decodes a JSON object constant into a definition's _meta (for
// ToolInfo.Meta and the like); `mcpgen tools` emits it for a directive's
// meta=<const>, which it has already checked is a JSON object. Anything
// else panics at start-up.
func MetaJSON(object string) map[string]any {
	var m map[string]any
	if err := json.Unmarshal([]byte(object), &m); err != nil || m == nil {
		panic("server.MetaJSON: not a JSON object: " + object)
	}
	return m
}
