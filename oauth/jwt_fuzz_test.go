package oauth

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/mcpgen/mcpgen/server"
)

const (
	fuzzIssuer   = "https://as.example.com"
	fuzzAudience = "https://mcp.example.com/mcp"
	fuzzLeeway   = time.Minute
)

// jwtFuzzEnv is a JWTVerifier, and one with RequireAccessTokenType, with
// a cached one-key JWKS (ES256, kid "k1") and the keys to sign hostile
// tokens with.
type jwtFuzzEnv struct {
	v, strict  *JWTVerifier
	key, other *ecdsa.PrivateKey
	pubBytes   []byte // the public key, for HMAC key confusion
}

func newJWTFuzzEnv(f *testing.F) *jwtFuzzEnv {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	other, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	set, _ := json.Marshal(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &key.PublicKey, KeyID: "k1", Algorithm: "ES256", Use: "sig"}}})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write(set) }))
	f.Cleanup(srv.Close)
	cfg := JWTConfig{Issuer: fuzzIssuer, Audience: fuzzAudience, JWKSURL: srv.URL, Leeway: fuzzLeeway}
	v, err := NewJWTVerifier(context.Background(), cfg)
	if err != nil {
		f.Fatal(err)
	}
	cfg.RequireAccessTokenType = true
	strict, err := NewJWTVerifier(context.Background(), cfg)
	if err != nil {
		f.Fatal(err)
	}
	pub, _ := key.PublicKey.Bytes()
	return &jwtFuzzEnv{v: v, strict: strict, key: key, other: other, pubBytes: pub}
}

func b64url(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

// sign makes header.payload.signature; mode picks the signature: 0 the
// JWKS key, 1 another key, 2 HMAC-SHA256 keyed with the public key (the
// key confusion attack), 3 none.
func (e *jwtFuzzEnv) sign(header, payload string, mode uint8) string {
	input := b64url([]byte(header)) + "." + b64url([]byte(payload))
	sum := sha256.Sum256([]byte(input))
	var sig []byte
	switch mode % 4 {
	case 0, 1:
		k := e.key
		if mode%4 == 1 {
			k = e.other
		}
		r, s, _ := ecdsa.Sign(rand.Reader, k, sum[:])
		sig = make([]byte, 64)
		r.FillBytes(sig[:32])
		s.FillBytes(sig[32:])
	case 2:
		m := hmac.New(sha256.New, e.pubBytes)
		m.Write([]byte(input))
		sig = m.Sum(nil)
	}
	return input + "." + b64url(sig)
}

// refVerdict is the reference path's answer: written from RFC 7515/7519
// with the standard library only (no go-jose), for the one ES256 key.
type refVerdict struct {
	ok       bool // the default verifier must accept
	atJWT    bool // typ is at+jwt: with ok, RequireAccessTokenType must accept
	subject  string
	simple   bool // the header has only alg, kid, typ: go-jose has nothing more to refuse
	boundary bool // a time claim is within seconds of the leeway edge, or absurd: no verdict
	why      string
}

// nonEmptyString reports whether raw is a JSON string other than "".
func nonEmptyString(raw json.RawMessage) bool {
	var s string
	return json.Unmarshal(raw, &s) == nil && s != ""
}

// refScopeString matches an RFC 6749 §3.3 scope string, spaces around
// and between the scope tokens tolerated.
var refScopeString = regexp.MustCompile(`^ *([!#-\[\]-~]+ +)*([!#-\[\]-~]+)? *$`)

// scopesOK reports whether the scope claims are well formed: "scope" a
// scope string, or else "scp" a scope string or an array of scope tokens.
func scopesOK(all map[string]json.RawMessage) bool {
	if raw, ok := all["scope"]; ok && string(raw) != "null" {
		var s string
		return json.Unmarshal(raw, &s) == nil && refScopeString.MatchString(s)
	}
	raw, ok := all["scp"]
	if !ok || string(raw) == "null" {
		return true
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return refScopeString.MatchString(s)
	}
	var list []string
	if json.Unmarshal(raw, &list) != nil {
		return false
	}
	for _, sc := range list {
		if sc == "" || strings.Contains(sc, " ") || !refScopeString.MatchString(sc) {
			return false
		}
	}
	return true
}

// repeatsMember reports whether the JSON document doc names a member twice
// in one of its objects (member names compared unescaped, as
// encoding/json reads them); false for a document that is not JSON.
func repeatsMember(doc []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(doc))
	type frame struct {
		names    map[string]bool // nil: an array
		wantName bool
	}
	var stack []frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		top := len(stack) - 1
		if top >= 0 && stack[top].names != nil && stack[top].wantName {
			if name, ok := tok.(string); ok {
				if stack[top].names[name] {
					return true
				}
				stack[top].names[name], stack[top].wantName = true, false
				continue
			}
		}
		if top >= 0 && stack[top].names != nil {
			stack[top].wantName = true // this token is a member's value (or '}')
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, frame{names: map[string]bool{}, wantName: true})
		case json.Delim('['):
			stack = append(stack, frame{})
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:top]
			if len(stack) == 0 {
				return false
			}
		}
	}
}

// member decodes the member name of obj, if present, into dst.
func member(obj map[string]json.RawMessage, name string, dst any) error {
	raw, ok := obj[name]
	if !ok {
		return nil
	}
	return json.Unmarshal(raw, dst)
}

func refVerify(token string, pub *ecdsa.PublicKey, now time.Time) refVerdict {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return refVerdict{why: "not three parts"}
	}
	dec := func(s string) ([]byte, error) { return base64.RawURLEncoding.DecodeString(s) }
	hb, err1 := dec(parts[0])
	pb, err2 := dec(parts[1])
	sig, err3 := dec(parts[2])
	if err := errors.Join(err1, err2, err3); err != nil {
		return refVerdict{why: "base64: " + err.Error()}
	}
	var header map[string]json.RawMessage
	if err := json.Unmarshal(hb, &header); err != nil {
		return refVerdict{why: "header JSON"}
	}
	// One message, one parse: a member named twice in the header or the
	// claims (encoding/json keeps the last) refuses the token.
	if repeatsMember(hb) || repeatsMember(pb) {
		return refVerdict{why: "repeated member"}
	}
	v := refVerdict{simple: true}
	for k := range header {
		if k != "alg" && k != "kid" && k != "typ" {
			v.simple = false
		}
	}
	// Member names are case-sensitive (RFC 7515 §4, RFC 7519 §4): read
	// exact keys, not encoding/json's case-insensitive struct fields.
	var h struct {
		Alg, Kid string
		Typ      *string // nil: absent or null
	}
	if err := errors.Join(member(header, "alg", &h.Alg), member(header, "kid", &h.Kid), member(header, "typ", &h.Typ)); err != nil {
		v.why = "header members"
		return v
	}
	// typ (RFC 9068 §4, RFC 7515 §4.1.9): a media type, "application/"
	// implied without a "/", names compared ASCII case-insensitively.
	// at+jwt is an access token; JWT and no typ are what many servers
	// issue for one; anything else is another kind of JWT.
	typOK := h.Typ == nil
	if h.Typ != nil {
		t := strings.Map(func(r rune) rune {
			if 'A' <= r && r <= 'Z' {
				return r + 'a' - 'A'
			}
			return r
		}, *h.Typ)
		t = strings.TrimPrefix(t, "application/")
		v.atJWT = t == "at+jwt"
		typOK = v.atJWT || t == "jwt"
	}
	if _, crit := header["crit"]; crit {
		v.why = "crit"
		return v
	}
	if h.Alg != "ES256" || h.Kid != "" && h.Kid != "k1" {
		v.why = "alg/kid " + h.Alg + "/" + h.Kid
		return v
	}
	if len(sig) != 64 {
		v.why = "signature length"
		return v
	}
	sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if !ecdsa.Verify(pub, sum[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		v.why = "signature"
		return v
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(pb, &all); err != nil || all == nil {
		v.why = "claims JSON"
		return v
	}
	var c struct {
		Iss, Sub, Jti string
		Aud           json.RawMessage
		Exp, Nbf, Iat *float64
	}
	c.Aud = all["aud"]
	if err := errors.Join(member(all, "iss", &c.Iss), member(all, "sub", &c.Sub), member(all, "jti", &c.Jti),
		member(all, "exp", &c.Exp), member(all, "nbf", &c.Nbf), member(all, "iat", &c.Iat)); err != nil {
		v.why = "claim types"
		return v
	}
	var aud []string
	if len(c.Aud) > 0 && string(c.Aud) != "null" {
		var one string
		if json.Unmarshal(c.Aud, &one) == nil {
			aud = []string{one}
		} else if json.Unmarshal(c.Aud, &aud) != nil {
			v.why = "aud type"
			return v
		}
	}
	// Time claims: seconds, compared at whole seconds.
	edge := func(t *float64, at time.Time) {
		if t != nil && (math.Abs(*t) > 1e12 || math.Abs(*t-float64(at.Unix())) < 3) {
			v.boundary = true
		}
	}
	edge(c.Exp, now.Add(-fuzzLeeway))
	edge(c.Nbf, now.Add(fuzzLeeway))
	edge(c.Iat, now.Add(fuzzLeeway))
	switch {
	case !typOK:
		v.why = "typ"
	case c.Exp == nil:
		v.why = "no exp"
	case c.Iss != fuzzIssuer:
		v.why = "iss"
	case *c.Exp < float64(now.Add(-fuzzLeeway).Unix()):
		v.why = "expired"
	case c.Nbf != nil && *c.Nbf > float64(now.Add(fuzzLeeway).Unix()):
		v.why = "not yet valid"
	case c.Iat != nil && *c.Iat > float64(now.Add(fuzzLeeway).Unix()):
		v.why = "issued in the future"
	case !audienceMatches(aud, fuzzAudience):
		v.why = "aud"
	case !scopesOK(all):
		v.why = "scope"
	case v.atJWT && (c.Sub == "" || !nonEmptyString(all["client_id"])):
		v.why = "at+jwt without sub or client_id (RFC 9068 §2.2)"
	default:
		v.ok, v.subject = true, c.Sub
	}
	return v
}

// FuzzJWTVerify throws hostile JWTs at the verifier (raw strings, and
// tokens the harness signs from fuzzed header and claims: with the right
// key, another key, HMAC keyed with the public key, or no signature) and
// compares with refVerify. A token the verifier accepts and the reference
// refuses is a failure; so is a refusal of a token with a plain header
// (alg, kid, typ) the reference accepts. The same goes for the verifier
// with RequireAccessTokenType, which must accept only what the reference
// accepts with typ at+jwt. Every refusal must wrap server.ErrInvalidToken.
func FuzzJWTVerify(f *testing.F) {
	env := newJWTFuzzEnv(f)
	now := time.Now().Unix()
	good := fmt.Sprintf(`{"iss":%q,"aud":%q,"sub":"alice","client_id":"app","exp":%d,"iat":%d,"scope":"mcp"}`, fuzzIssuer, fuzzAudience, now+3600, now)
	hdr := `{"alg":"ES256","kid":"k1","typ":"at+jwt"}`
	for _, s := range []struct {
		header, payload string
		mode            uint8
	}{
		{hdr, good, 0}, {hdr, good, 1}, {`{"alg":"HS256","kid":"k1"}`, good, 2}, {`{"alg":"none"}`, good, 3},
		{`{"alg":"ES256"}`, good, 0}, {`{"alg":"ES256","kid":"k2"}`, good, 0}, {`{"alg":"RS256","kid":"k1"}`, good, 0},
		{`{"alg":"ES256","kid":"k1","crit":["exp"],"exp":1}`, good, 0},
		{`{"alg":"ES256","kid":"k1","jwk":{"kty":"EC","crv":"P-256","x":"AA","y":"AA"}}`, good, 0},
		{hdr, fmt.Sprintf(`{"iss":%q,"aud":[%q,"x"],"sub":"bob","exp":%d}`, fuzzIssuer, fuzzAudience+"/", now+60), 0},
		{hdr, fmt.Sprintf(`{"iss":%q,"aud":%q,"sub":"bob","exp":%d}`, fuzzIssuer, fuzzAudience, now+60), 0},
		{hdr, fmt.Sprintf(`{"iss":%q,"aud":%q,"client_id":"app","exp":%d}`, fuzzIssuer, fuzzAudience, now+60), 0},
		{`{"alg":"ES256","kid":"k1","typ":"JWT"}`, fmt.Sprintf(`{"iss":%q,"aud":%q,"azp":"app","exp":%d}`, fuzzIssuer, fuzzAudience, now+60), 0},
		{hdr, fmt.Sprintf(`{"iss":%q,"aud":%q,"exp":%d}`, fuzzIssuer, "https://other.example.com/mcp", now+60), 0},
		{hdr, fmt.Sprintf(`{"iss":"https://evil.example.com","aud":%q,"exp":%d}`, fuzzAudience, now+60), 0},
		{hdr, fmt.Sprintf(`{"iss":%q,"aud":%q,"exp":%d}`, fuzzIssuer, fuzzAudience, now-3600), 0},
		{hdr, fmt.Sprintf(`{"iss":%q,"aud":%q,"exp":%d,"nbf":%d}`, fuzzIssuer, fuzzAudience, now+7200, now+3600), 0},
		{hdr, fmt.Sprintf(`{"iss":%q,"aud":%q}`, fuzzIssuer, fuzzAudience), 0},
		{hdr, fmt.Sprintf(`{"iss":%q,"aud":%q,"exp":"%d"}`, fuzzIssuer, fuzzAudience, now+60), 0},
		{hdr, fmt.Sprintf(`{"iss":%q,"iss":"x","aud":%q,"exp":%d}`, fuzzIssuer, fuzzAudience, now+60), 0},
		{hdr, `[]`, 0}, {hdr, `null`, 0},
		{`{"alg":"ES256","kid":"k1","typ":"JWT"}`, good, 0}, {`{"alg":"ES256","kid":"k1","typ":"application/AT+JWT"}`, good, 0},
		{`{"alg":"ES256","kid":"k1","typ":"logout+jwt"}`, good, 0}, {`{"alg":"ES256","kid":"k1","typ":"secevent+jwt"}`, good, 0},
		{`{"alg":"ES256","kid":"k1","typ":null}`, good, 0}, {`{"alg":"ES256","kid":"k1","typ":""}`, good, 0},
		{`{"alg":"ES256","kid":"k1","typ":1}`, good, 0}, {`{"alg":"ES256","kid":"k1","typ":"at+jwt","typ":"dpop+jwt"}`, good, 0},
		{`{"alg":"ES256","kid":"k1","Typ":"logout+jwt"}`, good, 0}, {`{"alg":"ES256","kid":"k1","typ":"at+jwt\u0000"}`, good, 0},
		{`{"alg":"ES256","alg":"ES256","kid":"k1"}`, good, 0}, {hdr, good[:len(good)-1] + `,"cnf":{"jkt":"a","j\u006bt":"b"}}`, 0},
	} {
		f.Add(s.header, s.payload, s.mode, "")
	}
	f.Add("", "", uint8(0), "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.")
	f.Add("", "", uint8(0), "a.b.c.d.e")
	f.Add("", "", uint8(0), "")
	f.Fuzz(func(t *testing.T, header, payload string, mode uint8, raw string) {
		token := raw
		if raw == "" {
			token = env.sign(header, payload, mode)
		}
		at := time.Now()
		info, err := env.v.VerifyToken(context.Background(), token)
		sInfo, sErr := env.strict.VerifyToken(context.Background(), token)
		ref := refVerify(token, &env.key.PublicKey, at)
		check := func(name string, info *server.TokenInfo, err error, ok bool) {
			if err != nil && !errors.Is(err, server.ErrInvalidToken) {
				t.Fatalf("%s: refusal does not wrap ErrInvalidToken: %v", name, err)
			}
			if ref.boundary {
				return
			}
			why := ref.why
			if ref.ok && !ok {
				why = "typ not at+jwt"
			}
			switch {
			case err == nil && !ok:
				t.Fatalf("%s: the verifier accepts a token the reference refuses (%s): %q", name, why, token)
			case err == nil && info.Subject != ref.subject:
				t.Fatalf("%s: subject %q, the reference reads %q: %q", name, info.Subject, ref.subject, token)
			case err != nil && ok && ref.simple:
				t.Fatalf("%s: the verifier refuses (%v) a plain token the reference accepts: %q", name, err, token)
			}
		}
		check("default", info, err, ref.ok)
		check("RequireAccessTokenType", sInfo, sErr, ref.ok && ref.atJWT)
	})
}
