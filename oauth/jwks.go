package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/mcpgen/mcpgen/internal/jsonscan"
	"io"
	"net/http"
	"sync"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// keySet caches an authorization server's JWKS. A token signed with a key
// it does not know (a rotation) makes it fetch the set again: one naming
// a key ID the set lacks (lookup), and one that no cached key verifies, as
// a token naming no key ID signed with a new key is (refetch). It fetches
// at most once per minRefresh for both: forged tokens, with made-up key
// IDs or none, cannot turn the server into a JWKS fetcher for the
// attacker. The set is also fetched
// again when older than maxAge. A fetch runs detached from the request
// that started it (with its own timeout), and every caller that needs it
// waits for it with its own context: a caller that hangs up cannot spend
// the window's fetch for everyone.
type keySet struct {
	url        string
	hc         *http.Client
	minRefresh time.Duration
	maxAge     time.Duration

	mu       sync.Mutex // guards the fields below
	keys     []jose.JSONWebKey
	version  uint64     // counts the successful fetches: which keys a caller saw
	fetched  time.Time  // last successful fetch
	tried    time.Time  // last attempt
	inflight *jwksFetch // the running fetch, if any
}

// jwksFetch is one fetch of the set; done is closed when it ends, with
// err its outcome.
type jwksFetch struct {
	done chan struct{}
	err  error
}

// jwksFetchTimeout bounds a fetch, whatever the HTTP client's timeout.
const jwksFetchTimeout = 30 * time.Second

// errThrottled is a refresh refused because one was tried within
// minRefresh.
var errThrottled = errors.New("the JWKS was fetched recently; not fetching it again yet")

// maxJWKSBytes bounds a JWKS document.
const maxJWKSBytes = 1 << 20

// lookup returns the keys that may have signed a token with key ID kid
// ("" when the token names none) and algorithm alg, and the version of the
// set they come from (for refetch).
func (ks *keySet) lookup(ctx context.Context, kid, alg string) ([]jose.JSONWebKey, uint64, error) {
	if keys, version := ks.match(kid, alg); len(keys) > 0 && !ks.stale() {
		return keys, version, nil
	}
	if err := ks.refresh(ctx); err != nil {
		if keys, version := ks.match(kid, alg); len(keys) > 0 {
			return keys, version, nil // keep using a stale set when the server is unreachable
		}
		if errors.Is(err, errThrottled) {
			return nil, 0, fmt.Errorf("%w: no key %q for %s in the JWKS (%w)", errInvalid, kid, alg, err)
		}
		return nil, 0, err
	}
	if keys, version := ks.match(kid, alg); len(keys) > 0 {
		return keys, version, nil
	}
	return nil, 0, fmt.Errorf("%w: no key %q for %s in the JWKS", errInvalid, kid, alg)
}

// refetch returns the keys for kid and alg of a set newer than version,
// the one whose keys (from lookup) verified no token: the set as it is now
// when another caller has fetched it since, else a set fetched again
// (refresh: at most once per minRefresh, errThrottled otherwise).
func (ks *keySet) refetch(ctx context.Context, kid, alg string, version uint64) ([]jose.JSONWebKey, error) {
	if keys, now := ks.match(kid, alg); now != version {
		return keys, nil
	}
	if err := ks.refresh(ctx); err != nil {
		return nil, err
	}
	keys, _ := ks.match(kid, alg)
	return keys, nil
}

func (ks *keySet) stale() bool {
	ks.mu.Lock()
	defer ks.mu.Unlock()
	return time.Since(ks.fetched) > ks.maxAge
}

// match returns the keys of the set for kid and alg, and the set's
// version.
func (ks *keySet) match(kid, alg string) ([]jose.JSONWebKey, uint64) {
	ks.mu.Lock()
	defer ks.mu.Unlock()
	var out []jose.JSONWebKey
	for _, k := range ks.keys {
		if (kid == "" || k.KeyID == kid) && (k.Algorithm == "" || k.Algorithm == alg) && (k.Use == "" || k.Use == "sig") {
			out = append(out, k)
		}
	}
	return out, ks.version
}

// refresh waits for the running fetch of the set, or starts one unless
// one was tried within minRefresh; ctx bounds the wait, not the fetch.
func (ks *keySet) refresh(ctx context.Context) error {
	ks.mu.Lock()
	f := ks.inflight
	if f == nil {
		if time.Since(ks.tried) < ks.minRefresh {
			ks.mu.Unlock()
			return errThrottled
		}
		ks.tried = time.Now()
		f = &jwksFetch{done: make(chan struct{})}
		ks.inflight = f
		go ks.run(context.WithoutCancel(ctx), f)
	}
	ks.mu.Unlock()
	select {
	case <-f.done:
		return f.err
	case <-ctx.Done():
		return fmt.Errorf("oauth: waiting for the JWKS: %w", context.Cause(ctx))
	}
}

// run fetches the set for f and ends it.
func (ks *keySet) run(ctx context.Context, f *jwksFetch) {
	ctx, cancel := context.WithTimeout(ctx, jwksFetchTimeout)
	defer cancel()
	keys, err := ks.fetchKeys(ctx)
	ks.mu.Lock()
	if err == nil {
		ks.keys, ks.fetched = keys, time.Now()
		ks.version++
	}
	f.err, ks.inflight = err, nil
	ks.mu.Unlock()
	close(f.done)
}

// fetchKeys fetches the set and returns its usable keys.
func (ks *keySet) fetchKeys(ctx context.Context) ([]jose.JSONWebKey, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, ks.url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := ks.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("oauth: fetching the JWKS: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("oauth: fetching the JWKS %s: HTTP %d", ks.url, resp.StatusCode)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxJWKSBytes+1))
	if err != nil {
		return nil, fmt.Errorf("oauth: reading the JWKS: %w", err)
	}
	if len(body) > maxJWKSBytes {
		return nil, fmt.Errorf("oauth: the JWKS at %s exceeds %d bytes", ks.url, maxJWKSBytes)
	}
	return usableKeys(body)
}

// usableKeys decodes a JWKS and keeps its valid public keys. Each key is
// decoded on its own: one the verifier does not understand (a kty or crv
// go-jose does not support, an X25519 encryption key, a member out of
// range) is skipped, not a reason to refuse the set (RFC 7517 §5).
func usableKeys(body []byte) ([]jose.JSONWebKey, error) {
	// Exact member names and no repeated ones, as for the other documents
	// of the authorization server (decodeObject): "Keys" is not "keys".
	if _, perr := jsonscan.Tree(body, jsonscan.MaxNesting); perr != nil {
		if perr.Repeated {
			return nil, fmt.Errorf("oauth: decoding the JWKS: the member %q is repeated", perr.Duplicate)
		}
		return nil, fmt.Errorf("oauth: decoding the JWKS: %w", perr)
	}
	var set map[string]json.RawMessage
	if err := json.Unmarshal(body, &set); err != nil {
		return nil, fmt.Errorf("oauth: decoding the JWKS: %w", err)
	}
	var raws []json.RawMessage
	if k, ok := set["keys"]; ok {
		if err := json.Unmarshal(k, &raws); err != nil {
			return nil, fmt.Errorf("oauth: decoding the JWKS: keys: %w", err)
		}
	}
	var keys []jose.JSONWebKey
	for _, raw := range raws {
		var k jose.JSONWebKey
		if err := k.UnmarshalJSON(raw); err != nil {
			continue
		}
		if k.Valid() && k.IsPublic() {
			keys = append(keys, k)
		}
	}
	return keys, nil
}
