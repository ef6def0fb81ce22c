package natscluster

import (
	"bytes"
	"encoding/binary"
	"time"
)

// A value carries its record's expiry (server.TaskStore: a record expires
// at the time Create or Swap gives): "\x00e", the expiry in Unix
// milliseconds rounded up (8 bytes, big-endian), then the value proper (see
// taskStore). A record past its expiry is gone: Load reports it not found
// and deletes its key and object, and Create takes its id. A value without
// the prefix (written by an older release) expires with the bucket only.
//
// NATS cannot expire the key itself at that time (a per-message TTL needs
// the bucket's AllowMsgTTL and whole seconds, and the object store has
// none), so a record nobody reads after its expiry stays until the buckets'
// TTL (Options.TaskRetention), which bounds what the store holds.

// tagExpires starts a value that carries its record's expiry.
const tagExpires = 'e'

// expiresLen is the length of the expiry prefix.
const expiresLen = 2 + 8

// withExpiry returns value prefixed with expires.
func withExpiry(expires time.Time, value []byte) []byte {
	out := make([]byte, expiresLen, expiresLen+len(value))
	out[0], out[1] = tagged, tagExpires
	binary.BigEndian.PutUint64(out[2:], uint64(ceilMilli(expires)))
	return append(out, value...)
}

// ceilMilli is t in Unix milliseconds, rounded up: a record never reads
// as expired before its expiry.
func ceilMilli(t time.Time) int64 {
	ms := t.UnixMilli()
	if t.After(time.UnixMilli(ms)) {
		ms++
	}
	return ms
}

// splitExpiry returns the expiry a value carries (ok false when it
// carries none) and the value proper.
func splitExpiry(value []byte) (expires time.Time, rest []byte, ok bool) {
	if len(value) < expiresLen || !bytes.HasPrefix(value, []byte{tagged, tagExpires}) {
		return time.Time{}, value, false
	}
	ms := int64(binary.BigEndian.Uint64(value[2:expiresLen]))
	return time.UnixMilli(ms), value[expiresLen:], true
}

// expired reports whether value carries an expiry that has come.
func expired(value []byte) bool {
	expires, _, ok := splitExpiry(value)
	return ok && !time.Now().Before(expires)
}
