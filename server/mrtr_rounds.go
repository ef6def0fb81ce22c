package server

import (
	"encoding/json"
	"sync"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// mrtrRounds is the multi round-trip state of a request that has any:
// inputResponses, a requestState, an Ask, a SetState, or an identity of its
// own (a user handler's decoded params, a task's round). Most requests
// have none, so it lives behind a pointer that is set the first time one
// of its fields is (request.roundsFor): 136 bytes the request struct does
// not carry, which (with its clientCapabilities in one value) took it from
// the 896-byte size class to the 704-byte one.
type mrtrRounds struct {
	// idName and idArgs are the identity the state is bound to when it
	// is not the request's scanned params (request.identityOf): a user
	// handler's decoded params, a task's tool and arguments.
	idName   string
	idArgs   []byte
	idGiven  bool
	answers  map[string]json.RawMessage // the raw inputResponses by key
	state    json.RawMessage            // verified state from requestState
	identity *identityCheck             // mrtr_fused.go

	mu       sync.Mutex // guards what follows: Ask and SetState may run on any goroutine
	newState json.RawMessage
	stateSet bool
	pending  map[string]mcp.InputRequest
}

// noRounds is what a request without multi round-trip state reads
// (rounds): never written.
var noRounds mrtrRounds

// rounds returns r's multi round-trip state for reading: a shared empty
// one when r has none. Its fields must not be written (roundsFor).
func (r *request) rounds() *mrtrRounds {
	if x := r.mrtr.Load(); x != nil {
		return x
	}
	return &noRounds
}

// roundsFor returns r's multi round-trip state for writing, made the first
// time (whoever makes it first, on any goroutine, wins: the others use it).
func (r *request) roundsFor() *mrtrRounds {
	if x := r.mrtr.Load(); x != nil {
		return x
	}
	x := new(mrtrRounds)
	if r.mrtr.CompareAndSwap(nil, x) {
		return x
	}
	return r.mrtr.Load()
}

// identityOf returns the tool or prompt name (resource URI) and the
// arguments a requestState of r is bound to: those prepareMRTR was given,
// which for a registry route are the scanned params r holds.
func (r *request) identityOf() (name string, args []byte) {
	if x := r.rounds(); x.idGiven {
		return x.idName, x.idArgs
	}
	if r.method == mcp.MethodResourcesRead {
		return r.params.uri, r.params.arguments
	}
	return r.params.name, r.params.arguments
}
