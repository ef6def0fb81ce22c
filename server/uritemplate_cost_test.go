package server

import (
	"strings"
	"testing"
	"time"
)

// README: templates are "matched by a regexp of the runtime's own, in time
// linear in the URI"; the preamble's rule is never a hang, and a request
// may carry 4 MiB. The regexp has one alternative per variable that may
// come first in an expression, each repeating the later variables, so an
// expression of n variables has O(n²) places and capture groups, and Go's
// NFA copies the captures of every thread at every character: a
// ten-variable expression {v0,…,v9} against a 2 MiB URI of list items
// ("a,a,a,…", which README reads as one list value) takes some 20–40 s of
// CPU (a 128 KiB URI ~2.4 s; five variables ~5–10 s at 2 MiB), where {name}
// takes ~0.5 s. One request pins a core for that long.
func TestTemplateManyVariablesMatchIsFast(t *testing.T) {
	m, err := compileURITemplate("x://h/{v0,v1,v2,v3,v4,v5,v6,v7,v8,v9}")
	if err != nil {
		t.Fatal(err)
	}
	uri := "x://h/" + strings.Repeat("a,", 1<<20) + "a"
	done := make(chan bool, 1)
	start := time.Now()
	go func() { _, ok := m.match(uri); done <- ok }()
	select {
	case ok := <-done:
		if !ok {
			t.Fatal("not matched")
		}
		t.Logf("matched in %v", time.Since(start))
	case <-time.After(5 * time.Second):
		t.Fatalf("matching a %d-byte URI against a ten-variable expression still running after 5 s", len(uri))
	}
}
