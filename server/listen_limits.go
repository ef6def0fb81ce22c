package server

import (
	"strconv"

	"github.com/mcpgen/mcpgen/jsonrpc"
)

// The bounds of one subscriptions/listen request's resourceSubscriptions:
// the same as a legacy session's resources/subscribe (legacy.go), since a
// listen holds each URI, with its pending update, for as long as it is
// open. The taskIds of one listen are bounded by maxListenTaskIDs.
const (
	maxListenResourceSubscriptions     = maxSessionSubscriptions
	maxListenResourceSubscriptionBytes = maxSessionSubscriptionBytes
)

// checkListenResourceSubscriptions refuses with -32602 a listen filter
// naming more URIs, or more bytes of them, than one listen may hold.
func checkListenResourceSubscriptions(uris []string) *jsonrpc.Error {
	n := 0
	for _, u := range uris {
		n += len(u)
	}
	if len(uris) <= maxListenResourceSubscriptions && n <= maxListenResourceSubscriptionBytes {
		return nil
	}
	return invalidParams("params.notifications.resourceSubscriptions: " + strconv.Itoa(len(uris)) + " URIs, " +
		strconv.Itoa(n) + " bytes of them; at most " + strconv.Itoa(maxListenResourceSubscriptions) + " URIs and " +
		strconv.Itoa(maxListenResourceSubscriptionBytes>>10) + " KiB of them per listen")
}
