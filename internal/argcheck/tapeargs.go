package argcheck

import (
	"bytes"
	"errors"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// emptyTape is the tape of absent or null arguments ({}); never released.
var emptyTape, _ = jsonscan.ParseTape([]byte(`{}`), 1)

// parseArgs parses a tool's arguments once: absent, empty and null are {};
// JSON whitespace only may surround them. The caller releases the tape
// with releaseArgs.
func parseArgs(args []byte) (*jsonscan.Tape, error) {
	trimmed := bytes.Trim(args, " \t\r\n") // JSON whitespace only: "\v{}" is not JSON
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return emptyTape, nil
	}
	t, perr := jsonscan.ParseTape(trimmed, maxDepth)
	if perr != nil {
		return nil, &ValidationError{Problems: []Problem{{Keyword: "json", Message: "arguments are not valid JSON: " + perr.Error()}}}
	}
	return t, nil
}

func releaseArgs(t *jsonscan.Tape) {
	if t != emptyTape {
		t.Release()
	}
}

// validateTape validates the arguments on t as check does: nulls of
// optional properties dropped and defaults applied first. The schema
// library needs a tree, so it gets one built from the tape (the decoder
// reads the tape itself, with the same shape rules).
func (v *Validator) validateTape(t *jsonscan.Tape) error {
	doc := t.Value(0)
	v.shape.apply(doc)
	if err := v.schema.Validate(doc); err != nil {
		var ve *jsonschema.ValidationError
		if errors.As(err, &ve) {
			return &ValidationError{Problems: problemsOf(ve)}
		}
		return &ValidationError{Problems: []Problem{{Keyword: "schema", Message: err.Error()}}}
	}
	return nil
}
