package client

import (
	"context"
	"fmt"
	"mime"
	"net/http"
	"time"

	"github.com/mcpgen/mcpgen/internal/httpwire"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// The standalone GET stream of a legacy HTTP session (2025-03-26 …
// 2025-11-25 streamable HTTP, "Listening for Messages from the Server"):
// opened once the session is initialized, it carries what the server sends
// outside any POST — list_changed and resources/updated notifications (to
// the Peer) and server-to-client requests (answered by POST). A 405 means
// the server offers none; any other refusal also ends it. A stream that
// ends is reopened with backoff until Close.

const (
	streamRetryMin   = 100 * time.Millisecond
	streamRetryMax   = 5 * time.Second
	streamMaxFailing = 5                  // consecutive failed opens before giving up
	streamOpenWait   = 5 * time.Second    // sessionReady's wait for the first GET's answer
	streamHealthy    = 2 * streamRetryMax // a stream open this long resets the backoff
)

// sessionReady implements legacySessioner: the session is initialized.
func (t *HTTPTransport) sessionReady() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.legacy || t.sessionID == "" || t.streamStop != nil {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	done, first := make(chan struct{}), make(chan struct{})
	t.streamStop, t.streamDone = cancel, done
	go func() {
		defer close(done)
		t.followSessionStream(ctx, first)
	}()
	// Wait (bounded) for the server to answer the first GET, so what it
	// sends once Connect has returned is not lost.
	t.mu.Unlock()
	select {
	case <-first:
	case <-done:
	case <-time.After(streamOpenWait):
	}
	t.mu.Lock()
}

// stopSessionStream closes the GET stream and waits for its reader.
func (t *HTTPTransport) stopSessionStream() {
	t.mu.Lock()
	stop, done := t.streamStop, t.streamDone
	t.streamStop, t.streamDone = nil, nil
	t.mu.Unlock()
	if stop != nil {
		stop()
		<-done
	}
}

func (t *HTTPTransport) followSessionStream(ctx context.Context, first chan struct{}) {
	wait, failing := streamRetryMin, 0
	for ctx.Err() == nil {
		start := time.Now()
		opened, delivered, again := t.readSessionStream(ctx, first)
		first = nil
		if !again || ctx.Err() != nil {
			return
		}
		switch {
		case opened && (delivered || time.Since(start) >= streamHealthy):
			wait, failing = streamRetryMin, 0
		case opened:
			failing = 0 // it opens, but ends at once: tried again, with backoff
		default:
			if failing++; failing >= streamMaxFailing {
				return
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = min(2*wait, streamRetryMax)
	}
}

// readSessionStream opens the GET stream once and reads it to its end. It
// reports whether the stream opened, whether it delivered a message, and
// whether to try again.
// first, when not nil, is closed once the server has answered the GET.
func (t *HTTPTransport) readSessionStream(ctx context.Context, first chan struct{}) (opened, delivered, again bool) {
	if first != nil {
		defer func() {
			if first != nil {
				close(first)
			}
		}()
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodGet, t.URL, nil)
	if err != nil {
		return false, false, false
	}
	for k, vs := range t.Header {
		hr.Header[k] = append([]string(nil), vs...)
	}
	hr.Header.Set("Accept", "text/event-stream")
	t.mu.Lock()
	sid, version, peer := t.sessionID, t.legacyVersion, t.peer
	t.mu.Unlock()
	if sid == "" {
		return false, false, false
	}
	hr.Header.Set("Mcp-Session-Id", sid)
	if version != "" {
		hr.Header.Set(httpwire.HeaderProtocolVersion, version)
	}
	resp, err := t.client().Do(hr)
	if err != nil {
		return false, false, true // a network error: try again
	}
	defer resp.Body.Close()
	if first != nil {
		close(first)
		first = nil
	}
	mediaType, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if resp.StatusCode/100 != 2 || mediaType != "text/event-stream" {
		drain(resp)
		return false, false, false // 405: no stream offered; 404: the session ended; 409: one is open already
	}
	sr := httpwire.NewSSEReader(resp.Body, t.max())
	for {
		data, err := sr.Next()
		if err != nil {
			return true, delivered, true
		}
		msg, derr := jsonrpc.Decode(data)
		if derr != nil {
			// A malformed event concerns no request of the caller.
			t.warnDropped(fmt.Errorf("client: an event of the session's stream is not valid JSON-RPC (%s): %s", derr.Message, clip(data)))
			continue
		}
		delivered = true
		switch msg.Kind {
		case jsonrpc.KindNotification:
			if peer != nil {
				peer.HandleNotification(msg.Method, msg.Params)
			}
		case jsonrpc.KindRequest:
			t.serve(msg)
		}
	}
}
