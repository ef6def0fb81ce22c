package server

import (
	"encoding/json"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// listChangedMethods are the notifications of the list kinds, by change.
var listChangedMethods = [...]string{
	changeTools:     mcp.MethodNotificationsToolsListChanged,
	changePrompts:   mcp.MethodNotificationsPromptsListChanged,
	changeResources: mcp.MethodNotificationsResourcesListChanged,
}

// listChangedMessages are one listen stream's list_changed notifications,
// each encoded the first time it is sent and then reused: the same bytes
// every time (the stream's subscriptionId tag is its only variable part),
// so a change fanned out to many streams encodes nothing per stream. The
// messages are never modified once built, so a transport may keep one
// queued after sendRaw returns (stdio).
type listChangedMessages struct {
	plain []byte // the params: {"_meta":<tag>}
	msgs  [len(listChangedMethods)][]byte
}

// sendListChanged sends the list_changed notification of kind (a list
// kind) on w: the encoded message as is when w takes one (rawSender),
// through Notify otherwise.
func (m *listChangedMessages) sendListChanged(w MessageWriter, kind change) error {
	rs, ok := w.(rawSender)
	if !ok {
		return w.Notify(listChangedMethods[kind], json.RawMessage(m.plain))
	}
	if m.msgs[kind] == nil {
		m.msgs[kind] = jsonrpc.AppendNotification(nil, listChangedMethods[kind], m.plain)
	}
	return rs.sendRaw(m.msgs[kind])
}
