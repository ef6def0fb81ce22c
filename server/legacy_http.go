package server

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpgen/mcpgen/internal/httpwire"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// Legacy sessions on Streamable HTTP (the 2025-03-26 … 2025-11-25
// transport). An initialize POST without the modern _meta opens a session:
// its response carries Mcp-Session-Id, which every later request of the
// session must send. With it:
//   - POST of a request: served by the session, answered with JSON or, once
//     the handler sends a notification (progress, log) or a request to the
//     client (Ask), with an SSE stream ending in the response; JSON-RPC
//     errors keep HTTP 200 (a limit's refusal is 503); a request the
//     client cancels (notifications/cancelled) gets an SSE stream that
//     ends without a response;
//   - POST of a notification or of the client's response to a server
//     request: 202 Accepted;
//   - GET (Accept: text/event-stream): a standalone SSE stream of the
//     session, which carries list_changed and resources/updated
//     notifications; up to maxSessionStreams at once (one more is 429),
//     each message written on exactly one of them;
//   - DELETE: ends the session (200).
//
// An unknown or ended session id is 404. A request that carries the modern
// _meta is served statelessly even with a session id. Sessions idle for
// legacySessionIdle (no request in flight, no open GET stream) are ended:
// a request naming one is answered 404 (acquire), and the sessions nobody
// names again are swept from memory when a session is opened (add).

// headerSessionID is the session header of the initialize-era transport.
const headerSessionID = "Mcp-Session-Id"

// legacySessionIdle is how long an HTTP session may go unused.
const legacySessionIdle = 30 * time.Minute

// legacySessions are a server's HTTP sessions.
type legacySessions struct {
	mu        sync.Mutex
	m         map[string]*legacyHTTPSession
	perClient map[string]int // sessions by client (legacy_limits.go); no zero entries
	lastSweep time.Time
	max       int // Limits.MaxLegacySessions (0: no cap)
	// perClientMax is Limits.MaxLegacySessionsPerClient (0: no cap).
	perClientMax int
}

type legacyHTTPSession struct {
	*legacySession
	owner    string       // principalKey of the creator ("" unauthenticated)
	client   string       // Server.clientID of the initialize: its GET streams count against it (Limits.MaxListenStreamsPerClient)
	lastUsed atomic.Int64 // unix nanoseconds: when the last HTTP request for it began or ended
	streams  atomic.Int32 // open GET streams
	inUse    atomic.Int32 // HTTP requests for it being served (acquire … release)
}

func (hs *legacyHTTPSession) touch() { hs.lastUsed.Store(time.Now().UnixNano()) }

// idle reports whether no HTTP request of the session is being served:
// none in flight (a tools/call waiting for the client's answer included)
// and no open GET stream. Only an idle session is evicted or swept.
func (hs *legacyHTTPSession) idle() bool { return hs.inUse.Load() == 0 && hs.streams.Load() == 0 }

// release ends the use of a session acquire returned.
func (hs *legacyHTTPSession) release() {
	hs.touch()
	hs.inUse.Add(-1)
}

// expired reports whether the session has been idle (no request in
// flight, no open GET stream) for longer than legacySessionIdle at now.
func (hs *legacyHTTPSession) expired(now time.Time) bool {
	return hs.idle() && now.Sub(time.Unix(0, hs.lastUsed.Load())) > legacySessionIdle
}

// acquire returns the session id, in use until release (so that it is not
// evicted while an HTTP request for it is served), or nil when unknown or
// expired: a session idle past legacySessionIdle is ended when it is next
// looked up, whenever the sweep (add) last ran.
func (ls *legacySessions) acquire(id string) *legacyHTTPSession {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	hs := ls.m[id]
	if hs == nil {
		return nil
	}
	if hs.expired(time.Now()) {
		ls.endLocked(hs)
		return nil
	}
	hs.inUse.Add(1)
	hs.touch()
	return hs
}

// add registers hs. It returns "" or, when a cap is reached and no
// session is idle enough to evict, the name of the limit that refuses it
// (legacy_limits.go).
func (ls *legacySessions) add(hs *legacyHTTPSession) string {
	hs.touch()
	now := time.Now()
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if full := ls.makeRoomLocked(hs.client); full != "" {
		return full
	}
	ls.putLocked(hs)
	if now.Sub(ls.lastSweep) < time.Minute {
		return ""
	}
	ls.lastSweep = now
	for _, old := range ls.m {
		if old.expired(now) {
			ls.endLocked(old)
		}
	}
	return ""
}

func (ls *legacySessions) remove(id string) *legacyHTTPSession {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	hs := ls.m[id]
	if hs != nil {
		ls.dropLocked(hs)
	}
	return hs
}

// serveLegacyStream serves a legacy session's GET stream and DELETE (with
// Mcp-Session-Id) and reports whether it did; every other request is left
// to ServeHTTP.
func (h *httpHandler) serveLegacyStream(w http.ResponseWriter, r *http.Request) bool {
	sid := r.Header.Get(headerSessionID)
	if sid == "" || (r.Method != http.MethodGet && r.Method != http.MethodDelete) {
		return false
	}
	s, ok := h.core.(*Server)
	if !ok {
		return false
	}
	if rej := h.policy.Check(r); rej != nil {
		_ = rej.Write(w, nil)
		return true
	}
	if rej := checkLegacyVersion(r.Header); rej != nil { // legacy_http_version.go
		_ = rej.Write(w, nil)
		return true
	}
	hs := s.callerSession(w, r, sid)
	if hs == nil {
		return true
	}
	defer hs.release()
	if r.Method == http.MethodDelete {
		s.sessions.remove(sid)
		hs.Close()
		w.WriteHeader(http.StatusOK)
		return true
	}
	if !httpwire.ParseAccept(r.Header).SSE {
		_ = (&httpwire.Rejection{Status: http.StatusNotAcceptable, Code: httpwire.CodeInvalidRequest,
			Message: "Not Acceptable: the Accept header must list text/event-stream"}).Write(w, nil)
		return true
	}
	h.serveSessionStream(w, r, hs)
	return true
}

// serveLegacyPost serves a POST in the legacy era and reports whether it
// did. The era is chosen from the one parse of the body: a request with a
// usable modern _meta is always the modern core's (with or without a
// session id); otherwise a message with Mcp-Session-Id belongs to that
// session, and an initialize request without one opens a session.
// Everything else is left to the modern path, whose errors say why.
func (h *httpHandler) serveLegacyPost(w http.ResponseWriter, r *http.Request, pr *parsedRequest) bool {
	s, ok := h.core.(*Server)
	if !ok {
		return false
	}
	msg := pr.msg
	sid := r.Header.Get(headerSessionID)
	if msg.Kind == jsonrpc.KindRequest {
		switch s.chooseEra(pr, sid != "") {
		case eraModern, eraLegacyRequest:
			return false
		case eraOpenSession:
			v, rej := legacyVersionHeader(r.Header)
			switch {
			case rej == nil && s.supports(v):
				return false // a modern client's initialize gets the core's -32601
			case rej == nil && v != "" && !slices.Contains(legacyVersions, v):
				rej = unsupportedLegacyVersion(v)
			}
			if rej != nil {
				_ = rej.Write(w, rawID(msg.ID))
				return true
			}
			h.legacyInitialize(w, r, s, msg)
			return true
		}
	} else if sid == "" {
		return false
	}
	hs := s.callerSession(w, r, sid)
	if hs == nil {
		return true
	}
	defer hs.release()
	if rej := checkLegacyVersion(r.Header); rej != nil { // legacy_http_version.go
		_ = rej.Write(w, rawID(msg.ID))
		return true
	}
	if msg.Kind != jsonrpc.KindRequest {
		hs.Handle(r.Context(), msg, nil)
		w.WriteHeader(http.StatusAccepted)
		return true
	}
	st := newHTTPStream(r.Context(), w, false, h.keepAlive)
	resp, ok := h.serveLimited(w, r, msg, func(ctx context.Context) Response { return hs.Handle(ctx, msg, st) })
	if !ok {
		return true
	}
	if resp.cancelled {
		st.endUnanswered()
		return true
	}
	resp.Code = 0 // a JSON-RPC error is still HTTP 200 in a legacy session
	if h.auth != nil && st.finishDenied(r, msg.ID) {
		return true
	}
	st.finish(msg.ID, resp)
	return true
}

// legacyInitialize opens a session with an initialize request. It runs
// through the server's limits like every request (serveLimited): over the
// client's rate it is 429, while the server drains or is full 503, and no
// session is opened.
func (h *httpHandler) legacyInitialize(w http.ResponseWriter, r *http.Request, s *Server, msg jsonrpc.Message) {
	hs := &legacyHTTPSession{legacySession: s.newLegacySession(nil), owner: principalKey(r.Context()), client: s.clientID(r.Context())}
	hs.out = hs.sendStream
	resp, ok := h.serveLimited(w, r, msg, func(ctx context.Context) Response { return hs.Handle(ctx, msg, discardWriter{}) })
	if !ok {
		hs.Close()
		return
	}
	if resp.Body == nil || resp.Code != 0 {
		hs.Close()
		if resp.Body != nil {
			writeJSON(w, httpwire.StatusForCode(resp.Code), resp.Body)
		}
		return
	}
	if full := s.sessions.add(hs); full != "" {
		hs.Close()
		writeRefusal(w, msg.ID, limitError(reasonBusy, "Internal error: too many sessions, all in use ("+full+"); retry later"))
		return
	}
	w.Header().Set(headerSessionID, hs.id)
	writeJSON(w, http.StatusOK, resp.Body)
}

// callerSession returns the session sid, acquired (the caller releases
// it), when it exists and belongs to the caller; otherwise it answers 404
// (unknown or ended) or 403 (another principal's) and returns nil.
func (s *Server) callerSession(w http.ResponseWriter, r *http.Request, sid string) *legacyHTTPSession {
	hs := s.sessions.acquire(sid)
	switch {
	case hs == nil:
		sessionNotFound(w)
		return nil
	case !hs.ownedBy(r.Context()):
		hs.release()
		sessionForbidden(w)
		return nil
	}
	return hs
}

func sessionNotFound(w http.ResponseWriter) {
	_ = (&httpwire.Rejection{Status: http.StatusNotFound, Code: httpwire.CodeInvalidRequest,
		Message: "Session not found: unknown or ended " + headerSessionID + "; send initialize to start a new session"}).Write(w, nil)
}

// maxSessionStreams bounds the GET streams a legacy HTTP session holds
// open at once (each also counts against the server's stream limit,
// Limits.MaxStreams); one more is refused with 429.
const maxSessionStreams = 4

// sendStream queues a message for the session's GET streams, waiting for
// room while they are behind: a client that reads slowly loses nothing,
// and when every stream has ended (one that stops reading is ended by the
// write timeout) the wait ends with errStreamBroken. Each message is
// written on exactly one of the open streams, whichever takes it from the
// session's queue first (Streamable HTTP, Multiple Connections: "The
// server MUST send each of its JSON-RPC messages on only one of the
// connected streams"). Without an open stream the message is dropped (the
// client did not ask for one).
func (l *legacySession) sendStream(msg []byte) error {
	l.mu.Lock()
	ch, gone := l.stream, l.streamGone
	l.mu.Unlock()
	if ch == nil {
		return errNoStream
	}
	select {
	case ch <- msg:
		return nil
	case <-gone:
		return errStreamBroken
	case <-l.done:
		return errSessionClosed
	}
}

// joinStream counts one more open GET stream of the session and returns
// the session's queue it reads; ok is false when the session already has
// maxSessionStreams. The first stream makes the queue; leaveStream undoes.
func (l *legacySession) joinStream() (ch chan []byte, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.streamCount >= maxSessionStreams {
		return nil, false
	}
	if l.streamCount == 0 {
		l.stream, l.streamGone = make(chan []byte, 64), make(chan struct{})
	}
	l.streamCount++
	return l.stream, true
}

// leaveStream ends one GET stream of the session; after the last, the
// queue is dropped (with what it still held, as a lone stream's was) and
// senders waiting for room are told (errStreamBroken).
func (l *legacySession) leaveStream() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.streamCount--
	if l.streamCount == 0 {
		close(l.streamGone)
		l.stream, l.streamGone = nil, nil
	}
}

// serveSessionStream holds one of the session's standalone SSE streams open
// until the client goes away, the session ends or the server shuts down
// (then after writing what was queued for the session's streams).
func (h *httpHandler) serveSessionStream(w http.ResponseWriter, r *http.Request, hs *legacyHTTPSession) {
	if rr := hs.s.admitRate(r.Context()); rr != nil { // ratelimit.go
		writeRateRefusal(w, jsonrpc.ID{}, rr)
		return
	}
	ch, ok := hs.joinStream()
	if !ok {
		_ = (&httpwire.Rejection{Status: http.StatusTooManyRequests, Code: httpwire.CodeInvalidRequest,
			Message: "Too Many Requests: this session already has " + strconv.Itoa(maxSessionStreams) +
				" open SSE streams, the most it may; close one first"}).Write(w, nil)
		return
	}
	if rerr := hs.s.lim.enter(true, hs.client); rerr != nil {
		hs.leaveStream()
		writeRefusal(w, jsonrpc.ID{}, rerr)
		return
	}
	defer hs.s.lim.leave(true, hs.client)
	hs.streams.Add(1)
	hs.s.streams.Add(1)
	left := false // the stream left the session's queue early (handBack)
	defer func() {
		if !left {
			hs.leaveStream()
		}
		hs.streams.Add(-1)
		hs.touch()
		hs.s.streams.Done()
	}()
	st := newHTTPStream(r.Context(), w, true, h.keepAlive) // keep-alives as on a listen stream
	defer st.close()
	if st.open() != nil {
		return
	}
	for {
		select {
		case <-r.Context().Done():
			return
		case <-hs.done:
			return
		case <-hs.s.closing:
			flushQueued(st, ch, hs.s.lim.stopCtx)
			return
		case msg := <-ch:
			if st.sendRaw(msg) != nil {
				left = true
				hs.handBack(msg)
				return
			}
		}
	}
}

// handBack ends one GET stream of the session whose write of msg failed
// and gives msg back to the session's queue, so that another open stream
// writes it (after what is queued already: the session's streams keep no
// order among them); it waits for room as sendStream does. With no other
// stream open it is dropped, as a lone stream's queue is.
func (l *legacySession) handBack(msg []byte) {
	l.leaveStream()
	_ = l.sendStream(msg)
}

// flushQueued writes the messages queued for a GET stream that the drain
// ends, so that it ends having lost nothing it had been given, until stop
// (the end of the drain's grace) is done; a write blocked on a client that
// does not read ends when the HTTP server closes the connection (Run:
// after the grace).
func flushQueued(st *httpStream, ch <-chan []byte, stop context.Context) {
	for stop.Err() == nil {
		select {
		case msg := <-ch:
			if st.sendRaw(msg) != nil {
				return
			}
		default:
			return
		}
	}
}
