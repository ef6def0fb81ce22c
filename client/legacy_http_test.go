package client_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/client"
	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/server"
)

// wireLog records the messages a client POSTs, with their session id.
type wireLog struct {
	mu   sync.Mutex
	msgs []loggedMessage
}

type loggedMessage struct {
	wireRequest
	SessionID string
	Header    http.Header
}

func (l *wireLog) find(method string) []loggedMessage {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []loggedMessage
	for _, m := range l.msgs {
		if m.Method == method {
			out = append(out, m)
		}
	}
	return out
}

// loggingHandler records every POST body before h serves it.
func loggingHandler(h http.Handler, log *wireLog) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			var m loggedMessage
			_ = json.Unmarshal(body, &m.wireRequest)
			m.SessionID = r.Header.Get("Mcp-Session-Id")
			m.Header = r.Header.Clone()
			log.mu.Lock()
			log.msgs = append(log.msgs, m)
			log.mu.Unlock()
		}
		h.ServeHTTP(w, r)
	})
}

func TestLegacyHTTPCancellationReachesTheServer(t *testing.T) {
	started := make(chan struct{}, 1)
	cancelled := make(chan error, 1)
	srv, err := server.New(server.Options{Name: "cancel-test", Version: "1.0.0",
		Tools: []server.Tool{server.NewTool(server.ToolInfo{Name: "block"}, func(ctx context.Context, in struct{}) (string, error) {
			started <- struct{}{}
			select {
			case <-ctx.Done():
				cancelled <- ctx.Err()
				return "", ctx.Err()
			case <-time.After(20 * time.Second):
				cancelled <- errors.New("the handler was never cancelled")
				return "late", nil
			}
		})}})
	if err != nil {
		t.Fatal(err)
	}
	log := &wireLog{}
	hs := httptest.NewServer(loggingHandler(srv.HTTPHandler(server.HTTPOptions{}), log))
	t.Cleanup(hs.Close)
	c := connect(t, client.HTTP(hs.URL), &client.Options{Era: client.EraLegacy})

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := c.Call(ctx, "tools/call", map[string]any{"name": "block", "arguments": map[string]any{}})
		done <- err
	}()
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("the tool never started")
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Call after cancel = %v, want context.Canceled", err)
	}
	select {
	case err := <-cancelled:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("handler: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the handler's context was not cancelled")
	}
	calls, notes := log.find("tools/call"), log.find("notifications/cancelled")
	if len(calls) != 1 || len(notes) != 1 {
		t.Fatalf("posted %d tools/call and %d notifications/cancelled, want 1 and 1", len(calls), len(notes))
	}
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
		Reason    string          `json:"reason"`
	}
	if err := json.Unmarshal(notes[0].Params, &p); err != nil {
		t.Fatal(err)
	}
	if string(p.RequestID) != string(calls[0].ID) || p.Reason == "" {
		t.Fatalf("notifications/cancelled params %s, want requestId %s and a reason", notes[0].Params, calls[0].ID)
	}
	if notes[0].SessionID == "" || notes[0].SessionID != calls[0].SessionID {
		t.Fatalf("notifications/cancelled sent with session %q, the call with %q", notes[0].SessionID, calls[0].SessionID)
	}
}

func TestLegacyHTTPSessionStreamCarriesListChanged(t *testing.T) {
	srv := testServer(t)
	var getsOpen, getsTotal atomic.Int32
	inner := srv.HTTPHandler(server.HTTPOptions{})
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			getsOpen.Add(1)
			getsTotal.Add(1)
			defer getsOpen.Add(-1)
		}
		inner.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	got := make(chan string, 16)
	c, err := client.Connect(context.Background(), client.HTTP(hs.URL), &client.Options{Era: client.EraLegacy,
		OnNotification: func(method string, params json.RawMessage) { got <- method }})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the GET stream to open", func() bool { return getsOpen.Load() == 1 })
	if err := srv.AddTools(server.NewTool(server.ToolInfo{Name: "late"}, func(ctx context.Context, in struct{}) (string, error) {
		return "", nil
	})); err != nil {
		t.Fatal(err)
	}
	select {
	case m := <-got:
		if m != "notifications/tools/list_changed" {
			t.Fatalf("notification %q, want notifications/tools/list_changed", m)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no list_changed arrived outside any request")
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "Close to end the GET stream", func() bool { return getsOpen.Load() == 0 })
	if n := getsTotal.Load(); n != 1 {
		t.Fatalf("%d GET streams opened, want 1", n)
	}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestListenInALegacySession(t *testing.T) {
	srv := testServer(t)
	doc := func(uri string) server.Resource {
		return server.NewResource(server.ResourceInfo{URI: uri, Name: uri}, func(ctx context.Context) (string, error) { return "x", nil })
	}
	if err := srv.AddResources(doc("file:///watched"), doc("file:///other")); err != nil {
		t.Fatal(err)
	}
	log := &wireLog{}
	hs := httptest.NewServer(loggingHandler(srv.HTTPHandler(server.HTTPOptions{}), log))
	t.Cleanup(hs.Close)
	for name, tr := range map[string]client.Transport{"http": client.HTTP(hs.URL), "stdio": transports(t, srv)["stdio"]()} {
		t.Run(name, func(t *testing.T) {
			c := connect(t, tr, &client.Options{Era: client.EraLegacy})
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			yes := true
			var got []string
			for n, err := range c.Listen(ctx, mcp.SubscriptionFilter{ToolsListChanged: &yes, ResourceSubscriptions: []string{"file:///watched"}}) {
				if err != nil {
					t.Fatalf("Listen: %v", err)
				}
				switch len(got) {
				case 0:
					var ack mcp.SubscriptionsAcknowledgedNotificationParams
					if n.Method != mcp.MethodNotificationsSubscriptionsAcknowledged || json.Unmarshal(n.Params, &ack) != nil ||
						ack.Notifications.ToolsListChanged == nil || !slices.Equal(ack.Notifications.ResourceSubscriptions, []string{"file:///watched"}) ||
						ack.Notifications.PromptsListChanged != nil {
						t.Fatalf("first notification %s %s, want the acknowledgement of the honored filter", n.Method, n.Params)
					}
					// Not asked for: a prompts change and another resource's update.
					if err := srv.AddPrompts(server.NewPrompt(server.PromptInfo{Name: "p-" + name}, func(ctx context.Context, in struct{}) (string, error) { return "", nil })); err != nil {
						t.Fatal(err)
					}
					srv.ResourceUpdated("file:///other")
					srv.ResourceUpdated("file:///watched")
				case 1:
					if n.Method != mcp.MethodNotificationsResourcesUpdated || !strings.Contains(string(n.Params), "file:///watched") {
						t.Fatalf("second notification %s %s, want resources/updated of file:///watched only", n.Method, n.Params)
					}
					if err := srv.AddTools(server.NewTool(server.ToolInfo{Name: "t-" + name}, func(ctx context.Context, in struct{}) (string, error) { return "", nil })); err != nil {
						t.Fatal(err)
					}
				case 2:
					if n.Method != mcp.MethodNotificationsToolsListChanged {
						t.Fatalf("third notification %s, want tools/list_changed", n.Method)
					}
				}
				got = append(got, n.Method)
				if len(got) == 3 {
					break
				}
			}
			if len(got) != 3 {
				t.Fatalf("Listen yielded %v", got)
			}
		})
	}
	if subs, unsubs := log.find("resources/subscribe"), log.find("resources/unsubscribe"); len(subs) != 1 || len(unsubs) != 1 {
		t.Fatalf("HTTP: %d resources/subscribe, %d resources/unsubscribe, want 1 each", len(subs), len(unsubs))
	}
}
