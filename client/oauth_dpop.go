package client

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// DPoP (RFC 9449): the client proves possession of a key with a fresh
// signed proof on the token request and on every request that presents
// the token; the token is bound to the key's thumbprint (cnf.jkt).

// dpopState is OAuth's DPoP key and the nonces servers gave it.
type dpopState struct {
	mu     sync.Mutex
	key    crypto.Signer
	alg    string
	jwk    map[string]any
	nonces map[string]string // origin -> the server's latest DPoP-Nonce
}

// dpopOffered reports whether tokens from as should be DPoP-bound: the
// client asks for it and the server lists the signing algorithms it
// accepts (RFC 9449 §5.1), the proof key's among them (if not, the
// client asks for a bearer token, as a client without DPoP would).
func (o *OAuth) dpopOffered(as *serverMetadata) bool {
	if !o.DPoP || len(as.DPoPSigningAlgs) == 0 {
		return false
	}
	_, _, _, err := o.dpopKey(as.DPoPSigningAlgs)
	return err == nil
}

// dpopKey returns the proof key, its algorithm and public JWK (made on
// first use). allowed, when not empty, is the server's list
// (dpop_signing_alg_values_supported): the algorithm is one of it (RFC
// 9449 §5.1; for an RSA key, PS256 when the list has it and not RS256),
// and it is kept for the proofs that name no list (those to the MCP
// server, which take the algorithm the token was obtained with).
func (o *OAuth) dpopKey(allowed []string) (crypto.Signer, string, map[string]any, error) {
	d := &o.dpop
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.key == nil {
		key := o.DPoPKey
		if key == nil {
			k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
			if err != nil {
				return nil, "", nil, fmt.Errorf("client: DPoP key: %w", err)
			}
			key = k
		}
		alg, err := jwsAlg(key, nil)
		if err != nil {
			return nil, "", nil, err
		}
		jwk, _, err := publicJWK(key)
		if err != nil {
			return nil, "", nil, err
		}
		d.key, d.alg, d.jwk = key, alg, jwk
	}
	if len(allowed) > 0 {
		alg, err := jwsAlg(d.key, allowed)
		if err != nil {
			return nil, "", nil, fmt.Errorf("client: DPoP: %w", err)
		}
		d.alg = alg
	}
	return d.key, d.alg, d.jwk, nil
}

func origin(u *url.URL) string { return u.Scheme + "://" + u.Host }

// dpopProof is a proof for a request of method to target (RFC 9449
// §4.2): htu without query and fragment, the nonce the target's server
// last gave, and ath when it presents accessToken. nonce is the one used.
func (o *OAuth) dpopProof(method string, target *url.URL, accessToken string, allowed []string) (proof, nonce string, err error) {
	key, alg, jwk, err := o.dpopKey(allowed)
	if err != nil {
		return "", "", err
	}
	htu := *target
	htu.RawQuery, htu.ForceQuery, htu.Fragment, htu.RawFragment, htu.User = "", false, "", "", nil
	o.dpop.mu.Lock()
	nonce = o.dpop.nonces[origin(target)]
	o.dpop.mu.Unlock()
	claims := map[string]any{"jti": randomString(), "htm": method, "htu": htu.String(), "iat": time.Now().Unix()}
	if nonce != "" {
		claims["nonce"] = nonce
	}
	if accessToken != "" {
		sum := sha256.Sum256([]byte(accessToken))
		claims["ath"] = base64.RawURLEncoding.EncodeToString(sum[:])
	}
	proof, err = signJWT(key, alg, map[string]any{"typ": "dpop+jwt", "jwk": jwk}, claims)
	return proof, nonce, err
}

// noteNonce keeps the DPoP-Nonce of a response from target's server and
// reports whether it differs from sent (RFC 9449 §8, §9: the nonce is
// used from then on).
func (o *OAuth) noteNonce(target *url.URL, resp *http.Response, sent string) bool {
	n := resp.Header.Get("DPoP-Nonce")
	if n == "" {
		return false
	}
	o.dpop.mu.Lock()
	defer o.dpop.mu.Unlock()
	if o.dpop.nonces == nil {
		o.dpop.nonces = map[string]string{}
	}
	o.dpop.nonces[origin(target)] = n
	return n != sent
}

// dpopRoundTrip sends r with the DPoP token tok and a fresh proof; a 401
// use_dpop_nonce challenge that brings a new nonce is answered once, at
// once, with a new proof carrying it (RFC 9449 §9), here rather than in
// the login path: it is not a reason to log in again.
func (o *OAuth) dpopRoundTrip(base http.RoundTripper, r *http.Request, tok *Token) (*http.Response, error) {
	for attempt := 0; ; attempt++ {
		req := r.Clone(r.Context())
		if attempt > 0 && r.Body != nil && r.Body != http.NoBody {
			body, err := r.GetBody()
			if err != nil {
				return nil, err
			}
			req.Body = body
		}
		proof, nonce, err := o.dpopProof(req.Method, req.URL, tok.AccessToken, nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Authorization", "DPoP "+tok.AccessToken)
		req.Header.Set("DPoP", proof)
		resp, err := base.RoundTrip(req)
		if err != nil {
			return nil, err
		}
		fresh := o.noteNonce(req.URL, resp, nonce)
		replayable := r.Body == nil || r.Body == http.NoBody || r.GetBody != nil
		if attempt == 0 && fresh && replayable && resp.StatusCode == http.StatusUnauthorized &&
			parseChallengeOf(resp.Header.Values("WWW-Authenticate"), "DPoP").params["error"] == "use_dpop_nonce" {
			drain(resp)
			continue
		}
		return resp, nil
	}
}
