package argcheck

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// argsOnTape is parseArgs for arguments already parsed: node 0 of args, a
// tool's arguments on the one parse of the message they came in
// (jsonrpc.Decode's, whose nesting limit is maxDepth two levels down; a
// Sub view of it), so they are not parsed again. null is {}; the number
// limits apply as in parseArgs.
func argsOnTape(args *jsonscan.Tape) (*jsonscan.Tape, error) {
	if args.Kind(0) == jsonscan.KindNull {
		return emptyTape, nil
	}
	if p := numberLimitProblem(args); p != nil {
		return nil, &ValidationError{Problems: []Problem{*p}}
	}
	return args, nil
}

// ValidateTape is [Validator.Validate] for arguments already parsed: node
// 0 of args (see argsOnTape). The result aliases args.Data when nothing
// had to change.
func (v *Validator) ValidateTape(args *jsonscan.Tape) (json.RawMessage, error) {
	t, err := argsOnTape(args)
	if err != nil {
		return nil, err
	}
	return v.validateParsed(t)
}

// DecodeTapeInto is [TypeDecoder.DecodeInto] for arguments already
// parsed: node 0 of args (see argsOnTape).
func (d *TypeDecoder) DecodeTapeInto(args *jsonscan.Tape, into any) error {
	rv := reflect.ValueOf(into)
	if rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Type().Elem() != d.t {
		return fmt.Errorf("argcheck: DecodeInto needs a non-nil *%s, got %T", d.t, into)
	}
	t, err := argsOnTape(args)
	if err != nil {
		return err
	}
	return d.decodeParsed(t, rv)
}
