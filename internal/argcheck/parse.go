package argcheck

import (
	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// maxDepth bounds the nesting of arguments: deeper documents are
// rejected (encoding/json's own limit is 10000; a tool argument nested
// deeper than this is hostile, not useful).
const maxDepth = jsonscan.MaxArgumentsDepth

// parse decodes arguments into the one tree the schema validates and the
// tool's struct is bound from (jsonscan.Tree: exact names, a repeated
// member name rejected, numbers as json.Number), so every check and the
// handler see the same values.
func parse(data []byte) (any, *jsonscan.SyntaxError) {
	return jsonscan.Tree(data, maxDepth)
}
