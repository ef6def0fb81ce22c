package httpwire

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// MirrorParams sets the Mcp-Param-{Name} headers a client sends with a
// tools/call ("Client Behavior": extract the value at each annotated
// property's exact path, omit the header when the value is absent or null,
// send integers in decimal and booleans as true/false, and Base64-encode
// values that are not plain ASCII). rawArgs is the call's params.arguments,
// read with the same scanner the server checks it with.
func MirrorParams(h http.Header, decls []ParamHeader, rawArgs []byte) error {
	for _, d := range decls {
		body, dup := argValue(rawArgs, d.Path)
		if dup {
			return fmt.Errorf("the arguments repeat a member on the path of %q", strings.Join(d.Path, "."))
		}
		if body == nil {
			continue
		}
		var s string
		switch jsonscan.Kind(body) {
		case '"':
			v, ok := jsonscan.String(body)
			if !ok {
				return errors.New("argument " + strings.Join(d.Path, ".") + " is not a valid JSON string")
			}
			s = v
		case 't', 'f', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			s = string(body)
		default:
			return fmt.Errorf("argument %s for header %s is not a %s", strings.Join(d.Path, "."), d.HeaderKey(), d.Type)
		}
		h.Set(d.HeaderKey(), EncodeHeaderValue(s))
	}
	return nil
}
