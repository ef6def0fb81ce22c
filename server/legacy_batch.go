package server

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// JSON-RPC batches in initialize-era sessions. Revision 2025-03-26 is the
// one whose messages include batches (basic/index: implementations MUST
// support receiving JSON-RPC batches; 2025-06-18 removed them), so a
// session that negotiated it takes an array of requests, notifications
// and responses: a POST body with its Mcp-Session-Id, or a stdio line
// (legacy_stdio_batch.go). Every other array is refused with -32600 (HTTP
// 400), as before.
//
// The requests of a batch run at once, each through the server's limits
// like a request of its own, admitted in the batch's order (its rate
// token, the in-flight cap, on stdio
// a slot of Limits.MaxInFlightPerConn, the drain: a refused one is
// answered with its error in the batch response, one cut off by the end
// of the connection or of a drain's grace with the shutdown error); the
// batch holds at most maxLegacyBatch messages. The answer is one array of
// the requests' responses (JSON-RPC 2.0, "Batch"), as a JSON body or, once
// a handler has sent a notification or a request to the client, as the
// last event of an SSE stream. A batch of notifications and responses only
// is 202 Accepted; a request the client cancelled has no response in the
// array, and a batch left with none gets an SSE stream that ends without
// one (endUnanswered). A malformed notification is never answered (no
// element of the array): beside requests or malformed requests it is
// dropped, the others answered as usual; in a batch with nothing to answer
// it makes the POST 400 with its id-less error, as the notification alone
// is, and none of the batch's messages is delivered (the server did not
// accept it: streamable-http.mdx, Sending Messages).

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
	if rej := checkLegacyVersion(r.Header); rej != nil { // legacy_http_version.go
		_ = rej.Write(w, nil)
		return true
	}
	elems, rerr := splitBatch(body)
	if rerr != nil {
		writeJSON(w, http.StatusBadRequest, jsonrpc.AppendError(nil, jsonrpc.ID{}, rerr))
		return true
	}
	var delivered []jsonrpc.Message
	b := readBatch(elems, func(msg jsonrpc.Message) { delivered = append(delivered, msg) })
	if b.requests == 0 && b.empty() && b.refused != nil {
		// Nothing to answer, and a notification the server cannot accept:
		// refused as that notification alone is, nothing of it delivered.
		writeJSON(w, http.StatusBadRequest, jsonrpc.AppendError(nil, jsonrpc.ID{}, b.refused))
		return true
	}
	for _, msg := range delivered {
		hs.Handle(r.Context(), msg, nil)
	}
	st := newHTTPStream(r.Context(), w, false, h.keepAlive)
	switch {
	case b.requests == 0 && b.empty():
		w.WriteHeader(http.StatusAccepted)
		return true
	case b.requests > 0:
		b.run(r.Context(), s, hs.legacySession, st)
	}
	if body := b.response(); body != nil {
		st.finish(jsonrpc.ID{}, Response{Body: body})
	} else {
		st.endUnanswered()
	}
	return true
}

// splitBatch returns the messages of a batch, each a copy of its own, or
// the -32700/-32600 error of one that is not valid JSON, empty or longer
// than maxLegacyBatch. A message nested past jsonscan.MaxNesting does not
// make the batch invalid: like a message sent alone, it is one JSON value
// whose id is read and answered. The elements are counted by scanning the body, and
// copied only once the count is within the cap: refusing a batch of
// millions of tiny elements costs no allocation per element.
func splitBatch(body []byte) ([]json.RawMessage, *jsonrpc.Error) {
	if !jsonscan.ValidDeep(body) || jsonscan.Kind(body) != '[' {
		return nil, jsonrpc.NewError(jsonrpc.CodeParseError, "Parse error: the batch is not valid JSON", nil)
	}
	n := 0
	jsonscan.EachElement(body, func([]byte) bool { n++; return true })
	switch {
	case n == 0:
		return nil, jsonrpc.NewError(jsonrpc.CodeInvalidRequest, "Invalid Request: an empty batch", nil)
	case n > maxLegacyBatch:
		return nil, jsonrpc.NewError(jsonrpc.CodeInvalidRequest,
			"Invalid Request: a batch of "+strconv.Itoa(n)+" messages; at most "+strconv.Itoa(maxLegacyBatch), nil)
	}
	elems := make([]json.RawMessage, 0, n)
	jsonscan.EachElement(body, func(v []byte) bool {
		elems = append(elems, append(json.RawMessage(nil), v...))
		return true
	})
	return elems, nil
}

// legacyBatch is a batch being served: its requests, and the answer of
// each message by position (nil: none).
type legacyBatch struct {
	msgs     []jsonrpc.Message // the requests to run, by position (Kind 0: none)
	answers  [][]byte
	requests int
	refused  *jsonrpc.Error // the error of the first malformed notification, nil if none
}

// readBatch decodes the messages of a batch: notifications and responses
// go to deliver at once, in order; a message that does not decode gets
// its error, but a malformed notification none (it is never answered:
// refused records its error); an initialize gets its -32600; the other
// requests are left to run.
func readBatch(elems []json.RawMessage, deliver func(jsonrpc.Message)) *legacyBatch {
	b := &legacyBatch{msgs: make([]jsonrpc.Message, len(elems)), answers: make([][]byte, len(elems))}
	for i, e := range elems {
		msg, derr := jsonrpc.DecodeOwned(e) // e is a copy of its own
		switch {
		case derr != nil:
			if msg.Kind != jsonrpc.KindNotification {
				b.answers[i] = jsonrpc.AppendError(nil, msg.ID, derr)
			} else if b.refused == nil {
				b.refused = derr
			}
			continue
		case msg.Kind != jsonrpc.KindRequest:
			deliver(msg)
			continue
		}
		b.requests++
		if msg.Method == "initialize" {
			b.answers[i] = jsonrpc.AppendError(nil, msg.ID, jsonrpc.NewError(jsonrpc.CodeInvalidRequest, "Invalid Request: initialize must not be part of a batch", nil))
			continue
		}
		b.msgs[i] = msg
	}
	return b
}

// run runs the requests of a POSTed batch at once in session l (stdio
// starts them one by one on its read loop, legacy_stdio_batch.go), each
// through the server's limits like a request of its own (admitRate,
// admitWatched), their notifications and server-to-client requests written
// to w; it returns once every one has its answer (none for a request the
// client cancelled). The requests are admitted in the batch's order, one
// after the other, before any goroutine is spent on them: under a cap the
// first ones run and the rest are refused, as the same requests sent one
// by one would be.
func (b *legacyBatch) run(ctx context.Context, s *Server, l *legacySession, w MessageWriter) {
	var wg sync.WaitGroup
	for i, msg := range b.msgs {
		if msg.Kind != jsonrpc.KindRequest {
			continue
		}
		if rr := s.admitRate(ctx); rr != nil {
			b.answers[i] = jsonrpc.AppendError(nil, msg.ID, rr.err())
			continue
		}
		a, rerr := s.admitWatched(ctx, msg)
		if rerr != nil {
			b.answers[i] = jsonrpc.AppendError(nil, msg.ID, rerr)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp := serveAdmission(a, nil, msg, handlerFunc(func(ctx context.Context) Response { return l.Handle(ctx, msg, w) }))
			b.answers[i] = resp.Body
		}()
	}
	wg.Wait()
}

// empty reports whether the batch has no answer.
func (b *legacyBatch) empty() bool {
	for _, a := range b.answers {
		if a != nil {
			return false
		}
	}
	return true
}

// response is the batch response, the array of the answers; nil when there
// is none (JSON-RPC: no empty array is sent).
func (b *legacyBatch) response() []byte {
	var out [][]byte
	for _, a := range b.answers {
		if a != nil {
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return append(append([]byte{'['}, bytes.Join(out, []byte{','})...), ']')
}
