package server

import (
	"context"
	"runtime/debug"
	"strconv"
	"sync/atomic"
)

// Client identity for per-client quotas (Limits.MaxTasksPerClient). The
// transports put their own identity of the client in the request context:
// the stdio connection, the HTTP connection. Limits.ClientID, when set,
// takes precedence: that is where an authenticated principal plugs in.

type clientIDKey struct{}

// withClientID returns ctx carrying the transport's identity of the client.
func withClientID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, clientIDKey{}, id)
}

// hasClientID reports whether ctx already carries a transport identity.
func hasClientID(ctx context.Context) bool {
	_, ok := ctx.Value(clientIDKey{}).(string)
	return ok
}

// clientID names the client of the request ctx belongs to: Limits.ClientID
// when set and not empty, else the authenticated principal (HTTPOptions.Auth:
// one quota across all of a caller's connections), else the transport's
// identity ("" when none).
func (s *Server) clientID(ctx context.Context) string {
	if f := s.lim.cfg.ClientID; f != nil {
		if id := s.userKey(ctx, "Limits.ClientID", f); id != "" {
			return id
		}
	}
	if k := principalKey(ctx); k != "" {
		return "principal\x00" + k
	}
	id, _ := ctx.Value(clientIDKey{}).(string)
	return id
}

var connSeq atomic.Uint64

// nextConnID returns a process-unique identity for a new connection.
func nextConnID(kind string) string {
	return kind + ":" + strconv.FormatUint(connSeq.Add(1), 10)
}

// userKey calls a key function the user supplied (Limits.ClientID,
// RateLimit.Key). It may run on the stdio read loop, outside any request's
// recovery, so a panic is recovered here: logged, and the key is "", which
// falls back to the default identity.
func (s *Server) userKey(ctx context.Context, name string, f func(context.Context) string) (key string) {
	defer func() {
		if v := recover(); v != nil {
			s.logger.Error(name+" panicked; the default client identity is used", "panic", v, "stack", string(debug.Stack()))
			key = ""
		}
	}()
	return f(ctx)
}
