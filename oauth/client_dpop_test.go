package oauth

import (
	"crypto/rand"
	"crypto/rsa"
	"net/http"
	"sync"
	"testing"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/mcpgen/mcpgen/client"
)

// TestClientDPoPRSAKeyUsesAdvertisedAlg: an RSA DPoP key and an
// authorization server whose dpop_signing_alg_values_supported is
// ["PS256"]: the token request's proof is signed PS256, an algorithm the
// server accepts, not the RS256 an RSA key gets by default (RFC 9449 §5.1;
// jws.go: "RSA: RS256, or PS256 when allowed names it and not RS256").
func TestClientDPoPRSAKeyUsesAdvertisedAlg(t *testing.T) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	as := newFakeAS(t, map[string]any{"grant_types_supported": []string{"client_credentials"},
		"token_endpoint_auth_methods_supported": []string{"client_secret_basic"},
		"dpop_signing_alg_values_supported":     []string{"PS256"}})
	var mu sync.Mutex
	var algs []string
	as.grant = func(r *http.Request, jkt string) string {
		proof, err := jose.ParseSigned(r.Header.Get("DPoP"), allAlgs)
		if err != nil {
			t.Errorf("proof: %v", err)
			return "invalid_dpop_proof"
		}
		alg := proof.Signatures[0].Protected.Algorithm
		mu.Lock()
		algs = append(algs, alg)
		mu.Unlock()
		if alg != "PS256" {
			return "invalid_dpop_proof"
		}
		return ""
	}
	url, _ := protectedServer(t, as, "")
	err = connectAndCall(t, url, &client.OAuth{ClientID: "svc", ClientSecret: "s", ClientCredentials: true, DPoP: true, DPoPKey: key})
	mu.Lock()
	defer mu.Unlock()
	if err != nil || len(algs) == 0 || algs[0] != "PS256" {
		t.Fatalf("token request DPoP proof algs %v (server accepts only PS256); connect: %v", algs, err)
	}
}
