package client

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/mcpgen/mcpgen/internal/httpwire"
)

// The deprecated HTTP+SSE transport of protocol 2024-11-05
// (basic/transports of that revision): the client GETs the server's URL,
// the server's first event on that stream is "endpoint" naming where to
// POST messages, and every server message (responses included) arrives as
// a "message" event on the stream. The 2025-03-26 revision's
// "Backwards Compatibility" tells a client how to find such a server:
// POST initialize to the URL; on an HTTP 4xx, GET it and expect the
// endpoint event. HTTPTransport does this behind the same Transport, and
// the session then runs over a streamConn like stdio's.

// sseSession is an open HTTP+SSE connection.
type sseSession struct {
	conn     *streamConn
	endpoint string
	stop     context.CancelFunc // ends the GET
}

// sseFallbackStatus reports whether an initialize POST answered with
// status means "try the HTTP+SSE transport": any 4xx except the
// authentication ones, which are not a transport question.
func sseFallbackStatus(code int) bool {
	return code/100 == 4 && code != http.StatusUnauthorized && code != http.StatusForbidden
}

// openSSE GETs t.URL and waits (bounded by ctx) for the endpoint event.
// The endpoint must be on the URL's origin: a server that names another
// is refused (messages carrying the session would leave for a host the
// user did not choose).
func (t *HTTPTransport) openSSE(ctx context.Context) (*sseSession, error) {
	base, err := url.Parse(t.URL)
	if err != nil {
		return nil, fmt.Errorf("client: the URL %q: %w", t.URL, err)
	}
	streamCtx, stop := context.WithCancelCause(context.Background())
	// Until the endpoint event arrives the open is bounded by ctx.
	unbind := context.AfterFunc(ctx, func() { stop(context.Cause(ctx)) })
	fail := func(err error) (*sseSession, error) {
		unbind()
		stop(err)
		if ctx.Err() != nil {
			return nil, fmt.Errorf("client: waiting for the endpoint event of the HTTP+SSE stream at %s: %w", t.URL, context.Cause(ctx))
		}
		return nil, err
	}
	hr, err := http.NewRequestWithContext(streamCtx, http.MethodGet, t.URL, nil)
	if err != nil {
		return fail(fmt.Errorf("client: %w", err))
	}
	for k, vs := range t.Header {
		hr.Header[k] = append([]string(nil), vs...)
	}
	hr.Header.Set("Accept", "text/event-stream")
	resp, err := t.client().Do(hr)
	if err != nil {
		return fail(fmt.Errorf("client: GET %s for the HTTP+SSE transport: %w", t.URL, err))
	}
	mediaType, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if resp.StatusCode/100 != 2 || mediaType != "text/event-stream" {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		_ = resp.Body.Close()
		return fail(fmt.Errorf("client: GET %s answered HTTP %d with Content-Type %q, not an HTTP+SSE event stream%s",
			t.URL, resp.StatusCode, resp.Header.Get("Content-Type"), bodyNote(body)))
	}
	sr := httpwire.NewSSEReader(resp.Body, t.max())
	event, data, err := sr.NextEvent()
	if err != nil {
		_ = resp.Body.Close()
		if errors.Is(err, io.EOF) {
			return fail(fmt.Errorf("client: the HTTP+SSE stream at %s ended before its endpoint event", t.URL))
		}
		return fail(fmt.Errorf("client: reading the endpoint event of the HTTP+SSE stream at %s: %w", t.URL, err))
	}
	if event != "endpoint" {
		_ = resp.Body.Close()
		return fail(fmt.Errorf("client: the first event of the HTTP+SSE stream at %s is %q, want \"endpoint\"", t.URL, event))
	}
	endpoint, err := sseEndpoint(base, string(data))
	if err != nil {
		_ = resp.Body.Close()
		return fail(err)
	}
	if !unbind() {
		_ = resp.Body.Close()
		return fail(context.Cause(ctx)) // ctx ended as the event arrived
	}
	s := &sseSession{endpoint: endpoint, stop: func() { stop(errors.New("client: closed")) }}
	next := func() ([]byte, error) {
		for {
			event, data, err := sr.NextEvent()
			if err != nil {
				_ = resp.Body.Close()
				return nil, err
			}
			if event == "message" {
				return data, nil
			}
			// Other event types carry no JSON-RPC message.
		}
	}
	s.conn = newMessageConn(next, t.postSSE(endpoint), t.max(), nil, "the server's HTTP+SSE event stream ended")
	t.mu.Lock()
	peer := t.peer
	t.mu.Unlock()
	if peer != nil {
		s.conn.bindPeer(peer)
	}
	return s, nil
}

// sseEndpoint resolves the endpoint event's URI against the stream's URL
// and checks it is on the same origin.
func sseEndpoint(base *url.URL, data string) (string, error) {
	ref := strings.TrimSpace(data)
	if ref == "" {
		return "", errors.New("client: the HTTP+SSE endpoint event is empty")
	}
	u, err := base.Parse(ref)
	if err != nil {
		return "", fmt.Errorf("client: the HTTP+SSE endpoint event %q is not a URI: %w", clipString(ref), err)
	}
	if !sameOrigin(u, base) {
		return "", fmt.Errorf("client: the HTTP+SSE endpoint %s is on another origin than %s://%s; refused",
			clipString(u.String()), base.Scheme, base.Host)
	}
	return u.String(), nil
}

// postSSE returns the sender of an HTTP+SSE session: one POST per message;
// the server answers 202 Accepted (any 2xx is taken) and sends the
// response on the event stream.
func (t *HTTPTransport) postSSE(endpoint string) func(ctx context.Context, msg []byte) error {
	return func(ctx context.Context, msg []byte) error {
		hr, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(msg))
		if err != nil {
			return err
		}
		for k, vs := range t.Header {
			hr.Header[k] = append([]string(nil), vs...)
		}
		hr.Header.Set("Content-Type", "application/json")
		resp, err := t.client().Do(hr)
		if err != nil {
			return fmt.Errorf("POST %s: %w", endpoint, err)
		}
		if resp.StatusCode/100 != 2 {
			body, whole := readStatusBody(resp)
			_ = resp.Body.Close()
			return newStatusError(resp.StatusCode, body, whole)
		}
		drain(resp)
		return nil
	}
}

// close ends the GET and waits for the reader.
func (s *sseSession) close() {
	s.stop()
	<-s.conn.done
}

func bodyNote(body []byte) string {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return ""
	}
	return ": " + clip(body)
}

func clipString(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

// sseConn returns the open HTTP+SSE session, or nil.
func (t *HTTPTransport) sseConn() *streamConn {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.sse == nil {
		return nil
	}
	return t.sse.conn
}

// fallBackToSSE is called when the initialize POST was answered with
// postErr (status code): it opens the HTTP+SSE transport and sends
// initialize over it.
func (t *HTTPTransport) fallBackToSSE(ctx context.Context, req *Request, code int, postErr error) ([]byte, error) {
	s, err := t.openSSE(ctx)
	if err != nil {
		return nil, fmt.Errorf("%w; the fallback to the HTTP+SSE transport (2024-11-05) after HTTP %d failed: %v", postErr, code, err)
	}
	t.mu.Lock()
	old := t.sse
	t.sse = s
	t.mu.Unlock()
	if old != nil {
		old.close()
	}
	return s.conn.roundTrip(ctx, req)
}
