package client

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/asn1"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
)

// The client signs two kinds of JWT: private_key_jwt client assertions
// (RFC 7523 §2.2) and DPoP proofs (RFC 9449 §4.2). Both are compact JWS
// with a crypto.Signer, which is small enough to do with the standard
// library, so the core module takes no JOSE dependency; the oauth module's
// tests verify what is signed here with go-jose.

// jwsAlg picks the JWS algorithm for key: the one its type and curve
// imply (ES256/384/512, EdDSA; RSA: RS256, or PS256 when allowed names it
// and not RS256). allowed, when not empty, must contain the result.
func jwsAlg(key crypto.Signer, allowed []string) (string, error) {
	var alg string
	switch pub := key.Public().(type) {
	case *ecdsa.PublicKey:
		switch pub.Curve {
		case elliptic.P256():
			alg = "ES256"
		case elliptic.P384():
			alg = "ES384"
		case elliptic.P521():
			alg = "ES512"
		default:
			return "", errors.New("client: unsupported ECDSA curve for JWS")
		}
	case *rsa.PublicKey:
		alg = "RS256"
		if len(allowed) > 0 && !slices.Contains(allowed, "RS256") && slices.Contains(allowed, "PS256") {
			alg = "PS256"
		}
	case ed25519.PublicKey:
		alg = "EdDSA"
	default:
		return "", fmt.Errorf("client: unsupported key type %T for JWS", pub)
	}
	if len(allowed) > 0 && !slices.Contains(allowed, alg) {
		return "", fmt.Errorf("client: the server accepts JWS algorithms %v, not this key's %s", allowed, alg)
	}
	return alg, nil
}

// signJWT returns the compact JWS of claims with the protected header
// header (alg is set here) signed by key with alg.
func signJWT(key crypto.Signer, alg string, header, claims map[string]any) (string, error) {
	h := map[string]any{"alg": alg}
	for k, v := range header {
		h[k] = v
	}
	hj, err := json.Marshal(h)
	if err != nil {
		return "", err
	}
	cj, err := json.Marshal(claims)
	if err != nil {
		return "", err
	}
	input := base64.RawURLEncoding.EncodeToString(hj) + "." + base64.RawURLEncoding.EncodeToString(cj)
	sig, err := jwsSign(key, alg, []byte(input))
	if err != nil {
		return "", err
	}
	return input + "." + base64.RawURLEncoding.EncodeToString(sig), nil
}

func jwsSign(key crypto.Signer, alg string, input []byte) ([]byte, error) {
	if alg == "EdDSA" {
		return key.Sign(rand.Reader, input, crypto.Hash(0))
	}
	var hash crypto.Hash
	var digest []byte
	switch alg[2:] {
	case "256":
		hash = crypto.SHA256
		s := sha256.Sum256(input)
		digest = s[:]
	case "384":
		hash = crypto.SHA384
		s := sha512.Sum384(input)
		digest = s[:]
	case "512":
		hash = crypto.SHA512
		s := sha512.Sum512(input)
		digest = s[:]
	default:
		return nil, fmt.Errorf("client: unsupported JWS algorithm %s", alg)
	}
	switch alg[:2] {
	case "RS":
		return key.Sign(rand.Reader, digest, hash)
	case "PS":
		return key.Sign(rand.Reader, digest, &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthEqualsHash, Hash: hash})
	case "ES":
		der, err := key.Sign(rand.Reader, digest, hash)
		if err != nil {
			return nil, err
		}
		// A crypto.Signer's ECDSA signature is ASN.1; JWS wants R || S,
		// each the size of the curve's order (RFC 7518 §3.4).
		var rs struct{ R, S *big.Int }
		if rest, err := asn1.Unmarshal(der, &rs); err != nil || len(rest) > 0 {
			return nil, errors.New("client: the key's ECDSA signature is not ASN.1")
		}
		size := (key.Public().(*ecdsa.PublicKey).Curve.Params().BitSize + 7) / 8
		out := make([]byte, 2*size)
		rs.R.FillBytes(out[:size])
		rs.S.FillBytes(out[size:])
		return out, nil
	}
	return nil, fmt.Errorf("client: unsupported JWS algorithm %s", alg)
}

// publicJWK is key's public key as a JWK (RFC 7517) with only the
// members RFC 7638 hashes, and that thumbprint (base64url SHA-256).
func publicJWK(key crypto.Signer) (jwk map[string]any, thumbprint string, err error) {
	b64 := base64.RawURLEncoding.EncodeToString
	var canonical string
	switch pub := key.Public().(type) {
	case *ecdsa.PublicKey:
		point, err := pub.Bytes() // 0x04 || X || Y
		if err != nil {
			return nil, "", fmt.Errorf("client: %w", err)
		}
		size := (len(point) - 1) / 2
		crv := pub.Curve.Params().Name
		x, y := b64(point[1:1+size]), b64(point[1+size:])
		jwk = map[string]any{"kty": "EC", "crv": crv, "x": x, "y": y}
		canonical = `{"crv":"` + crv + `","kty":"EC","x":"` + x + `","y":"` + y + `"}`
	case *rsa.PublicKey:
		n, e := b64(pub.N.Bytes()), b64(big.NewInt(int64(pub.E)).Bytes())
		jwk = map[string]any{"kty": "RSA", "n": n, "e": e}
		canonical = `{"e":"` + e + `","kty":"RSA","n":"` + n + `"}`
	case ed25519.PublicKey:
		x := b64(pub)
		jwk = map[string]any{"kty": "OKP", "crv": "Ed25519", "x": x}
		canonical = `{"crv":"Ed25519","kty":"OKP","x":"` + x + `"}`
	default:
		return nil, "", fmt.Errorf("client: unsupported key type %T for a JWK", pub)
	}
	sum := sha256.Sum256([]byte(canonical))
	return jwk, b64(sum[:]), nil
}
