package server

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"strings"
)

// The requestState key ring. The first key seals every new requestState;
// every key of the ring opens one. Rotating keys across replicas without
// failing a request in flight is three deployments:
//
//  1. add the new key at the END of every replica's ring (all replicas
//     still seal with the old key, and every replica can open both);
//  2. once every replica runs with both, move the new key to the FRONT (new
//     states are sealed with it, old ones still open);
//  3. after Options.StateTTL has passed, drop the old key.
//
// MCPGEN_STATE_KEYS (see ParseStateKeys) carries the same ring to the
// examples and to servers made by `mcpgen init`: comma-separated base64.

// StateKeysEnv is the environment variable the examples and the scaffold
// read the key ring from.
const StateKeysEnv = "MCPGEN_STATE_KEYS"

// minStateKey is the shortest key accepted (128 bits).
const minStateKey = 16

// ParseStateKeys reads a key ring written as comma-separated base64 keys
// (standard or URL alphabet, padded or not), as in MCPGEN_STATE_KEYS; blanks
// around keys are ignored. An empty string is an empty ring. Each key must
// decode to at least 16 bytes (generate one with `openssl rand -base64 32`).
func ParseStateKeys(s string) ([][]byte, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var ring [][]byte
	for i, field := range strings.Split(s, ",") {
		field = strings.TrimSpace(field)
		key, err := decodeBase64Key(field)
		if err != nil {
			return nil, fmt.Errorf("state key %d: not base64: %v", i+1, err)
		}
		if len(key) < minStateKey {
			return nil, fmt.Errorf("state key %d: %d bytes; at least %d are required", i+1, len(key), minStateKey)
		}
		ring = append(ring, key)
	}
	return ring, nil
}

// decodeBase64Key accepts both base64 alphabets, with or without padding.
func decodeBase64Key(s string) ([]byte, error) {
	s = strings.TrimRight(s, "=")
	if strings.ContainsAny(s, "-_") {
		return base64.RawURLEncoding.DecodeString(s)
	}
	return base64.RawStdEncoding.DecodeString(s)
}

// stateRing is the ring of ciphers built from the configured keys; seal uses
// the first.
type stateRing struct {
	aeads      []cipher.AEAD
	configured bool // false: one random key of this process
}

// newStateRing builds the ring from Options.StateKeys (and the older single
// Options.StateKey, which goes first); with neither, one random key.
func newStateRing(single []byte, keys [][]byte) (stateRing, error) {
	var r stateRing
	if len(single) > 0 && len(single) < minStateKey {
		return r, errors.New("server: Options.StateKey must be at least 16 bytes")
	}
	for i, key := range keys {
		if len(key) < minStateKey {
			return r, fmt.Errorf("server: Options.StateKeys[%d] must be at least 16 bytes", i)
		}
	}
	var ring [][]byte
	if len(single) > 0 {
		ring = append(ring, single)
	}
	ring = append(ring, keys...)
	r.configured = len(ring) > 0
	if !r.configured {
		key := make([]byte, 32)
		if _, err := rand.Read(key); err != nil {
			return r, fmt.Errorf("server: generating a state key: %w", err)
		}
		ring = [][]byte{key}
	}
	for _, key := range ring {
		sum := sha256.Sum256(append([]byte("mcpgen requestState v1\x00"), key...))
		block, err := aes.NewCipher(sum[:])
		if err != nil {
			return r, fmt.Errorf("server: state cipher: %w", err)
		}
		aead, err := cipher.NewGCM(block)
		if err != nil {
			return r, fmt.Errorf("server: state cipher: %w", err)
		}
		r.aeads = append(r.aeads, aead)
	}
	return r, nil
}

// open tries the keys in ring order.
func (r stateRing) open(nonce, sealed, header []byte) ([]byte, error) {
	var err error
	for _, aead := range r.aeads {
		var plain []byte
		if plain, err = aead.Open(nil, nonce, sealed, header); err == nil {
			return plain, nil
		}
	}
	return nil, err
}

// warnUnkeyed says, once at start-up, that requestState is sealed with a
// key of this process only.
func (s *Server) warnUnkeyed(overHTTP bool) {
	if s.ring.configured {
		return
	}
	msg := "no requestState key configured (Options.StateKeys or " + StateKeysEnv + "): multi round-trip state will not survive a restart or cross replicas"
	if overHTTP {
		s.logger.Warn(msg)
	} else {
		s.logger.Info(msg)
	}
}

// StateKeysFromEnv returns the key ring in MCPGEN_STATE_KEYS (nil when the
// variable is unset or empty); errors name the variable.
func StateKeysFromEnv() ([][]byte, error) {
	ring, err := ParseStateKeys(os.Getenv(StateKeysEnv))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", StateKeysEnv, err)
	}
	return ring, nil
}
