package client

import (
	"context"
	"encoding/json"
	"errors"
	"iter"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// Notification is one notification of a listen stream.
type Notification struct {
	Method string
	Params json.RawMessage
}

// Listen opens a subscriptions/listen stream with filter and yields its
// notifications (notifications/subscriptions/acknowledged first) until ctx
// ends, the loop stops, or the stream ends; a stream that ends or fails
// yields one last error. In a legacy session, which has no
// subscriptions/listen, Listen emulates it (listen_legacy.go): the
// acknowledgement lists the part of filter the server's capabilities
// offer, the requested URIs are subscribed with resources/subscribe, and
// the session's list_changed and resources/updated notifications are
// yielded as filter asks.
//
// The transport's reader never waits for the loop: notifications queue
// until the loop takes them, so the loop may call the client (ListTools on
// notifications/tools/list_changed) and take its time. The queue is
// bounded: a list_changed or resources/updated notification equal to one
// still queued is coalesced with it, and a loop that falls more than 1024
// notifications behind gets the ones queued and then ErrListenOverflow,
// which ends the stream; listening again resumes.
func (c *Client) Listen(ctx context.Context, filter mcp.SubscriptionFilter) iter.Seq2[Notification, error] {
	return func(yield func(Notification, error) bool) {
		if c.Legacy() {
			c.listenLegacy(ctx, filter, yield)
			return
		}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		q := newListenQueue(cancel)
		go func() {
			if err := c.ensureEra(ctx); err != nil {
				q.end(err)
				return
			}
			members, err := paramMembers(&mcp.SubscriptionsListenRequestParams{Notifications: filter})
			if err != nil {
				q.end(err)
				return
			}
			_, err = c.call(ctx, mcp.MethodSubscriptionsListen, members, q.push)
			if err == nil {
				err = errors.New("client: the server ended the listen stream")
			}
			q.end(err)
		}()
		yieldQueue(ctx, q, nil, yield)
	}
}
