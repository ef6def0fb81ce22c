package server

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// A long prefix is matched by an unbounded class and counted after the
// match: {b}.{a:9999} against a 32 KiB URI where every "." may start a is
// matched in milliseconds. Counted inside the regexp (a state per count),
// it ran up to 9999 NFA threads side by side at each character: ~20 s.
func TestTemplateLongPrefixAfterAValueIsFast(t *testing.T) {
	m, err := compileURITemplate("x://h/{b}.{a:9999}")
	if err != nil {
		t.Fatal(err)
	}
	uri := "x://h/" + strings.Repeat("a.", 16<<10) + "a"
	done := make(chan bool, 1)
	go func() { _, ok := m.match(uri); done <- ok }()
	select {
	case ok := <-done:
		if !ok {
			t.Fatal("not matched")
		}
	case <-time.After(3 * time.Second):
		t.Fatalf("matching a %d-byte URI against {b}.{a:9999} still running after 3 s", len(uri))
	}
}

// A match against a template with a long prefix allocates little: Go's
// regexp gives every running match queues as long as the program, and a
// prefix counted in the regexp made {a:9999}'s some ten thousand copies of
// a character (~7 MB per match of a 9-byte URI, whatever many clients read
// at once).
func TestTemplateLongPrefixMatchMemoryIsSmall(t *testing.T) {
	m, err := compileURITemplate("x://h/{a:9999}")
	if err != nil {
		t.Fatal(err)
	}
	var ms runtime.MemStats
	runtime.GC()
	runtime.GC() // empties regexp's pool of machines
	runtime.ReadMemStats(&ms)
	before := ms.TotalAlloc
	if _, ok := m.match("x://h/a/b"); ok {
		t.Fatal("matched")
	}
	runtime.ReadMemStats(&ms)
	if n := ms.TotalAlloc - before; n > 1<<20 {
		t.Fatalf("one match of a 9-byte URI against {a:9999} allocated %d bytes", n)
	}
}
