package oauth

import (
	"container/list"
	"crypto/sha256"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/server"
)

// Defaults of the introspection cache.
const (
	defaultIntrospectionCacheTTL  = time.Minute
	defaultIntrospectionCacheSize = 10000
)

// introspectionCache keeps the answers for active tokens, so a client
// making many requests with one token costs one introspection call per
// TTL, not one per request. An entry lives until the earlier of its TTL
// and the token's exp; at most max entries are kept (the oldest go
// first). Keys are SHA-256 hashes: the cache holds no tokens. Refusals
// are not kept: a made-up token must not push out real ones, and a token
// becoming valid (clock skew at the AS) is not delayed.
type introspectionCache struct {
	ttl time.Duration
	max int
	now func() time.Time

	mu      sync.Mutex
	entries map[[32]byte]*list.Element
	order   *list.List // of *cacheEntry, oldest first
}

type cacheEntry struct {
	key   [32]byte
	info  *server.TokenInfo
	until time.Time
}

func newIntrospectionCache(ttl time.Duration, size int) *introspectionCache {
	return &introspectionCache{ttl: ttl, max: size, now: time.Now,
		entries: map[[32]byte]*list.Element{}, order: list.New()}
}

// get returns a copy of the cached answer for token, if it is still good.
func (c *introspectionCache) get(token string) (*server.TokenInfo, bool) {
	key := sha256.Sum256([]byte(token))
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.entries[key]
	if !ok {
		return nil, false
	}
	e := el.Value.(*cacheEntry)
	if !c.now().Before(e.until) {
		c.order.Remove(el)
		delete(c.entries, key)
		return nil, false
	}
	return copyInfo(e.info), true
}

// put keeps info for token until min(now+ttl, exp), exp being the
// token's own "exp" (zero: none), not info.Expiry, which adds the leeway:
// past exp the authorization server is asked again.
func (c *introspectionCache) put(token string, info *server.TokenInfo, exp time.Time) {
	now := c.now()
	until := now.Add(c.ttl)
	if !exp.IsZero() && exp.Before(until) {
		until = exp
	}
	if !now.Before(until) {
		return
	}
	key := sha256.Sum256([]byte(token))
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[key]; ok {
		c.order.Remove(el)
		delete(c.entries, key)
	}
	for c.order.Len() >= c.max {
		oldest := c.order.Front()
		c.order.Remove(oldest)
		delete(c.entries, oldest.Value.(*cacheEntry).key)
	}
	c.entries[key] = c.order.PushBack(&cacheEntry{key: key, info: copyInfo(info), until: until})
}

func (c *introspectionCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}

// copyInfo copies what a handler could change: each request gets its own.
func copyInfo(in *server.TokenInfo) *server.TokenInfo {
	out := *in
	out.Audience = slices.Clone(in.Audience)
	out.Scopes = slices.Clone(in.Scopes)
	out.Claims = maps.Clone(in.Claims)
	return &out
}
