package server

import (
	"crypto/sha256"
	"maps"
	"slices"

	"github.com/mcpgen/mcpgen/internal/jsonenc"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// The identity of a multi round-trip prompts/get with large arguments,
// taken from their one reading.
//
// A prompt's arguments are an object of strings (promptArguments), so
// their canonical form (identity: members sorted by name, strings as
// encoding/json writes them) is written from the map promptArguments
// decoded, without a parse of their bytes for it. prepareMRTR leaves the
// comparison of a requestState's digest to promptRegistry.get
// (deferStateCheck), which reads the arguments first and compares before
// anything else: an error of the name or of the arguments, Options.Visible,
// the prompt. Arguments that promptArguments refuses take
// identityDigest's own digest, so a state of another request is refused
// first, as before.

// settlePromptState compares the requestState prepareMRTR opened with the
// digest of args, when decoded is set the arguments of r as
// promptArguments read them, else with identityDigest's.
func (r *request) settlePromptState(args map[string]string, decoded bool) *jsonrpc.Error {
	var sum [sha256.Size]byte
	if decoded {
		name, _ := r.identityOf()
		sum = promptIdentity(r.method, name, args, principalKey(r.ctx))
		fusedDigests.Add(1)
	} else {
		sum = r.identityDigest()
	}
	return r.checkState(sum, true)
}

// promptIdentity is identityDigestOf(method, name, args' JSON, principal)
// for args, an object of strings: identity's text written from the map and
// hashed as it is written.
func promptIdentity(method, name string, args map[string]string, principal string) [sha256.Size]byte {
	h := sha256.New()
	dst := make([]byte, 0, 2*canonicalFlush)
	dst = append(append(append(append(dst, method...), 0), name...), 0)
	dst = append(dst, '{')
	for k, name := range slices.Sorted(maps.Keys(args)) {
		if k > 0 {
			dst = append(dst, ',')
		}
		dst = append(jsonenc.AppendStringText(dst, name), ':')
		dst = jsonenc.AppendStringText(dst, args[name])
		if len(dst) >= canonicalFlush {
			h.Write(dst)
			dst = dst[:0]
		}
	}
	h.Write(append(append(append(dst, '}'), 0), principal...))
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}
