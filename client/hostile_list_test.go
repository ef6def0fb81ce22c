package client_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// AllTools against a server whose cursors cycle (a, b, a, b, …) or never
// repeat must stop with an error early, not list 1000 pages.
func TestAllToolsHostilePagination(t *testing.T) {
	for _, tc := range []struct {
		name   string
		cursor func(page int) string
		want   string
	}{
		{"cycle", func(page int) string { return []string{"a", "b"}[page%2] }, "already"},
		{"endless", func(page int) string { return fmt.Sprintf("c%d", page) }, "more than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var pages atomic.Int64
			tr := fakeHTTP(t, func(req wireRequest, w http.ResponseWriter) {
				p := int(pages.Add(1))
				var tools strings.Builder
				for i := range 1000 {
					if i > 0 {
						tools.WriteByte(',')
					}
					fmt.Fprintf(&tools, `{"name":"t%d_%d","inputSchema":{"type":"object"}}`, p, i)
				}
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"resultType":"complete","ttlMs":0,"cacheScope":"private","tools":[%s],"nextCursor":%q}}`,
					req.ID, tools.String(), tc.cursor(p))
			})
			c := connect(t, tr, nil)
			_, err := c.AllTools(context.Background())
			if err == nil {
				t.Fatal("AllTools succeeded")
			}
			wantErr(t, err, tc.want)
			if n := pages.Load(); n > 200 {
				t.Fatalf("AllTools fetched %d pages (%d tools) before giving up", n, n*1000)
			}
		})
	}
}
