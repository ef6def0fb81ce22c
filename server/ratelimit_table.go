package server

import (
	"container/list"
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// rateTable holds the token bucket of each client (RateLimit), at most max
// of them. Buckets are kept in the order they were last used; one unused
// for refill (the time an empty bucket takes to fill up) is full again,
// so dropping it loses nothing. A new client takes the slot of such a
// bucket, or a free slot; when there is neither, it shares the overflow
// bucket.
type rateTable struct {
	limit  rate.Limit
	burst  int
	max    int
	refill time.Duration

	mu       sync.Mutex
	clients  map[string]*list.Element // of *rateBucket
	lru      list.List                // front: used last
	overflow *rate.Limiter
}

type rateBucket struct {
	key  string
	lim  *rate.Limiter
	used time.Time // the last request, admitted or not
}

// newRateTable returns the table for cfg, or nil when cfg turns rate
// limiting off.
func newRateTable(cfg RateLimit) *rateTable {
	if !(cfg.PerSecond > 0) || math.IsInf(cfg.PerSecond, 1) {
		return nil
	}
	burst := cfg.Burst
	if burst <= 0 {
		burst = max(1, int(math.Min(math.Ceil(cfg.PerSecond), math.MaxInt32)))
	}
	n := cfg.MaxClients
	if n <= 0 {
		n = defaultRateMaxClients
	}
	limit := rate.Limit(cfg.PerSecond)
	t := &rateTable{limit: limit, burst: burst, max: n, refill: refillTime(cfg.PerSecond, burst),
		clients: make(map[string]*list.Element), overflow: rate.NewLimiter(limit, burst)}
	t.lru.Init()
	return t
}

// refillTime is how long an empty bucket of burst tokens takes to fill at
// perSecond, capped at a day (so a bucket of a slower rate is dropped after
// a day unused, a little before it is full).
func refillTime(perSecond float64, burst int) time.Duration {
	const day = 24 * time.Hour
	secs := float64(burst) / perSecond
	if secs >= day.Seconds() {
		return day
	}
	return time.Duration(math.Ceil(secs * float64(time.Second)))
}

// take spends one token of key's bucket at now: 0 when the request is
// admitted, else how long until a token is there (nothing is spent).
func (t *rateTable) take(key string, now time.Time) time.Duration {
	lim := t.bucket(key, now)
	r := lim.ReserveN(now, 1)
	if !r.OK() {
		return t.refill // burst < 1 cannot happen; refuse rather than admit
	}
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now) // a refused request costs the client nothing
		return d
	}
	return 0
}

// evictBatch bounds the idle buckets one new client drops, so that a
// request's cost stays constant.
const evictBatch = 4

// bucket returns key's limiter, making it when needed.
func (t *rateTable) bucket(key string, now time.Time) *rate.Limiter {
	t.mu.Lock()
	defer t.mu.Unlock()
	if e, ok := t.clients[key]; ok {
		b := e.Value.(*rateBucket)
		b.used = now
		t.lru.MoveToFront(e)
		return b.lim
	}
	for range evictBatch {
		e := t.lru.Back()
		if e == nil || now.Sub(e.Value.(*rateBucket).used) < t.refill {
			break
		}
		t.lru.Remove(e)
		delete(t.clients, e.Value.(*rateBucket).key)
	}
	if len(t.clients) >= t.max {
		return t.overflow
	}
	b := &rateBucket{key: key, lim: rate.NewLimiter(t.limit, t.burst), used: now}
	t.clients[key] = t.lru.PushFront(b)
	return b.lim
}

// size is the number of buckets kept (tests).
func (t *rateTable) size() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.clients)
}
