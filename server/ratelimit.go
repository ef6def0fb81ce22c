package server

import (
	"context"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/jsonrpc"
)

// RateLimit throttles the requests of each client with a token bucket
// (golang.org/x/time/rate): a client may send Burst requests at once and
// PerSecond requests a second on average. The zero value (PerSecond 0)
// turns rate limiting off.
//
// Every request counts, on every transport, once it is parsed (and, with
// HTTPOptions.Auth, once its token is verified): tools/call as much as
// tools/list or the start of a subscriptions/listen stream. Notifications
// are not counted. A request over the rate is not run and not queued; it
// is answered at once with -32603 and data
// {"reason":"rate_limited","retryAfter":N}, N the whole seconds (at least
// 1) until the client's bucket holds a token again; over HTTP with 429 Too
// Many Requests and the same N in Retry-After. (The other limits answer
// 503 with data.reason "busy": the server as a whole is full, where 429
// says this client asks too often.)
//
// The client a request counts against is Key(ctx) when set and not empty,
// else Limits.ClientID(ctx) when set and not empty, else the authenticated
// principal (issuer and subject of the access token, with
// HTTPOptions.Auth: one bucket across all of a caller's connections), else
// the transport's identity:
// on HTTP the remote IP address (the port dropped, so that opening new
// connections does not make a new client; an IPv6 address cut to its /64,
// since a host usually holds a whole /64 and may send every request from
// another address of it), on stdio the connection. Behind
// a reverse proxy every unauthenticated client has the proxy's address:
// authenticate, or wrap HTTPHandler in a handler that puts the forwarded
// address it trusts in the request context and read it in Key.
//
// Memory is bounded by MaxClients buckets. A bucket unused for as long as
// it takes to refill is dropped when a new client needs room (it holds
// nothing a fresh bucket would not). When every bucket is still refilling,
// the new clients share one overflow bucket of the same rate and burst
// until room frees up, and the clients already known keep their own
// buckets. A client is its key: a caller holding many keys (addresses in
// many networks, several accounts, many values of Key) is that many
// clients, each with its own burst and rate, but at most MaxClients of
// them are counted apart at once: rotating keys gets it at most MaxClients
// clients' rate, and one client's rate in all while the table is full of
// clients still refilling.
//
// Buckets live in the process: behind a load balancer, n replicas admit up
// to n times the rate (divide PerSecond by the replica count, or let the
// balancer keep clients on one replica).
type RateLimit struct {
	// PerSecond is the sustained number of requests a second one client may
	// send (fractions allowed: 0.5 is one request every two seconds). 0 or
	// less turns rate limiting off.
	PerSecond float64
	// Burst is how many requests a client may send at once, the size of its
	// bucket (default: PerSecond rounded up, at least 1).
	Burst int
	// Key names the client a request counts against (see RateLimit); an
	// empty result falls back to the default.
	Key func(ctx context.Context) string
	// MaxClients caps the buckets kept at once (default 10000, about 2.5 MB).
	MaxClients int
}

// defaultRateMaxClients is the default of RateLimit.MaxClients.
const defaultRateMaxClients = 10000

// reasonRateLimited is the data.reason of a request over its client's rate.
const reasonRateLimited = "rate_limited"

// rateRefusal is the answer to a request over its client's rate: the wait
// until the client's bucket holds a token again.
type rateRefusal struct {
	wait time.Duration
}

// retryAfter is the wait in whole seconds, rounded up, at least 1: the
// value of Retry-After and of data.retryAfter.
func (r rateRefusal) retryAfter() int64 {
	s := int64(math.Ceil(r.wait.Seconds()))
	return max(s, 1)
}

// err is the JSON-RPC error of the refusal.
func (r rateRefusal) err() *jsonrpc.Error {
	n := r.retryAfter()
	return &jsonrpc.Error{
		Code:    jsonrpc.CodeInternalError,
		Message: fmt.Sprintf("Internal error: too many requests from this client; retry after %d s", n),
		Data:    []byte(`{"reason":"` + reasonRateLimited + `","retryAfter":` + strconv.FormatInt(n, 10) + `}`),
	}
}

// admitRate takes a token from the bucket of the client of ctx; it returns
// nil to admit the request, or the refusal when the bucket is empty (or
// rate limiting is off: always nil).
func (s *Server) admitRate(ctx context.Context) *rateRefusal {
	t := s.rate
	if t == nil {
		return nil
	}
	wait := t.take(s.rateKey(ctx), time.Now())
	if wait <= 0 {
		return nil
	}
	return &rateRefusal{wait: wait}
}

// rateKey names the client a request counts against (see RateLimit).
func (s *Server) rateKey(ctx context.Context) string {
	if f := s.lim.cfg.Rate.Key; f != nil {
		if k := s.userKey(ctx, "RateLimit.Key", f); k != "" {
			return "key\x00" + k
		}
	}
	id := s.clientID(ctx)
	if transport, _ := ctx.Value(clientIDKey{}).(string); id == transport {
		// An HTTP client is its address without the port: a new
		// connection is not a new client. A RemoteAddr without a port (a
		// proxy-header middleware in front of HTTPHandler sets the bare
		// client IP) is the address itself.
		if addr, ok := strings.CutPrefix(id, "http:"); ok {
			host, _, err := net.SplitHostPort(addr)
			if err != nil {
				host = strings.TrimSuffix(strings.TrimPrefix(addr, "["), "]")
			}
			return "http:" + addressClient(host)
		}
	}
	return id
}

// ipv6ClientBits is the prefix of an IPv6 address that names one client:
// a host usually holds a whole /64 (SLAAC, privacy addresses, a /64 per
// subscriber) and may send each request from another address in it.
const ipv6ClientBits = 64

// addressClient names the client of a remote IP address: an IPv4 address
// (an IPv4-mapped one too) is itself, an IPv6 address its /64. Anything
// else is returned as it is.
func addressClient(host string) string {
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	if ip = ip.Unmap().WithZone(""); ip.Is4() {
		return ip.String()
	}
	p, err := ip.Prefix(ipv6ClientBits)
	if err != nil {
		return host
	}
	return p.String()
}

// writeRateRefusal writes the 429 answer of a request over its client's
// rate.
func writeRateRefusal(w http.ResponseWriter, id jsonrpc.ID, rr *rateRefusal) {
	w.Header().Set("Retry-After", strconv.FormatInt(rr.retryAfter(), 10))
	writeJSON(w, http.StatusTooManyRequests, jsonrpc.AppendError(nil, id, rr.err()))
}
