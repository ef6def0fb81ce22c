package server

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"sync"

	"github.com/mcpgen/mcpgen/internal/httpwire"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// JSON-RPC batches in initialize-era HTTP sessions. Revision 2025-03-26 is
// the one whose messages include batches (basic/index: implementations
// MUST support receiving JSON-RPC batches; 2025-06-18 removed them), so a
// session that negotiated it takes a POSTed array of requests,
// notifications and responses. Every other POSTed array is refused with
// 400 -32600, as before.
//
// The requests of a batch run at once, each through the server's limits
// like a request of its own (its rate token, the in-flight cap, the drain:
// a refused one is answered with its error in the batch response); the
// batch holds at most maxLegacyBatch messages. The answer is one array of
// the requests' responses (JSON-RPC 2.0, "Batch"), as a JSON body or, once
// a handler has sent a notification or a request to the client, as the
// last event of an SSE stream. A batch of notifications and responses only
// is 202 Accepted; a request the client cancelled has no response in the
// array, and a batch left with none gets an SSE stream that ends without
// one (endUnanswered).

// batchVersion is the one legacy revision with JSON-RPC batches.
const batchVersion = "2025-03-26"

// maxLegacyBatch bounds the messages of one batch (the default
// Limits.MaxInFlightPerConn).
const maxLegacyBatch = defaultMaxInFlightPerConn

// serveLegacyBatch serves a POSTed JSON array with the Mcp-Session-Id of
// a session that negotiated batchVersion and reports whether it did; an
// array for any other session is left to the single-message path, which
// refuses it.
func (h *httpHandler) serveLegacyBatch(w http.ResponseWriter, r *http.Request, body []byte) bool {
	s, ok := h.core.(*Server)
	sid := r.Header.Get(headerSessionID)
	if !ok || sid == "" {
		return false
	}
	hs := s.callerSession(w, r, sid)
	if hs == nil {
		return true
	}
	defer hs.release()
	if hs.ProtocolVersion() != batchVersion {
		return false
	}
	if v := r.Header.Get(httpwire.HeaderProtocolVersion); v != "" && !slices.Contains(legacyVersions, v) {
		_ = (&httpwire.Rejection{Status: http.StatusBadRequest, Code: httpwire.CodeInvalidRequest,
			Message: "Bad Request: unsupported " + httpwire.HeaderProtocolVersion + " " + v}).Write(w, nil)
		return true
	}
	var elems []json.RawMessage
	if err := json.Unmarshal(body, &elems); err != nil {
		writeJSON(w, http.StatusBadRequest, jsonrpc.AppendError(nil, jsonrpc.ID{}, jsonrpc.NewError(jsonrpc.CodeParseError, "Parse error: the batch is not valid JSON", nil)))
		return true
	}
	switch {
	case len(elems) == 0:
		writeJSON(w, http.StatusBadRequest, jsonrpc.AppendError(nil, jsonrpc.ID{}, jsonrpc.NewError(jsonrpc.CodeInvalidRequest, "Invalid Request: an empty batch", nil)))
		return true
	case len(elems) > maxLegacyBatch:
		writeJSON(w, http.StatusBadRequest, jsonrpc.AppendError(nil, jsonrpc.ID{}, jsonrpc.NewError(jsonrpc.CodeInvalidRequest,
			"Invalid Request: a batch of "+strconv.Itoa(len(elems))+" messages; at most "+strconv.Itoa(maxLegacyBatch), nil)))
		return true
	}
	st := newHTTPStream(r.Context(), w, false, h.keepAlive)
	out, requests := hs.serveBatch(r.Context(), elems, st)
	switch {
	case requests == 0 && len(out) == 0:
		w.WriteHeader(http.StatusAccepted)
	case len(out) == 0:
		st.endUnanswered()
	default:
		st.finish(jsonrpc.ID{}, Response{Body: append(append([]byte{'['}, bytes.Join(out, []byte{','})...), ']')})
	}
	return true
}

// serveBatch serves the messages of a batch: notifications and responses
// in order, requests at once, each through the server's limits. It returns
// the responses to send (requests the client cancelled have none; a
// message that does not decode gets its error) and how many requests the
// batch held.
func (hs *legacyHTTPSession) serveBatch(ctx context.Context, elems []json.RawMessage, st *httpStream) (out [][]byte, requests int) {
	s := hs.s
	answers := make([][]byte, len(elems))
	var wg sync.WaitGroup
	for i, e := range elems {
		msg, derr := jsonrpc.DecodeOwned(e) // e is a copy of its own
		switch {
		case derr != nil:
			answers[i] = jsonrpc.AppendError(nil, msg.ID, derr)
			continue
		case msg.Kind != jsonrpc.KindRequest:
			hs.Handle(ctx, msg, nil)
			continue
		}
		requests++
		if msg.Method == "initialize" {
			answers[i] = jsonrpc.AppendError(nil, msg.ID, jsonrpc.NewError(jsonrpc.CodeInvalidRequest, "Invalid Request: initialize must not be part of a batch", nil))
			continue
		}
		if rr := s.admitRate(ctx); rr != nil {
			answers[i] = jsonrpc.AppendError(nil, msg.ID, rr.err())
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, _ := s.serveLimited(ctx, msg, func(ctx context.Context) Response { return hs.Handle(ctx, msg, st) })
			answers[i] = resp.Body
		}()
	}
	wg.Wait()
	for _, a := range answers {
		if a != nil {
			out = append(out, a)
		}
	}
	return out, requests
}
