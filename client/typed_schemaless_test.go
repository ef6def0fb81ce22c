package client_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/mcpgen/mcpgen/client"
)

// Without an outputSchema, CallToolAs must still match members by their
// exact names and refuse duplicates.
func TestCallToolAsExactWithoutSchema(t *testing.T) {
	for _, sc := range []string{`{"SUM":5}`, `{"sum":1,"sum":5}`} {
		t.Run(sc, func(t *testing.T) {
			tr := fakeHTTP(t, func(req wireRequest, w http.ResponseWriter) {
				w.Header().Set("Content-Type", "application/json")
				switch req.Method {
				case "tools/list":
					fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"resultType":"complete","ttlMs":0,"cacheScope":"private","tools":[{"name":"add","inputSchema":{"type":"object"}}]}}`, req.ID)
				default:
					fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"resultType":"complete","content":[],"structuredContent":%s}}`, req.ID, sc)
				}
			})
			got, _, err := client.CallToolAs[sum](context.Background(), connect(t, tr, nil), "add", nil)
			if err == nil && got.Sum == 5 {
				t.Fatalf("structuredContent %s decoded into %+v", sc, got)
			}
		})
	}
}
