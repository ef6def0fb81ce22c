package server

import (
	"hash/maphash"
	"sync/atomic"
)

// maxInterned is the longest name internName keeps (a tool name's limit,
// ValidToolName).
const maxInterned = 128

// internedNames are the names requests carried most recently, one per
// slot by hash: a request naming the same tool (or prompt) as an earlier
// one gets that string instead of a copy of its bytes. A slot holds the
// last name that hashed to it, so the table's size is fixed whatever the
// names requests send.
var internedNames [256]atomic.Pointer[string]

var internSeed = maphash.MakeSeed()

// internName is string(b), shared with the earlier requests that carried
// the same name.
func internName(b []byte) string {
	if len(b) == 0 || len(b) > maxInterned {
		return string(b)
	}
	slot := &internedNames[maphash.Bytes(internSeed, b)%uint64(len(internedNames))]
	if s := slot.Load(); s != nil && *s == string(b) {
		return *s
	}
	s := string(b)
	slot.Store(&s)
	return s
}
