package client

import (
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

// A server whose listings name ever new tools must not grow the client's
// tool cache without bound.
func TestToolCacheBounded(t *testing.T) {
	var tc toolCache
	for round := range 3 {
		var b strings.Builder
		b.WriteString(`{"tools":[`)
		for i := range MaxListedTools / 2 {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"name":"r%d_%d","inputSchema":{"type":"object"}}`, round, i)
		}
		b.WriteString(`]}`)
		if _, err := tc.observe([]byte(b.String()), slog.Default()); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(tc.tools); n > MaxListedTools {
		t.Fatalf("the tool cache holds %d tools, past MaxListedTools %d", n, MaxListedTools)
	}
}
