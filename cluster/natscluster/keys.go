package natscluster

import (
	"crypto/sha256"
	"encoding/hex"
)

// Keys of the buckets. A task id or replica name becomes part of a NATS
// subject ($KV.<bucket>.<key>, and the direct-get subject around it), so the
// store must never use one the NATS server or nats.go would refuse: a key
// longer than the server's control line (4096 bytes: the server answers
// "maximum control line exceeded" and nats.go closes the connection for
// good) or with a character outside [-/_=.a-zA-Z0-9] (nats.go refuses it,
// and "." or "*" would change the subject's meaning).
//
// storeKey keeps a short name made of letters, digits, "-" and "_" (every
// id the runtime generates) as it is and stores any other as "h=" and the
// hex SHA-256 of the name: "=" never occurs in a kept name, so the two forms
// never meet, and distinct names share a key only if SHA-256 collides.

// maxPlainKey is the longest name storeKey keeps as it is.
const maxPlainKey = 64

// hashedKeyPrefix starts the key of a name that is not kept as it is.
const hashedKeyPrefix = "h="

// storeKey returns the bucket key of a task id or replica name.
func storeKey(name string) string {
	if plainKey(name) {
		return name
	}
	sum := sha256.Sum256([]byte(name))
	return hashedKeyPrefix + hex.EncodeToString(sum[:])
}

// plainKey reports whether name is kept as its own key.
func plainKey(name string) bool {
	if name == "" || len(name) > maxPlainKey {
		return false
	}
	for i := range len(name) {
		c := name[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}
