package client_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// README (The Go client): "results with a repeated member refused";
// TestResultWithDuplicateMember: "A result that names a member twice is
// refused, not read by its last occurrence (which a proxy or another
// reader may see differently)". A member repeated inside structuredContent
// is read by its last occurrence: the call succeeds with {"approved":true}.
func TestAttackStructuredContentDuplicateMember(t *testing.T) {
	result := `{"content":[],"structuredContent":{"approved":false,"approved":true}}`
	tr := fakeHTTP(t, func(req wireRequest, w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, result)
	})
	res, err := connect(t, tr, nil).CallTool(context.Background(), &mcp.CallToolRequestParams{Name: "x"})
	if err == nil {
		t.Fatalf("accepted %s as %+v", result, res)
	}
}
