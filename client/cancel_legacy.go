package client

import (
	"context"
	"encoding/json"
	"time"
)

// cancelTimeout bounds the POST of a legacy session's
// notifications/cancelled.
const cancelTimeout = 5 * time.Second

// cancelInSession tells a legacy session's server that the caller gave up
// on req (2025-11-25 basic/utilities/cancellation: "the party that wants
// to cancel a request sends notifications/cancelled"). Closing the POST
// alone does not cancel: in the Streamable HTTP transport of that era a
// disconnect "SHOULD NOT be interpreted as the client cancelling its
// request". initialize is never
// cancelled ("The initialize request MUST NOT be cancelled by clients").
// Modern (2026-07-28) requests are cancelled by closing their stream, which
// the aborted POST already did.
func (t *HTTPTransport) cancelInSession(ctx context.Context, req *Request) {
	t.mu.Lock()
	inSession := t.legacy && t.sessionID != ""
	t.mu.Unlock()
	if !inSession || req.ID.IsZero() || req.Method == "initialize" {
		return
	}
	params, err := json.Marshal(map[string]any{"requestId": req.ID, "reason": context.Cause(ctx).Error()})
	if err != nil {
		return
	}
	nctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cancelTimeout)
	defer cancel()
	_ = t.Notify(nctx, &Request{Method: "notifications/cancelled", Params: params, ProtocolVersion: req.ProtocolVersion})
}
