package server

import (
	"context"
	"encoding/json"
	"errors"
	"sync"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// subscriptions/listen (basic/patterns/subscriptions.mdx): the stream is the
// listen request itself. Handle sends the acknowledgement first (with the
// honoured subset of the filter), then every matching change as a
// notification tagged with io.modelcontextprotocol/subscriptionId = the
// listen request's id, until the client cancels (ctx) or Shutdown ends it
// with a SubscriptionsListenResult.

// change is a kind of server-side event listeners may want.
type change int

const (
	changeTools change = iota
	changePrompts
	changeResources
	changeResourceUpdated
	changeTask // a task's status (listen_tasks.go)
)

type event struct {
	kind change
	uri  string // changeResourceUpdated: the resource; changeTask: the task id
}

// subscriptions is the set of open listen streams.
type subscriptions struct {
	mu  sync.Mutex
	set map[*subscriber]struct{}
	seq [changeTask + 1]uint64 // events published, by kind (under mu)
}

type subscriber struct {
	tools, prompts, resources bool
	uris                      map[string]bool
	uriBytes                  int             // the length of uris' keys (a legacy session's bound)
	tasks                     map[string]bool // task ids (notifications/tasks); fixed once added
	pending                   pendingEvents   // published, not yet delivered (listen_queue.go)
}

func newSubscriber() *subscriber { return &subscriber{pending: newPendingEvents()} }

func (sub *subscriber) wants(ev event) bool {
	switch ev.kind {
	case changeTools:
		return sub.tools
	case changePrompts:
		return sub.prompts
	case changeResources:
		return sub.resources
	case changeResourceUpdated:
		return sub.uris[ev.uri]
	case changeTask:
		return sub.tasks[ev.uri]
	}
	return false
}

func (subs *subscriptions) add(sub *subscriber) {
	subs.mu.Lock()
	if subs.set == nil {
		subs.set = map[*subscriber]struct{}{}
	}
	subs.set[sub] = struct{}{}
	subs.mu.Unlock()
}

func (subs *subscriptions) remove(sub *subscriber) {
	subs.mu.Lock()
	delete(subs.set, sub)
	subs.mu.Unlock()
}

// publish queues an event for every stream that asked for it, without
// waiting for any (pendingEvents: a stream that is behind misses none).
func (subs *subscriptions) publish(kind change, uri string) {
	ev := event{kind, uri}
	subs.mu.Lock()
	defer subs.mu.Unlock()
	subs.seq[kind]++
	for sub := range subs.set {
		if sub.wants(ev) {
			sub.pending.offer(ev)
		}
	}
}

var errNoWriter = errors.New("subscriptions/listen needs a transport that carries notifications")

// listen serves one subscriptions/listen stream.
func (s *Server) listen(ctx context.Context, r *request, _ *requestParams, params json.RawMessage) (any, error) {
	var p mcp.SubscriptionsListenRequestParams
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, paramsError(err)
	}
	if r.w == nil {
		return nil, errNoWriter
	}
	// A listen admitted before a drain began is served like any other
	// request (the drain waits for it, admit.go): it is acknowledged,
	// then the loop below sees the drain and ends it with its result.
	s.streams.Add(1)
	defer s.streams.Done()
	yes := true
	f := p.Notifications
	var granted mcp.SubscriptionFilter
	sub := newSubscriber()
	changes := s.listChanges()
	if f.ToolsListChanged != nil && *f.ToolsListChanged && changes.tools {
		granted.ToolsListChanged, sub.tools = &yes, true
	}
	if f.PromptsListChanged != nil && *f.PromptsListChanged && changes.prompts {
		granted.PromptsListChanged, sub.prompts = &yes, true
	}
	if f.ResourcesListChanged != nil && *f.ResourcesListChanged && changes.resources {
		granted.ResourcesListChanged, sub.resources = &yes, true
	}
	if len(f.ResourceSubscriptions) > 0 && s.offers("resources") {
		if err := checkListenResourceSubscriptions(f.ResourceSubscriptions); err != nil {
			return nil, err
		}
		// Only what the caller may read: resources/read of a URI left out
		// is refused (403 insufficient_scope, or not found when hidden),
		// and so would be its updates.
		sub.uris = make(map[string]bool, len(f.ResourceSubscriptions))
		for _, u := range f.ResourceSubscriptions {
			if !sub.uris[u] && s.resources.readable(ctx, u) {
				granted.ResourceSubscriptions = append(granted.ResourceSubscriptions, u)
				sub.uris[u] = true
			}
		}
	}
	taskIDs, err := s.listenTasks(ctx, f)
	if err != nil {
		return nil, err
	}
	if len(taskIDs) > 0 {
		ids, _ := json.Marshal(taskIDs)
		granted.Extra = map[string]json.RawMessage{filterTaskIDs: ids}
		sub.tasks = make(map[string]bool, len(taskIDs))
		for _, id := range taskIDs {
			sub.tasks[id] = true
		}
	}
	s.subs.add(sub)
	defer s.subs.remove(sub)

	tag := append(append([]byte(`{"`+keySubscriptionID+`":`), r.id.String()...), '}')
	filter, err := json.Marshal(granted)
	if err != nil {
		return nil, err
	}
	ack := append(append(append(append([]byte(`{"_meta":`), tag...), `,"notifications":`...), filter...), '}')
	if err := r.w.Notify(mcp.MethodNotificationsSubscriptionsAcknowledged, json.RawMessage(ack)); err != nil {
		return nil, err
	}
	plain := append(append([]byte(`{"_meta":`), tag...), '}')
	lists := &listChangedMessages{plain: plain}
	tasks := newTaskWatch(taskIDs)
	for _, id := range taskIDs { // the state now: a change before the ack is not missed
		if err := s.sendTaskStatus(ctx, r, tag, tasks, id); err != nil {
			return nil, err
		}
	}
	recheck, stopRecheck := s.taskRecheck(taskIDs)
	defer stopRecheck()
	// The stream's goroutine waits on its wake channel alone (a select on
	// the request's context and the server's closing channel too would
	// lock all three at every wait and wake, the shared closing channel by
	// every stream of a fan-out): the end of the request and the drain
	// (Shutdown pokes every subscriber after closing) wake it as well, and
	// it looks at both each time.
	stopWake := context.AfterFunc(ctx, sub.pending.poke)
	defer stopWake()
	var events []event
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		select {
		case <-s.closing:
			// The drain ends the stream with its result, which tells the
			// client it ended gracefully: the changes still waiting for
			// it are sent first (a client that does not read them is cut
			// off at the end of the grace, which cancels ctx).
			if _, err := s.deliverPending(ctx, r, tag, lists, tasks, sub, events); err != nil {
				return nil, err
			}
			return listenResult(tag), nil
		default:
		}
		if recheck == nil {
			<-sub.pending.wake
		} else {
			select {
			case <-recheck:
				if err := s.recheckTasks(ctx, r, tag, tasks); err != nil {
					return nil, err
				}
				continue
			case <-sub.pending.wake:
			}
		}
		var err error
		if events, err = s.deliverPending(ctx, r, tag, lists, tasks, sub, events); err != nil {
			return nil, err
		}
	}
}

// deliverPending writes the notifications of the events pending for sub,
// oldest first; it takes them into buf and returns it, for the next time.
func (s *Server) deliverPending(ctx context.Context, r *request, tag []byte, lists *listChangedMessages, tasks *taskWatch, sub *subscriber, buf []event) ([]event, error) {
	buf = sub.pending.take(buf)
	for _, ev := range buf {
		if err := ctx.Err(); err != nil {
			return buf, err
		}
		if err := s.deliver(ctx, r, tag, lists, tasks, ev); err != nil {
			return buf, err
		}
	}
	return buf, nil
}

// deliver writes the notification of one event to a listen stream.
func (s *Server) deliver(ctx context.Context, r *request, tag []byte, lists *listChangedMessages, tasks *taskWatch, ev event) error {
	switch ev.kind {
	case changeTask:
		return s.sendTaskStatus(ctx, r, tag, tasks, ev.uri)
	case changeResourceUpdated:
		if !s.resources.readable(ctx, ev.uri) {
			return nil // registered since, behind scopes the caller lacks
		}
		body := append(append(append(append([]byte(`{"_meta":`), tag...), `,"uri":`...), jsonrpc.AppendString(nil, ev.uri)...), '}')
		return r.w.Notify(mcp.MethodNotificationsResourcesUpdated, json.RawMessage(body))
	}
	return lists.sendListChanged(r.w, ev.kind)
}

// listenResult is the graceful end of a stream: a result whose
// subscriptionId is the listen request's id as sent (tag holds its JSON
// encoding, which keeps a lone-surrogate string id apart from U+FFFD).
func listenResult(tag []byte) json.RawMessage {
	return json.RawMessage(append(append([]byte(`{"_meta":`), tag...), '}'))
}

// wakeAll pokes every open stream: the drain has begun (s.closing is
// closed), which each sees when it wakes. A stream added after this looks
// at s.closing before it first waits.
func (subs *subscriptions) wakeAll() {
	subs.mu.Lock()
	defer subs.mu.Unlock()
	for sub := range subs.set {
		sub.pending.poke()
	}
}

// published returns how many events of kind were published so far.
func (subs *subscriptions) published(kind change) uint64 {
	subs.mu.Lock()
	defer subs.mu.Unlock()
	return subs.seq[kind]
}
