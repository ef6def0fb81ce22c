package server

import (
	"context"
	"encoding/json"

	"github.com/mcpgen/mcpgen/internal/argcheck"
	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// argsTape is the parse of args on the message ctx's request came in
// (see request.argsTape).
func argsTape(ctx context.Context, args []byte) *jsonscan.Tape {
	if len(args) == 0 {
		return nil
	}
	r := requestFrom(ctx)
	if r == nil {
		return nil
	}
	return r.argsTape(args)
}

// argsTape is the subtree of args on the message r came in (jsonrpc.Decode's
// one parse), when args are exactly r's params.arguments (the same bytes,
// not a copy: a task runs from a copy, and parses it); else nil.
func (r *request) argsTape(args []byte) *jsonscan.Tape {
	t := &r.params.argsTape
	if len(args) == 0 || t.Nodes() == 0 || t.Opaque(0) {
		return nil
	}
	if a := t.Raw(0); len(a) != len(args) || &a[0] != &args[0] {
		return nil
	}
	return t
}

// validateArgs is v.Validate(args), on the message's parse when ctx has it.
// Large arguments of a request that may want their identity digest
// (mrtr_fused.go) give it from the one parse of their validation, before
// its verdict; a requestState's comparison left for the reading is
// otherwise made first.
func validateArgs(ctx context.Context, v *argcheck.Validator, args json.RawMessage) (json.RawMessage, error) {
	if t := argsTape(ctx, args); t != nil {
		return v.ValidateTape(t)
	}
	if len(args) >= jsonscan.LazyMin() {
		if r := requestFrom(ctx); r != nil && (r.rounds().identity != nil || r.seals != nil) {
			if r.takesIdentity(args) {
				return v.ValidateRead(args, func(t *jsonscan.Tape) error { return r.settleIdentity(r.identityOfTape(t)) })
			}
			if rerr := r.settleState(); rerr != nil {
				return nil, stateError{rerr}
			}
		}
	}
	return v.Validate(args)
}

// typeDecoder is d.DecodeInto as an argsDecoder, on the message's parse
// when ctx has it; large arguments, only checked on that parse, are parsed
// here, as a view of the message's own buffer when it has one.
func typeDecoder(d *argcheck.TypeDecoder) argsDecoder {
	return func(ctx context.Context, args json.RawMessage, into any) error {
		if len(args) >= jsonscan.LazyMin() {
			if r := requestFrom(ctx); r != nil && (r.rounds().identity != nil || r.seals != nil) {
				return decodeForIdentity(ctx, r, d, args, into)
			}
		}
		if t := argsTape(ctx, args); t != nil {
			return d.DecodeTapeInto(t, into)
		}
		return d.DecodeFrom(args, argsSource(ctx, args), into)
	}
}

// decodeForIdentity is typeDecoder's decoding of large arguments of a
// request that may want their identity digest (mrtr_fused.go): from this
// reading when it can; a requestState's comparison left for the reading
// is otherwise made first.
func decodeForIdentity(ctx context.Context, r *request, d *argcheck.TypeDecoder, args json.RawMessage, into any) error {
	if ir := r.identityReader(args); ir != nil {
		defer ir.release()
		src := argsSource(ctx, args)
		src.Reader = ir
		err := d.DecodeFrom(args, src, into)
		if serr := ir.Done(false); serr != nil { // when DecodeFrom did not
			return serr
		}
		return err
	}
	if rerr := r.settleState(); rerr != nil {
		return stateError{rerr}
	}
	if t := r.argsTape(args); t != nil {
		return d.DecodeTapeInto(t, into)
	}
	return d.DecodeFrom(args, argsSource(ctx, args), into)
}

// argsSource is what is known of args as the params.arguments of the
// message ctx's request came in (the same bytes): the length of the
// message's own buffer (see requestParams.owner) and the large arrays its
// check found (requestParams.argSpans); else nothing.
func argsSource(ctx context.Context, args []byte) argcheck.Source {
	r := requestFrom(ctx)
	if r == nil || len(args) == 0 {
		return argcheck.Source{}
	}
	if a := r.params.arguments; len(a) != len(args) || &a[0] != &args[0] {
		return argcheck.Source{}
	}
	return argcheck.Source{Owner: r.params.owner, Spans: r.argSpans(args)}
}

// disownArgs stops the arguments of ctx's request from being decoded as a
// view of the message's buffer (argsOwner): a tool middleware is handed
// those bytes and may keep them, or rewrite them in place, after the tool
// decoded them.
func disownArgs(ctx context.Context) {
	if r := requestFrom(ctx); r != nil {
		r.params.owner = 0
		r.params.argsTape.SetOwner(0)
		r.argsLent = true
	}
}
