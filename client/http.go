package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/internal/httpwire"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// HTTPTransport talks to a Streamable HTTP MCP endpoint
// (basic/transports/streamable-http.mdx): one POST per message, the answer
// a JSON body or an SSE stream carrying the request's notifications before
// its response. It sends MCP-Protocol-Version, Mcp-Method and Mcp-Name on
// every request and the Request's Mcp-Param-* headers. A server whose URL
// answers the legacy initialize POST with an HTTP 4xx (401 and 403 aside)
// is tried as a deprecated HTTP+SSE server of 2024-11-05 (sse_legacy.go).
type HTTPTransport struct {
	// URL is the MCP endpoint.
	URL string
	// Client sends the requests (http.DefaultClient when nil). Its
	// Transport is the place for authentication (a RoundTripper that adds
	// a bearer token).
	Client *http.Client
	// Header is added to every request.
	Header http.Header
	// OnUnauthorized, when set, is called for a 401 or 403 response; when it
	// returns retry true the request is sent once more (after, say, a token
	// refresh in Client's RoundTripper). Its error ends the request.
	OnUnauthorized func(ctx context.Context, resp *http.Response) (retry bool, err error)
	// challengeAgain, when set, reports whether the refused retry resp
	// may go to OnUnauthorized once more (OAuthHTTP: the retry tried a
	// stored token that turned out stale).
	challengeAgain func(resp *http.Response) bool
	// retried, when set, is given the answer to each request sent again
	// after OnUnauthorized (OAuthHTTP: whether a step-up worked).
	retried func(resp *http.Response)
	// MaxMessageBytes bounds a response body or SSE event
	// (DefaultMaxMessageBytes when 0).
	MaxMessageBytes int

	mu            sync.Mutex
	sessionID     string // legacy sessions (2025-03-26 … 2025-11-25)
	legacy        bool
	legacyVersion string
	peer          Peer
	streamStop    context.CancelFunc // the legacy session's GET stream (session_stream.go)
	streamDone    chan struct{}
	sse           *sseSession // the HTTP+SSE transport (2024-11-05) once fallen back to (sse_legacy.go)
	servingOnce   sync.Once
	serving       chan struct{}   // one token per server request being answered (maxServing)
	inflight      context.Context // ended by Close: every POST's context is merged with it (untilClose)
	endInflight   context.CancelCauseFunc
}

// errTransportClosed ends the requests in flight when the transport is
// closed.
var errTransportClosed = errors.New("the transport was closed")

// untilClose returns ctx, ended also by Close, and the func that releases
// it. A request in flight (a Listen stream, a call the server never
// answers) thus ends with Close rather than outliving the Client; the
// transport stays usable for requests sent after Close.
func (t *HTTPTransport) untilClose(ctx context.Context) (context.Context, context.CancelFunc) {
	t.mu.Lock()
	if t.inflight == nil {
		t.inflight, t.endInflight = context.WithCancelCause(context.Background())
	}
	inflight := t.inflight
	t.mu.Unlock()
	ctx, cancel := context.WithCancelCause(ctx)
	stop := context.AfterFunc(inflight, func() { cancel(context.Cause(inflight)) })
	return ctx, func() {
		stop()
		cancel(nil)
	}
}

// HTTP returns a transport for the Streamable HTTP endpoint url.
func HTTP(url string) *HTTPTransport { return &HTTPTransport{URL: url} }

// MirrorsHeaders implements HeaderMirror.
func (t *HTTPTransport) MirrorsHeaders() bool { return true }

// BindPeer implements PeerBinder.
func (t *HTTPTransport) BindPeer(p Peer) {
	t.mu.Lock()
	t.peer = p
	t.mu.Unlock()
}

func (t *HTTPTransport) startLegacy(version string) {
	t.mu.Lock()
	t.legacy = true
	t.legacyVersion = version
	t.mu.Unlock()
}

func (t *HTTPTransport) max() int {
	if t.MaxMessageBytes > 0 {
		return t.MaxMessageBytes
	}
	return DefaultMaxMessageBytes
}

func (t *HTTPTransport) client() *http.Client {
	if t.Client != nil {
		return t.Client
	}
	return http.DefaultClient
}

func (t *HTTPTransport) newRequest(ctx context.Context, req *Request, body []byte) (*http.Request, error) {
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, t.URL, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("client: %w", err)
	}
	h := hr.Header
	for k, vs := range t.Header {
		h[k] = append([]string(nil), vs...)
	}
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json, text/event-stream")
	if req.ProtocolVersion != "" && req.Method != "initialize" {
		h.Set(httpwire.HeaderProtocolVersion, req.ProtocolVersion)
	}
	if req.Method != "" {
		h.Set(httpwire.HeaderMethod, req.Method)
	}
	if _, ok := httpwire.NameField(req.Method); ok && req.Name != "" {
		h.Set(httpwire.HeaderName, httpwire.EncodeHeaderValue(req.Name))
	}
	for k, vs := range req.Header {
		h[k] = append([]string(nil), vs...)
	}
	t.mu.Lock()
	if t.sessionID != "" {
		h.Set("Mcp-Session-Id", t.sessionID)
	}
	t.mu.Unlock()
	return hr, nil
}

// post sends body and returns the response, retrying once when
// OnUnauthorized asks for it.
func (t *HTTPTransport) post(ctx context.Context, req *Request, body []byte) (*http.Response, error) {
	for attempt := 0; ; attempt++ {
		hr, err := t.newRequest(ctx, req, body)
		if err != nil {
			return nil, err
		}
		resp, err := t.client().Do(hr)
		if err != nil {
			if ctx.Err() != nil {
				return nil, fmt.Errorf("client: %s: %w", req.Method, context.Cause(ctx))
			}
			return nil, fmt.Errorf("client: POST %s: %w", req.Method, err)
		}
		if attempt > 0 && t.retried != nil {
			t.retried(resp)
		}
		if (resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden) &&
			t.OnUnauthorized != nil && (attempt == 0 || attempt == 1 && t.challengeAgain != nil && t.challengeAgain(resp)) {
			retry, herr := t.OnUnauthorized(ctx, resp)
			if herr != nil || retry {
				drain(resp)
			}
			if herr != nil {
				return nil, herr
			}
			if retry {
				continue
			}
		}
		if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
			t.mu.Lock()
			if t.legacy {
				t.sessionID = id
			}
			t.mu.Unlock()
		}
		return resp, nil
	}
}

func drain(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	_ = resp.Body.Close()
}

// Notify implements Transport: the server answers 202 Accepted.
func (t *HTTPTransport) Notify(ctx context.Context, req *Request) error {
	if conn := t.sseConn(); conn != nil {
		return conn.notify(ctx, req)
	}
	ctx, done := t.untilClose(ctx)
	defer done()
	resp, err := t.post(ctx, req, jsonrpc.AppendNotification(nil, req.Method, req.Params))
	if err != nil {
		return err
	}
	defer drain(resp)
	if resp.StatusCode/100 != 2 {
		return t.statusError(resp, req)
	}
	return nil
}

// RoundTrip implements Transport. In a legacy session a request the
// caller cancels is also cancelled on the server (cancel_legacy.go).
func (t *HTTPTransport) RoundTrip(ctx context.Context, req *Request) (json.RawMessage, error) {
	if conn := t.sseConn(); conn != nil {
		return conn.roundTrip(ctx, req)
	}
	rctx, done := t.untilClose(ctx)
	defer done()
	result, err := t.roundTrip(rctx, req)
	if err != nil && ctx.Err() != nil { // the caller's cancellation, not Close's
		t.cancelInSession(ctx, req)
	}
	return result, err
}

func (t *HTTPTransport) roundTrip(ctx context.Context, req *Request) (json.RawMessage, error) {
	resp, err := t.post(ctx, req, jsonrpc.AppendRequest(nil, req.ID, req.Method, req.Params))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	mediaType, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if resp.StatusCode/100 != 2 {
		err := t.statusError(resp, req)
		if req.Method == "initialize" && sseFallbackStatus(resp.StatusCode) {
			return t.fallBackToSSE(ctx, req, resp.StatusCode, err)
		}
		return nil, err
	}
	switch mediaType {
	case "application/json":
		body, err := readLimited(resp.Body, t.max())
		if err != nil {
			return nil, fmt.Errorf("client: reading the %s response: %w", req.Method, err)
		}
		return t.response(req, body)
	case "text/event-stream":
		return t.readStream(ctx, req, resp.Body)
	default:
		return nil, fmt.Errorf("client: the server answered %s with HTTP %d and Content-Type %q, want application/json or text/event-stream",
			req.Method, resp.StatusCode, resp.Header.Get("Content-Type"))
	}
}

// response checks one response message against req.
func (t *HTTPTransport) response(req *Request, body []byte) (json.RawMessage, error) {
	msg, derr := jsonrpc.Decode(body)
	if derr != nil {
		return nil, fmt.Errorf("client: the %s response is not valid JSON-RPC (%s): %s", req.Method, derr.Message, clip(body))
	}
	switch msg.Kind {
	case jsonrpc.KindResponse, jsonrpc.KindErrorResponse:
	default:
		return nil, fmt.Errorf("client: the server answered %s with a %s, not a response", req.Method, msg.Kind)
	}
	if msg.ID != req.ID && !(msg.Kind == jsonrpc.KindErrorResponse && msg.ID.IsZero()) {
		return nil, fmt.Errorf("client: the server answered request id %s with id %s", req.ID, msg.ID)
	}
	if msg.Kind == jsonrpc.KindErrorResponse {
		return nil, msg.Error
	}
	return msg.Result, nil
}

// readStream reads an SSE response: notifications go to req.Notify (or
// the peer, deliver), legacy server requests to the peer, until the
// response arrives.
func (t *HTTPTransport) readStream(ctx context.Context, req *Request, body io.Reader) (json.RawMessage, error) {
	sr := httpwire.NewSSEReader(body, t.max())
	for {
		data, err := sr.Next()
		if err != nil {
			if ctx.Err() != nil {
				return nil, fmt.Errorf("client: %s: %w", req.Method, context.Cause(ctx))
			}
			if errors.Is(err, io.EOF) {
				return nil, fmt.Errorf("client: the server's event stream for %s (id %s) ended before the response", req.Method, req.ID)
			}
			return nil, fmt.Errorf("client: reading the event stream for %s: %w", req.Method, err)
		}
		msg, derr := jsonrpc.Decode(data)
		if derr != nil {
			err := fmt.Errorf("client: an event of the %s stream is not valid JSON-RPC (%s): %s", req.Method, derr.Message, clip(data))
			if fromServer(data) {
				// A request or notification of the server concerns no
				// call: dropped, as on stdio (streamConn.malformed).
				t.warnDropped(err)
				continue
			}
			return nil, err
		}
		switch msg.Kind {
		case jsonrpc.KindNotification:
			t.deliver(req, msg)
		case jsonrpc.KindRequest:
			t.serve(msg)
		default:
			return t.response(req, data)
		}
	}
}

// deliver hands a notification of req's response stream to req.Notify
// when it is req's (Request.ownsStreamed: progress by req's progress token,
// any other by req's id as subscription id or by naming none, the rule
// stdio routes by); any other goes to the peer (Options.OnProgress and the
// other Options handlers), as on stdio.
func (t *HTTPTransport) deliver(req *Request, msg jsonrpc.Message) {
	if req.Notify != nil && req.ownsStreamed(msg.Method, msg.Params) {
		req.Notify(msg.Method, msg.Params)
		return
	}
	t.mu.Lock()
	peer := t.peer
	t.mu.Unlock()
	if peer != nil {
		peer.HandleNotification(msg.Method, msg.Params)
	}
}

// warnDropped logs, through the Client's Options.Logger when the peer is a
// Client, that an invalid request or notification of the server was
// dropped.
func (t *HTTPTransport) warnDropped(err error) {
	t.mu.Lock()
	w, ok := t.peer.(warner)
	t.mu.Unlock()
	if ok {
		w.warn("mcp client: dropped an invalid request or notification of the server", "error", err)
	}
}

// serve answers a server-to-client request in the background; beyond
// maxServing at once the request is dropped unanswered (a server flooding
// requests gets no goroutine, and no POST, per request). In a 2026-07-28
// session it is dropped unanswered in any case (serverRequestGate).
func (t *HTTPTransport) serve(msg jsonrpc.Message) {
	t.mu.Lock()
	peer := t.peer
	t.mu.Unlock()
	if !acceptsServerRequest(peer, msg.Method) {
		return
	}
	t.servingOnce.Do(func() { t.serving = make(chan struct{}, maxServing) })
	select {
	case t.serving <- struct{}{}:
		go func() {
			defer func() { <-t.serving }()
			t.answer(msg)
		}()
	default:
	}
}

// answerTimeout bounds the POST that carries the client's answer to a
// server-to-client request (the handler's own time aside).
const answerTimeout = 30 * time.Second

// answer serves a legacy session's server-to-client request and posts the
// response back.
func (t *HTTPTransport) answer(msg jsonrpc.Message) {
	t.mu.Lock()
	peer := t.peer
	t.mu.Unlock()
	var out []byte
	if peer == nil {
		out = jsonrpc.AppendError(nil, msg.ID, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "Method not found"})
	} else if res, rerr := peer.HandleRequest(context.Background(), msg.Method, msg.Params); rerr != nil {
		out = jsonrpc.AppendError(nil, msg.ID, rerr)
	} else {
		out = jsonrpc.AppendResult(nil, msg.ID, res)
	}
	t.mu.Lock()
	version := t.legacyVersion
	t.mu.Unlock()
	ctx, cancel := t.untilClose(context.Background())
	defer cancel()
	ctx, cancelPost := context.WithTimeout(ctx, answerTimeout)
	defer cancelPost()
	resp, err := t.post(ctx, &Request{ProtocolVersion: version}, out)
	if err == nil {
		drain(resp)
	}
}

// Close implements Transport: the requests in flight end (their POSTs are
// cancelled, a Listen stream among them), a legacy session's GET stream is
// closed and the session deleted; an HTTP+SSE session's stream is closed.
func (t *HTTPTransport) Close() error {
	t.stopSessionStream()
	t.mu.Lock()
	id, sse, endInflight := t.sessionID, t.sse, t.endInflight
	t.sessionID, t.sse = "", nil
	t.inflight, t.endInflight = nil, nil
	t.mu.Unlock()
	if endInflight != nil {
		endInflight(errTransportClosed)
	}
	if sse != nil {
		sse.close()
	}
	if id == "" {
		return nil
	}
	// Bounded: a server that never answers the DELETE does not hold Close.
	ctx, cancel := context.WithTimeout(context.Background(), cancelTimeout)
	defer cancel()
	hr, err := http.NewRequestWithContext(ctx, http.MethodDelete, t.URL, nil)
	if err != nil {
		return err
	}
	hr.Header.Set("Mcp-Session-Id", id)
	resp, err := t.client().Do(hr)
	if err != nil {
		return fmt.Errorf("client: ending the legacy session: %w", err)
	}
	drain(resp)
	return nil
}

func readLimited(r io.Reader, max int) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, int64(max)+1))
	if err != nil {
		return nil, err
	}
	if len(b) > max {
		return nil, fmt.Errorf("the body exceeds %d bytes", max)
	}
	return b, nil
}

func clipBytes(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}
