package client

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// Listen in a legacy session: there is no subscriptions/listen, but the
// notifications it would carry arrive anyway — list_changed unsolicited
// for the lists the initialize result declared, resources/updated for the
// URIs resources/subscribe named. listenLegacy subscribes to the requested
// URIs, filters what arrives by the requested filter, and unsubscribes
// when the listener stops.

// legacyListener is one Listen of a legacy session.
type legacyListener struct {
	filter mcp.SubscriptionFilter
	q      *listenQueue
}

type legacyListeners struct {
	mu sync.Mutex
	m  map[*legacyListener]bool
}

func (ls *legacyListeners) add(l *legacyListener) {
	ls.mu.Lock()
	if ls.m == nil {
		ls.m = map[*legacyListener]bool{}
	}
	ls.m[l] = true
	ls.mu.Unlock()
}

// remove drops l and returns the URIs no remaining listener wants.
func (ls *legacyListeners) remove(l *legacyListener) []string {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	delete(ls.m, l)
	var unused []string
	for _, uri := range l.filter.ResourceSubscriptions {
		wanted := false
		for other := range ls.m {
			wanted = wanted || slices.Contains(other.filter.ResourceSubscriptions, uri)
		}
		if !wanted {
			unused = append(unused, uri)
		}
	}
	return unused
}

// deliver queues a notification for every listener whose filter asks for
// it. It never blocks: it runs on the transport's reader.
func (ls *legacyListeners) deliver(method string, params json.RawMessage) {
	ls.mu.Lock()
	var targets []*legacyListener
	for l := range ls.m {
		if l.wants(method, params) {
			targets = append(targets, l)
		}
	}
	ls.mu.Unlock()
	for _, l := range targets {
		l.q.push(method, params)
	}
}

func (l *legacyListener) wants(method string, params json.RawMessage) bool {
	f := l.filter
	switch method {
	case mcp.MethodNotificationsToolsListChanged:
		return f.ToolsListChanged != nil && *f.ToolsListChanged
	case mcp.MethodNotificationsPromptsListChanged:
		return f.PromptsListChanged != nil && *f.PromptsListChanged
	case mcp.MethodNotificationsResourcesListChanged:
		return f.ResourcesListChanged != nil && *f.ResourcesListChanged
	case mcp.MethodNotificationsResourcesUpdated:
		var p struct {
			URI string `json:"uri"`
		}
		return json.Unmarshal(params, &p) == nil && slices.Contains(f.ResourceSubscriptions, p.URI)
	}
	return false
}

// honored is the part of filter the legacy server's capabilities offer.
func (c *Client) honored(filter mcp.SubscriptionFilter) mcp.SubscriptionFilter {
	c.eraMu.Lock()
	caps := c.initCaps
	c.eraMu.Unlock()
	tools, _ := caps["tools"].(map[string]any)
	prompts, _ := caps["prompts"].(map[string]any)
	resources, _ := caps["resources"].(map[string]any)
	yes := true
	var out mcp.SubscriptionFilter
	if filter.ToolsListChanged != nil && *filter.ToolsListChanged && tools["listChanged"] == true {
		out.ToolsListChanged = &yes
	}
	if filter.PromptsListChanged != nil && *filter.PromptsListChanged && prompts["listChanged"] == true {
		out.PromptsListChanged = &yes
	}
	if filter.ResourcesListChanged != nil && *filter.ResourcesListChanged && resources["listChanged"] == true {
		out.ResourcesListChanged = &yes
	}
	if resources["subscribe"] == true {
		out.ResourceSubscriptions = slices.Clone(filter.ResourceSubscriptions)
	}
	return out
}

// listenLegacy is Listen in a legacy session.
func (c *Client) listenLegacy(ctx context.Context, filter mcp.SubscriptionFilter, yield func(Notification, error) bool) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	honored := c.honored(filter)
	l := &legacyListener{filter: honored, q: newListenQueue(cancel)}
	c.listeners.add(l)
	var subscribed []string
	defer func() {
		unused := c.listeners.remove(l)
		uctx, ucancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer ucancel()
		for _, uri := range unused {
			if slices.Contains(subscribed, uri) {
				_, _ = c.Call(uctx, "resources/unsubscribe", map[string]string{"uri": uri})
			}
		}
	}()
	for _, uri := range honored.ResourceSubscriptions {
		if _, err := c.Call(ctx, "resources/subscribe", map[string]string{"uri": uri}); err != nil {
			yield(Notification{}, err)
			return
		}
		subscribed = append(subscribed, uri)
	}
	ack, err := json.Marshal(&mcp.SubscriptionsAcknowledgedNotificationParams{Notifications: honored})
	if err != nil {
		yield(Notification{}, err)
		return
	}
	if !yield(Notification{Method: mcp.MethodNotificationsSubscriptionsAcknowledged, Params: ack}, nil) {
		return
	}
	yieldQueue(ctx, l.q, ctx.Done(), yield)
}
