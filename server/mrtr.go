package server

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"maps"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/internal/jsonscan"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// Multi round-trip requests (basic/patterns/mrtr.mdx). A handler calls Ask
// for every input it needs; unanswered ones make it return an
// *InputRequiredError, which the runtime answers with an InputRequiredResult.
// Handler state for the next round (SetState) travels in requestState,
// sealed with AES-256-GCM under a key derived from the first of Options.StateKeys (authenticated
// and secret) together with an expiry and
// a digest of the request's identity (method, tool/prompt name or resource
// URI, canonical arguments). Any replica with the same key continues the
// request; a tampered, expired or foreign requestState is answered with
// -32602.

// isMRTRMethod reports whether method is a request that may answer
// InputRequiredResult (a switch, not a map: it is asked on every request).
func isMRTRMethod(method string) bool {
	switch method {
	case mcp.MethodToolsCall, mcp.MethodPromptsGet, mcp.MethodResourcesRead:
		return true
	}
	return false
}

// mrtrInput are the multi round-trip fields of a request's params.
type mrtrInput struct {
	name  string
	args  []byte
	state string
}

// prepareMRTR reads inputResponses and verifies requestState, from the
// scanned params p (registry routes) or the decoded in (user handlers,
// whose inputResponses readAnswers has read from the scanned params before
// the dispatcher decoded the rest: routeHandlers).
func (r *request) prepareMRTR(p *requestParams, in *mrtrInput) *jsonrpc.Error {
	var state string
	if p != nil {
		answers, rerr := readAnswers(p.inputResponses)
		if rerr != nil {
			return rerr
		}
		if answers != nil {
			r.roundsFor().answers = answers
		}
		if p.stateGiven {
			if !p.hasState {
				return invalidParams("requestState must be a string")
			}
			state = p.requestState
		}
		if p != &r.params {
			// Not the params r holds, which identityOf reads.
			name := p.name
			if r.method == mcp.MethodResourcesRead {
				name = p.uri
			}
			r.giveIdentity(name, p.arguments)
		}
	} else {
		state = in.state
		r.giveIdentity(in.name, in.args)
	}
	r.mrtrAllowed = true
	if state != "" {
		_, args := r.identityOf()
		if p != nil && r.deferStateCheck(args) {
			// Opened now; its digest compared as the arguments are read
			// (mrtr_fused.go).
			opened, want, err := r.s.open(state)
			if err != nil {
				return invalidParams("requestState: " + err.Error())
			}
			r.roundsFor().identity = &identityCheck{pending: true, want: want, state: opened}
			return nil
		}
		verified, err := r.s.unseal(state, r.identityDigest())
		if err != nil {
			return invalidParams("requestState: " + err.Error())
		}
		r.roundsFor().state = verified
	}
	return nil
}

// giveIdentity records the identity a requestState of r is bound to when
// it is not r's scanned params (identityOf).
func (r *request) giveIdentity(name string, args []byte) {
	x := r.roundsFor()
	x.idName, x.idArgs, x.idGiven = name, args, true
}

// identityDigest returns the digest of the request identity a
// requestState is bound to: the request and the authenticated principal
// (mrtr.mdx: state presented by a different principal is rejected), the
// SHA-256 of identity's text, a zero byte and the principal. Large
// arguments are hashed as their canonical form is written, never held
// whole (identityDigestOf).
func (r *request) identityDigest() [sha256.Size]byte {
	if c := r.rounds().identity; c != nil && c.have {
		return c.digest // taken as the arguments were read (mrtr_fused.go)
	}
	principal := principalKey(r.ctx)
	name, args := r.identityOf()
	if t := r.argsTape(args); t != nil {
		buf := make([]byte, 0, len(r.method)+len(name)+len(args)+len(principal)+8)
		buf = append(appendIdentityTape(buf, r.method, name, t), 0)
		return sha256.Sum256(append(buf, principal...))
	}
	return identityDigestOf(r.method, name, args, r.argSpans(args), principal)
}

// argSpans are the large arrays of args as the check of the message r came
// in found them, when args are exactly its params.arguments; else unknown.
func (r *request) argSpans(args []byte) jsonscan.Spans {
	if a := r.params.arguments; len(args) == 0 || len(a) != len(args) || &a[0] != &args[0] {
		return jsonscan.Spans{}
	}
	return r.params.argsTape.Spans(0)
}

// The requestState format: version 2 seals the expiry in Unix
// milliseconds, so a StateTTL below a second holds; version 1 (whole Unix
// seconds) is still opened, with its resolution, so that rounds sealed
// before an upgrade continue.
const (
	sealVersion        = 2
	sealVersionSeconds = 1
	sealHeader         = 1 + 8 + sha256.Size // version, expiry, identity digest
	nonceSize          = 12
)

// seal returns the requestState token for state bound to identity:
// base64url(header ‖ nonce ‖ AES-256-GCM(state)), with the header (version,
// expiry, identity digest) as additional data, so the state is both secret
// and tamper-evident.
func (s *Server) seal(state []byte, digest [sha256.Size]byte) string {
	out := make([]byte, sealHeader+nonceSize, sealHeader+nonceSize+len(state)+s.ring.aeads[0].Overhead())
	out[0] = sealVersion
	binary.BigEndian.PutUint64(out[1:9], uint64(s.now().Add(s.stateTTL).UnixMilli()))
	copy(out[9:sealHeader], digest[:])
	if _, err := rand.Read(out[sealHeader:]); err != nil {
		panic("server: no randomness for a requestState nonce: " + err.Error())
	}
	out = s.ring.aeads[0].Seal(out, out[sealHeader:], state, out[:sealHeader])
	return base64.RawURLEncoding.EncodeToString(out)
}

// unseal verifies a requestState token, bound to the identity whose
// digest is given, and returns the state it carries.
func (s *Server) unseal(token string, digest [sha256.Size]byte) (json.RawMessage, error) {
	state, want, err := s.open(token)
	if err != nil {
		return nil, err
	}
	if digest != want {
		return nil, errOtherRequest
	}
	if len(state) == 0 {
		return nil, nil
	}
	return json.RawMessage(state), nil
}

// errOtherRequest refuses a requestState bound to another identity (the
// last of unseal's checks).
var errOtherRequest = errors.New("state belongs to a different request (method, name or arguments differ)")

// open is unseal but for the comparison of the identity digest: it checks
// the token's format, integrity and expiry, and returns the state and the
// digest it is bound to.
func (s *Server) open(token string) (state []byte, digest [sha256.Size]byte, err error) {
	raw, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil || len(raw) < sealHeader+nonceSize+s.ring.aeads[0].Overhead() ||
		(raw[0] != sealVersion && raw[0] != sealVersionSeconds) {
		return nil, digest, errors.New("malformed or tampered state")
	}
	header := raw[:sealHeader]
	state, err = s.ring.open(raw[sealHeader:sealHeader+nonceSize], raw[sealHeader+nonceSize:], header)
	if err != nil {
		return nil, digest, errors.New("integrity check failed (tampered, or sealed by a server with another key)")
	}
	now, expiry := s.now().UnixMilli(), int64(binary.BigEndian.Uint64(header[1:9]))
	if header[0] == sealVersionSeconds {
		now /= 1000
	}
	if now > expiry {
		return nil, digest, errors.New("state expired; start the request again")
	}
	copy(digest[:], header[9:sealHeader])
	return state, digest, nil
}

// inputRequired builds the InputRequiredResult for a handler that still
// needs input: the requests of every unanswered Ask of this round and the
// state to echo (the new one, else the one that came in). A request the
// client did not declare the capability for is -32021 (requireFor).
func (r *request) inputRequired(ire *InputRequiredError) (any, error) {
	reqs, err := r.openRequests(ire)
	if err != nil {
		return nil, err
	}
	x := r.roundsFor()
	x.mu.Lock()
	defer x.mu.Unlock()
	state := x.state
	if x.stateSet {
		state = x.newState
	}
	if len(reqs) == 0 && state == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "Internal error: the handler asked for input without input requests or state"}
	}
	res := &mcp.InputRequiredResult{ResultType: "input_required"}
	if len(reqs) > 0 {
		res.InputRequests = reqs
	}
	if state != nil {
		if r.seals != nil && !r.seals.Load() {
			r.seals.Store(true) // its next first rounds take the digest as they read (identityReader)
		}
		sealed := r.s.seal(state, r.identityDigest())
		res.RequestState = &sealed
	}
	return res, nil
}

// openRequests are the input requests a round leaves open: those of every
// unanswered Ask and those of the handler's own InputRequiredError, each
// checked like Ask's (requireFor: mrtr.mdx, servers MUST NOT send input
// requests the client has not declared support for).
func (r *request) openRequests(ire *InputRequiredError) (mcp.InputRequests, error) {
	x := r.roundsFor()
	x.mu.Lock()
	reqs := mcp.InputRequests{}
	maps.Copy(reqs, x.pending)
	x.mu.Unlock()
	for k, v := range ire.Requests {
		if v == nil {
			continue
		}
		if err := requireFor(r.ctx, v); err != nil {
			return nil, err
		}
		reqs[k] = v
	}
	return reqs, nil
}

// Ask returns the client's answer to an input request for this request (a
// multi round-trip request: elicitation, sampling or roots). When the client
// has not answered yet, it returns an *InputRequiredError: the handler
// returns it as its error and the runtime answers with InputRequiredResult.
// In a legacy session Ask instead sends the request to the client
// (elicitation/create, sampling/createMessage, roots/list) and blocks until
// the client answers or ctx ends; a request the session's revision cannot
// carry (legacy_ask.go) fails with -32603 and is not sent.
//
// key names the request within this request's rounds; the answer comes back
// under the same key. A handler may Ask several keys before returning: all
// unanswered ones go into one InputRequiredResult. A request of a kind the
// client did not declare (elicitation, sampling, roots in this request's
// clientCapabilities, down to the sub-capability: sampling.tools for a
// request with tools or toolChoice, sampling.context for includeContext
// "thisServer" or "allServers", elicitation.url for a URL-mode
// elicitation; see requireFor) is a -32021 error. The answer is decoded as
// the result of req, members it does not declare ignored; one that is not
// (or, for an accepted form elicitation, whose content does not match the
// requestedSchema) is a -32602 error. Ask is valid in tools/call,
// prompts/get and resources/read.
func Ask(ctx context.Context, key string, req mcp.InputRequest) (mcp.InputResponse, error) {
	r := requestFrom(ctx)
	if r == nil {
		return nil, errors.New("server.Ask: the context carries no MCP request")
	}
	if req == nil || key == "" {
		return nil, errors.New("server.Ask: key and request are required")
	}
	if !r.mrtrAllowed {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "Internal error: input requests are only allowed on tools/call, prompts/get and resources/read, not " + r.method}
	}
	if err := requireFor(ctx, req); err != nil {
		return nil, err
	}
	raw, answered := r.rounds().answers[key]
	if lc := legacyFrom(ctx); lc != nil && !answered {
		return lc.ask(ctx, key, req, r.w) // legacy session: a real request to the client
	}
	if answered {
		resp, err := decodeAnswer(req, raw)
		if err != nil {
			return nil, answerError(key, req, err)
		}
		return resp, nil
	}
	x := r.roundsFor()
	x.mu.Lock()
	if x.pending == nil {
		x.pending = map[string]mcp.InputRequest{}
	}
	x.pending[key] = req
	x.mu.Unlock()
	return nil, &InputRequiredError{Requests: map[string]mcp.InputRequest{key: req}}
}

func inputMethod(req mcp.InputRequest) string {
	switch req.(type) {
	case *mcp.ElicitRequest:
		return mcp.MethodElicitationCreate
	case *mcp.CreateMessageRequest:
		return mcp.MethodSamplingCreateMessage
	case *mcp.ListRootsRequest:
		return mcp.MethodRootsList
	}
	return fmt.Sprintf("%T", req)
}

// requireFor checks that the client declared the capability req needs,
// down to the sub-capability: url or form mode for an elicitation, and
// what samplingNeeds names for sampling.
func requireFor(ctx context.Context, req mcp.InputRequest) error {
	var need mcp.ClientCapabilities
	switch q := req.(type) {
	case *mcp.ElicitRequest:
		need.Elicitation = &mcp.ClientCapabilitiesElicitation{Form: mcp.JSONObject{}}
		if _, url := q.Params.(*mcp.ElicitRequestURLParams); url {
			need.Elicitation = &mcp.ClientCapabilitiesElicitation{URL: mcp.JSONObject{}}
		}
	case *mcp.CreateMessageRequest:
		need.Sampling = samplingNeeds(ctx, &q.Params)
	case *mcp.ListRootsRequest:
		need.Roots = &mcp.ClientCapabilitiesRoots{}
	default:
		return fmt.Errorf("server.Ask: unsupported input request %T", req)
	}
	return RequireCapabilities(ctx, need)
}

// samplingNeeds is the sampling capability a sampling request needs
// (client/sampling.mdx): sampling.tools when it carries tools or toolChoice
// ("Servers MUST NOT send tool-enabled sampling requests to Clients that
// have not declared support for tool use via the sampling.tools
// capability"), and sampling.context when it asks for the deprecated
// includeContext "thisServer" or "allServers", in the revisions that define
// that capability (2025-11-25 on; earlier ones had no such gate).
func samplingNeeds(ctx context.Context, p *mcp.CreateMessageRequestParams) *mcp.ClientCapabilitiesSampling {
	need := &mcp.ClientCapabilitiesSampling{}
	if p.Tools != nil || p.ToolChoice != nil {
		need.Tools = mcp.JSONObject{}
	}
	if p.IncludeContext == "thisServer" || p.IncludeContext == "allServers" {
		if v := ProtocolVersion(ctx); v == "" || v >= "2025-11-25" {
			need.Context = mcp.JSONObject{}
		}
	}
	return need
}

// State returns the requestState the handler stored in an earlier round
// (verified; nil when none); SetState stores state for the next round.
func State(ctx context.Context) json.RawMessage {
	if r := requestFrom(ctx); r != nil {
		return r.rounds().state
	}
	return nil
}

// SetState stores state (valid JSON) for the next round of this request: it
// is sealed into the requestState of the InputRequiredResult, so the client
// echoes it and any replica can continue. It fails outside tools/call,
// prompts/get and resources/read.
func SetState(ctx context.Context, state json.RawMessage) error {
	r := requestFrom(ctx)
	if r == nil || !r.mrtrAllowed {
		return errors.New("server.SetState: only tools/call, prompts/get and resources/read carry requestState")
	}
	if !json.Valid(state) {
		return errors.New("server.SetState: state is not valid JSON")
	}
	x := r.roundsFor()
	x.mu.Lock()
	x.newState = append(json.RawMessage(nil), state...)
	x.stateSet = true
	x.mu.Unlock()
	return nil
}

// deref is the requestState a request carries; this server never issues an
// empty one, so an empty or absent one carries no state.
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
