package argcheck

import (
	"encoding/json"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// tape is the one parse of a document the native checker walks.
type tape = jsonscan.Tape

const (
	kindNull   = jsonscan.KindNull
	kindFalse  = jsonscan.KindFalse
	kindTrue   = jsonscan.KindTrue
	kindNumber = jsonscan.KindNumber
	kindString = jsonscan.KindString
	kindArray  = jsonscan.KindArray
	kindObject = jsonscan.KindObject
)

type tapeKind = jsonscan.NodeKind

// tapeOf puts a schema value (a default) on a tape of its own, kept for
// the validator's lifetime (never released).
func tapeOf(v any) *tape {
	b, err := json.Marshal(v)
	if err != nil {
		panic("argcheck: a schema value does not encode: " + err.Error())
	}
	t, perr := jsonscan.ParseTape(b, 1<<20)
	if perr != nil {
		panic("argcheck: a schema value does not parse: " + perr.Error())
	}
	return t
}
