package oauth

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"strings"
	"testing"

	jose "github.com/go-jose/go-jose/v4"
)

// TestJWKSReadsExactMemberNames: a JWKS is read as the authorization
// server's other documents are (decodeObject): member names are
// case-sensitive (RFC 8259 §8.3; RFC 7517 §5 names the member "keys"),
// so a set under "Keys" holds no key, and a set naming "keys" twice is
// refused rather than read by its last value, as encoding/json did.
func TestJWKSReadsExactMemberNames(t *testing.T) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	jwk, err := json.Marshal(jose.JSONWebKey{Key: &key.PublicKey, KeyID: "k1", Algorithm: "ES256", Use: "sig"})
	if err != nil {
		t.Fatal(err)
	}
	if keys, err := usableKeys([]byte(`{"keys":[` + string(jwk) + `]}`)); err != nil || len(keys) != 1 {
		t.Fatalf(`{"keys":[key]}: %d keys, %v; want the key`, len(keys), err)
	}
	if keys, err := usableKeys([]byte(`{"Keys":[` + string(jwk) + `]}`)); err != nil || len(keys) != 0 {
		t.Errorf(`{"Keys":[key]}: %d keys, %v; want none ("Keys" is not "keys")`, len(keys), err)
	}
	if keys, err := usableKeys([]byte(`{"keys":[],"keys":[` + string(jwk) + `]}`)); err == nil || !strings.Contains(err.Error(), "repeated") {
		t.Errorf(`a JWKS naming "keys" twice: %d keys, %v; want an error saying the member is repeated`, len(keys), err)
	}
}
