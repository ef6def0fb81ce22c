package client_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// A result that names a member twice is refused, not read by its last
// occurrence (which a proxy or another reader may see differently).
func TestResultWithDuplicateMember(t *testing.T) {
	for _, result := range []string{
		`{"content":[],"content":[{"type":"text","text":"second"}]}`,
		`{"resultType":"input_required","resultType":"complete","content":[]}`,
		`{"content":[{"type":"text","text":"a","text":"b"}]}`,
		`{"content":[],"x-extra":1,"x-extra":2}`,
	} {
		t.Run(result, func(t *testing.T) {
			tr := fakeHTTP(t, func(req wireRequest, w http.ResponseWriter) {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, result)
			})
			res, err := connect(t, tr, nil).CallTool(context.Background(), &mcp.CallToolRequestParams{Name: "x"})
			if err == nil {
				t.Fatalf("accepted as %+v", res)
			}
			wantErr(t, err, "duplicate member")
		})
	}
}
