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
func (c *Client) Listen(ctx context.Context, filter mcp.SubscriptionFilter) iter.Seq2[Notification, error] {
	return func(yield func(Notification, error) bool) {
		if c.Legacy() {
			c.listenLegacy(ctx, filter, yield)
			return
		}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		ch := make(chan Notification, 16)
		done := make(chan error, 1)
		go func() {
			if err := c.ensureEra(ctx); err != nil {
				done <- err
				return
			}
			members, err := paramMembers(&mcp.SubscriptionsListenRequestParams{Notifications: filter})
			if err != nil {
				done <- err
				return
			}
			_, err = c.call(ctx, mcp.MethodSubscriptionsListen, members, func(method string, params json.RawMessage) {
				select {
				case ch <- Notification{Method: method, Params: params}:
				case <-ctx.Done():
				}
			})
			if err == nil {
				err = errors.New("client: the server ended the listen stream")
			}
			done <- err
		}()
		for {
			select {
			case n := <-ch:
				if !yield(n, nil) {
					return
				}
			case err := <-done:
				for len(ch) > 0 { // notifications that arrived before the end
					if !yield(<-ch, nil) {
						return
					}
				}
				if ctx.Err() == nil {
					yield(Notification{}, err)
				}
				return
			}
		}
	}
}
