package server

import (
	"crypto/sha256"
	"hash"
	"iter"
	"sync/atomic"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/internal/argcheck"
	"github.com/mcpgen/mcpgen/internal/jsonscan"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// The identity of a multi round-trip tools/call with large arguments,
// taken from the decoder's one reading of them.
//
// Arguments of a tools/call large enough to hold an array of
// jsonscan.LazyArrayMin bytes are parsed lazily, their large arrays a
// window at a time, by the decoder (argcheck.TypeDecoder.DecodeFrom), and
// the identity digest of the request (identityDigestOf) needs every byte
// of them too. Instead of a second reading of the windows, the decoder
// shows its reading to an identityReader (argcheck.LazyReader), which
// hashes the canonical form as it goes: the rest of the arguments written
// by a canonicalizer that stops at each lazy array (a coroutine), each
// array's elements written as the decoder's windows hold them. The text
// hashed is the same, byte for byte, so the digest is identityDigestOf's;
// whenever the reading is not complete (a lazy array read out of the
// canonical order, a window given up, arguments parsed whole) the digest
// is identityDigestOf's own, taken then.
//
// A tool with a json.RawMessage In has its arguments parsed whole by
// their validation (argcheck.Validator.ValidateRead): the digest is taken
// from that tape, before the validation's verdict (validateArgs).
//
// When the request carries a requestState, prepareMRTR opens it (format,
// integrity, expiry: their errors come first as before) and leaves only
// the comparison of its digest to the decoder's reading (identityCheck),
// on the one path where nothing observable happens between: a registered
// tool, found, its scopes granted, its arguments an object, run in the
// request rather than as a task (toolImpl.runsInline: no task support, or
// optional support and a request that does not declare tasks), no
// middleware, a decoder or validator of its own In (toolImpl.readsArgs;
// toolRegistry.call decides, and checks at once on any other path). The
// reader's Done compares before the decoder returns any verdict and
// before any Unmarshaler runs (the decoder's contract), so a state of
// another request is refused with the same error, in the same place of
// the precedence (before the arguments' own problems), and user code
// never sees arguments whose state was refused. Options.Visible, which
// comes before the arguments, is asked right after the comparison agrees
// (identityCheck.then): a tool it hides is Unknown, after a state of
// another request and before anything of the arguments, as before.
//
// Without a requestState, the digest is needed only if the tool seals a
// state (inputRequired): a tool that has sealed one before has its first
// rounds' digest taken as they are read (toolImpl.seals); any other
// computes it at the seal as before.

// fuseIdentity switches the reading's identity on (off for the tests that
// compare against the separate reading).
var fuseIdentity = true

// fusedDigests counts the digests taken from a reading (for the tests).
var fusedDigests atomic.Int64

// identityCheck is the multi round-trip identity state of a request with
// large arguments: the requestState opened and its digest still to compare
// (pending), or the digest already taken (have).
type identityCheck struct {
	pending bool
	want    [sha256.Size]byte // the opened requestState's digest
	state   []byte            // and its state
	// then is what must come after the comparison and before anything
	// else, when it agrees (a tool's Options.Visible: toolRegistry.call).
	then   func() *jsonrpc.Error
	have   bool
	digest [sha256.Size]byte // identityDigest's
}

// deferStateCheck reports whether prepareMRTR may leave the comparison of
// an opened requestState's digest to the reading of args (see above and
// mrtr_prompt.go): a tools/call or prompts/get of the registries with
// arguments too large for the message's own parse.
func (r *request) deferStateCheck(args []byte) bool {
	return fuseIdentity && (r.method == mcp.MethodToolsCall || r.method == mcp.MethodPromptsGet) && len(args) >= jsonscan.LazyMin() &&
		r.argsTape(args) == nil && r.params.argsTape.Nodes() > 0
}

// checkState compares the digest of the requestState prepareMRTR opened
// with digest; the request's state when they agree. keep: digest is the
// reading's, kept for a seal (nothing else has been lent the arguments).
func (r *request) checkState(digest [sha256.Size]byte, keep bool) *jsonrpc.Error {
	c := r.rounds().identity
	c.pending = false
	if digest != c.want {
		return invalidParams("requestState: " + errOtherRequest.Error())
	}
	c.have, c.digest = keep, digest
	if len(c.state) > 0 {
		r.roundsFor().state = c.state
	}
	if then := c.then; then != nil {
		c.then = nil
		return then()
	}
	return nil
}

// settleState makes the comparison a requestState's opening left for the
// reading now, from identityDigest's own reading (any path but the one
// the reading decides: see toolRegistry.call).
func (r *request) settleState() *jsonrpc.Error {
	if r == nil || r.rounds().identity == nil || !r.rounds().identity.pending {
		return nil
	}
	return r.checkState(r.identityDigest(), false)
}

// stateError is a requestState's refusal found as the arguments were read:
// the tool's run answers it as the JSON-RPC error it is.
type stateError struct{ err *jsonrpc.Error }

func (e stateError) Error() string { return e.err.Error() }

// takesIdentity reports whether r's identity digest is to be taken from
// the reading of args, and prepares its identity check (mrtrRounds.identity) for it: args must be r's
// own arguments (the message's bytes, which nothing else was lent), large,
// and the digest wanted — a requestState to compare, or a tool that seals
// states.
func (r *request) takesIdentity(args []byte) bool {
	if r == nil || !fuseIdentity || !r.mrtrAllowed || r.method != mcp.MethodToolsCall || r.argsLent {
		return false
	}
	if _, idArgs := r.identityOf(); len(args) < jsonscan.LazyMin() || len(idArgs) != len(args) || &idArgs[0] != &args[0] {
		return false
	}
	if a := r.params.arguments; len(a) != len(args) || &a[0] != &args[0] || r.argsTape(args) != nil {
		return false
	}
	switch c := r.rounds().identity; {
	case c != nil && c.pending:
	case c != nil && c.have:
		return false
	case r.seals == nil || !r.seals.Load():
		return false
	default:
		r.roundsFor().identity = &identityCheck{}
	}
	return true
}

// identityReader returns the reader that takes r's identity digest from
// the decoding of args, or nil (takesIdentity).
func (r *request) identityReader(args []byte) *identityReader {
	if !r.takesIdentity(args) {
		return nil
	}
	return &identityReader{r: r}
}

// settleIdentity settles r's identity (takesIdentity) with sum, the
// digest of a reading when ok, else identityDigest's own: a pending
// requestState compared (its refusal a stateError), else sum kept for the
// seal.
func (r *request) settleIdentity(sum [sha256.Size]byte, ok bool) error {
	c := r.rounds().identity
	if !c.pending {
		if ok {
			c.have, c.digest = true, sum
		}
		return nil
	}
	if !ok {
		sum = r.identityDigest()
	}
	if rerr := r.checkState(sum, true); rerr != nil {
		return stateError{rerr}
	}
	return nil
}

// identityOfTape is the identity digest of r's arguments from t, their
// one parse (argcheck.Validator.ValidateRead); false when there is none
// (t nil) or its canonical form fails.
func (r *request) identityOfTape(t *jsonscan.Tape) ([sha256.Size]byte, bool) {
	if t == nil || t.Nodes() == 0 {
		return [sha256.Size]byte{}, false
	}
	name, _ := r.identityOf()
	sum, ok := hashIdentity(r.method, name, t, principalKey(r.ctx))
	if ok {
		fusedDigests.Add(1)
	}
	return sum, ok
}

// identityReader is an argcheck.LazyReader hashing the canonical form of
// the arguments as the decoder reads them (see above).
type identityReader struct {
	r    *request
	h    hash.Hash
	next func() (int, bool) // the canonicalizer of the rest: the next lazy array it stops at
	stop func()
	dst  []byte // canonical form not hashed yet (the coroutine's too while it waits)
	// members is the element canonicalizer's scratch.
	members []canonicalMember
	hole    int  // the lazy array being read
	open    bool // between its ArrayStart and ArrayEnd
	first   bool // no element of it yet
	ended   bool // the coroutine wrote all and the principal
	failed  bool // the reading is not the canonical order: identityDigestOf's own
	done    bool
}

// Start begins the canonical form of t (identityDigestOf's text: method,
// name, the arguments), in a coroutine that stops at each lazy array.
func (ir *identityReader) Start(t *jsonscan.Tape) {
	if ir.next != nil || ir.done || t.Nodes() == 0 || t.LazyArrays() == nil {
		ir.failed = true
		return
	}
	r := ir.r
	ir.h = sha256.New()
	ir.dst = make([]byte, 0, 2*canonicalFlush)
	principal := principalKey(r.ctx)
	idName, _ := r.identityOf()
	ir.next, ir.stop = iter.Pull(func(yield func(int) bool) {
		defer func() {
			if v := recover(); v != nil && v != (abortCanonical{}) {
				panic(v)
			}
		}()
		dst := append(append(append(append(ir.dst, r.method...), 0), idName...), 0)
		c := canonicalizer{t: t, h: ir.h, hole: func(dst []byte, i int) []byte {
			ir.dst = dst // the elements go on from here
			if !yield(i) {
				// Stopped (release): t may be released already; leave
				// without another look at it.
				panic(abortCanonical{})
			}
			return ir.dst
		}}
		dst = c.value(dst, 0)
		if c.failed {
			return
		}
		ir.h.Write(append(append(dst, 0), principal...))
		ir.ended = true
	})
}

// abortCanonical unwinds the coroutine of a stopped identityReader.
type abortCanonical struct{}

// ArrayStart: lazy array i is read; it must be the next the canonical form
// stops at.
func (ir *identityReader) ArrayStart(i int) {
	if ir.failed || ir.open || ir.next == nil {
		ir.failed = true
		return
	}
	hole, ok := ir.next()
	if !ok || hole != i {
		ir.failed = true
		return
	}
	ir.hole, ir.open, ir.first = i, true, true
	ir.dst = append(ir.dst, '[')
}

// Element writes element e of window wt, as canonicalizer.lazyArray does.
func (ir *identityReader) Element(wt *jsonscan.Tape, e int) {
	if ir.failed || !ir.open {
		ir.failed = true
		return
	}
	if !ir.first {
		ir.dst = append(ir.dst, ',')
	}
	ir.first = false
	c := canonicalizer{t: wt, members: ir.members, h: ir.h}
	ir.dst = c.flush(c.value(ir.dst, e))
	ir.members = c.members[:0]
}

// ArrayEnd closes lazy array i; the coroutine goes on after it at the next
// ArrayStart or at Done.
func (ir *identityReader) ArrayEnd(i int) {
	if ir.failed || !ir.open || i != ir.hole {
		ir.failed = true
		return
	}
	ir.open = false
	ir.dst = append(ir.dst, ']')
}

// Done finishes the digest (identityDigest's own when the reading was not
// complete) and settles the request's identity with it: a pending
// requestState compared (its refusal the decoder's result), else kept for
// the seal.
func (ir *identityReader) Done(complete bool) error {
	if ir.done {
		return nil
	}
	ir.done = true
	var sum [sha256.Size]byte
	ok := false
	if complete && !ir.failed && !ir.open && ir.next != nil {
		if _, more := ir.next(); !more && ir.ended {
			ir.h.Sum(sum[:0])
			ok = true
			fusedDigests.Add(1)
		}
	}
	ir.release()
	return ir.r.settleIdentity(sum, ok)
}

// release stops the coroutine (it waits at a lazy array, or has ended).
func (ir *identityReader) release() {
	if ir.stop != nil {
		ir.stop()
		ir.stop, ir.next = nil, nil
	}
}

var _ argcheck.LazyReader = (*identityReader)(nil)
