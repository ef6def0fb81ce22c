package generator

import "strings"

// appendCheckStub stands in for jsonappend.go when the output is
// type-checked: generated code uses only these declarations, and the
// file itself is compiled and tested once, as internal/support (it needs
// reflect and more of the standard library than the stubs declare).
// Building generated/mcp checks the signatures against the real file.
const appendCheckStub = `package support

import "encoding/json"

type encodeDepth struct{ n uint }

func appendJSONAt(dst []byte, v any, d encodeDepth) ([]byte, error) { return dst, nil }

func appendExtraAt(dst []byte, start int, extra map[string]json.RawMessage, declared ...string) ([]byte, error) {
	return dst, nil
}
`

// withAppendStub returns files with jsonappend.go replaced by its stub.
func withAppendStub(files []File, pkg string) []File {
	out := make([]File, len(files))
	for i, f := range files {
		if f.Name == "jsonappend.go" {
			f = File{Name: f.Name, Content: []byte(strings.Replace(appendCheckStub, "package support", "package "+pkg, 1))}
		}
		out[i] = f
	}
	return out
}
