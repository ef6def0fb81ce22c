package server

import (
	"bytes"
	"context"
	"hash/maphash"
)

// argsSeed keys the digest of arguments handed to a tool middleware.
var argsSeed = maphash.MakeSeed()

// argsDigest is the digest of args when they are the arguments on the
// message's one parse (argsTape), taken before a tool middleware sees
// them; ok is false otherwise.
func argsDigest(ctx context.Context, args []byte) (sum uint64, ok bool) {
	if argsTape(ctx, args) == nil {
		return 0, false
	}
	return maphash.Bytes(argsSeed, args), true
}

// middlewareArgs are the arguments a middleware passed next, made safe to
// validate and decode: when they are still the slice of the message's
// parse (same bytes, same length) but a middleware rewrote their bytes in
// place (append(args[:0], …)), that parse no longer describes them, so
// they are copied and parsed afresh instead of being read through a tape
// of other bytes (a validator checking one value while the tool gets
// another).
func middlewareArgs(ctx context.Context, args []byte, sum uint64, summed bool) []byte {
	if summed && argsTape(ctx, args) != nil && maphash.Bytes(argsSeed, args) != sum {
		return bytes.Clone(args)
	}
	return args
}
