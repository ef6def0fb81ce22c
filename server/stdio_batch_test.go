package server

import (
	"io"
	"strconv"
	"strings"
	"testing"
)

// TestStdioBatchedLines: lines that arrive in one write are read together
// (nextBatch) and each is still answered on its own, an over-long or
// malformed one among them included; a line whose end has not arrived yet
// does not hold back the answers to the whole lines read with it.
func TestStdioBatchedLines(t *testing.T) {
	f := newFixture(t)
	p := startStdio(t, f.s, 512)
	call := func(id int) string {
		return `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tools/call","params":` +
			withMeta(`{"name":"weather_current","arguments":{"location":"Paris"}}`, defaultMeta) + `}`
	}
	var chunk strings.Builder
	for id := 1; id <= 40; id++ {
		switch id {
		case 10:
			chunk.WriteString(`{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"x":"` + strings.Repeat("a", 600) + `"}}` + "\n")
		case 20:
			chunk.WriteString(`{"jsonrpc":"2.0","id":20,"method":` + "\n")
		case 30:
			chunk.WriteString("  \r\n\n")
		default:
			chunk.WriteString(call(id) + "\n")
		}
	}
	last := call(41)
	chunk.WriteString(last[:len(last)/2]) // no newline yet
	p.mu.Lock()
	_, err := io.WriteString(p.in, chunk.String())
	p.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	errs := 0
	for len(seen)+errs < 39 {
		m := p.next()
		if e, ok := m["error"].(map[string]any); ok {
			errs++
			if c := e["code"]; (c != -32600.0 || m["id"] != nil) && (c != -32700.0 || m["id"] != nil) {
				t.Errorf("error answer %v", m)
			}
			continue
		}
		id := idOf(m)
		if seen[id] || m["result"] == nil {
			t.Fatalf("answer %v (seen before: %v)", m, seen[id])
		}
		seen[id] = true
	}
	if len(seen) != 37 || errs != 2 {
		t.Fatalf("%d results and %d errors, want 37 and 2", len(seen), errs)
	}
	p.send(last[len(last)/2:])
	if m := p.next(); idOf(m) != "41" || m["result"] == nil {
		t.Fatalf("the line completed later: %v", m)
	}
}
