package argcheck

import (
	"bytes"
	"encoding/json"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// check is the arguments' path before the tape, for the oracles of the
// tape decoder: jsonscan.Tree, shape.apply on the tree; the verdict is
// Validate's (native or santhosh-tekuri). It returns the tree, the
// trimmed bytes and whether the tree differs from them.
func (v *Validator) check(args json.RawMessage) (any, json.RawMessage, bool, error) {
	if _, err := v.Validate(args); err != nil {
		return nil, nil, false, err
	}
	trimmed := bytes.Trim(args, " \t\r\n")
	var doc any = map[string]any{}
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		trimmed = json.RawMessage(`{}`)
	} else {
		var perr *jsonscan.SyntaxError
		if doc, perr = parse(trimmed); perr != nil {
			return nil, nil, false, perr // Validate accepted it: never
		}
	}
	changed := v.shape.apply(doc)
	return doc, trimmed, changed, nil
}
