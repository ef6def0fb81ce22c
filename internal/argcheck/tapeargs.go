package argcheck

import (
	"bytes"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// emptyTape is the tape of absent or null arguments ({}); never released.
var emptyTape, _ = jsonscan.ParseTape([]byte(`{}`), 1)

// parseArgs parses a tool's arguments once: absent, empty and null are {};
// JSON whitespace only may surround them; a number literal beyond
// MaxNumberExponent or MaxNumberLength is refused. The caller releases the tape
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
	if p := numberLimitProblem(t); p != nil {
		t.Release()
		return nil, &ValidationError{Problems: []Problem{*p}}
	}
	return t, nil
}

func releaseArgs(t *jsonscan.Tape) {
	if t != emptyTape {
		t.Release()
	}
}

// validateTape validates the arguments on t as Validate does: nulls of
// optional properties dropped and defaults applied first (the decoder
// reads the tape itself, with the same shape rules).
func (v *Validator) validateTape(t *jsonscan.Tape) error {
	if v.native != nil {
		_, err := v.checkNative(t)
		return err
	}
	_, err := v.checkTape(t)
	return err
}

// checkNative runs the native checker on t with the shape's edits.
func (v *Validator) checkNative(t *jsonscan.Tape) (map[int]*objEdit, error) {
	edits := v.shape.edits(t)
	if probs := checkNative(v.native, t, edits); probs != nil {
		return nil, &ValidationError{Problems: probs}
	}
	return edits, nil
}

// checkTape validates the arguments parsed as t: the schema's shape drops
// nulls of optional properties and fills absent properties with their
// defaults, then the schema checks the result. When the shape changed
// nothing it returns nil: t is exactly what was validated; otherwise it
// returns the validated tree (map[string]any, []any, string, json.Number,
// bool, nil). A failure is a *ValidationError. The native checker sees
// the shape's changes as edits beside the tape and builds the tree only
// when there are some; santhosh-tekuri needs a tree built from the tape.
func (v *Validator) checkTape(t *jsonscan.Tape) (changed any, err error) {
	if v.native != nil {
		edits, err := v.checkNative(t)
		if err != nil || edits == nil {
			return nil, err
		}
		return valueOf(t, 0, edits, nil), nil
	}
	doc := t.Value(0)
	modified := v.shape.apply(doc)
	if probs := v.full.Validate(doc); probs != nil {
		return nil, &ValidationError{Problems: probs}
	}
	if !modified {
		return nil, nil
	}
	return doc, nil
}
