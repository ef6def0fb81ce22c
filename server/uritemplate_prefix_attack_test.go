package server

import (
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// README: templates are "matched by a regexp of the runtime's own, in time
// linear in the URI", and "a prefix up to RFC 6570's 9999 is counted while
// matching"; the preamble's rule is never a hang, and a request may carry
// 4 MiB. A long prefix is now counted by atMost: blocks of 1000 copies of
// one character, so each count is a state of its own. When the prefix may
// start at many places ({b}.{a:9999}: b takes ".", so every "." of
// "a.a.a…" starts a), the NFA runs one thread per started count, up to
// 9999 side by side at every character: a 32 KiB URI takes ~20 s (16 KiB
// ~8.6 s; at 4 MiB, tens of minutes), where {b}.{a} takes milliseconds and
// the same template before the change (c1781d3, prefix matched as c+ and
// counted after) was linear too.
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

// The same counting makes the regexp program of {a:9999} some ten
// thousand copies of a character's states, and Go's regexp gives every
// match running at once a machine of queues as long as the program: one
// match of the 9-byte URI "x://h/a/b" allocates ~7 MB (two such prefixes
// ~14 MB; {a} 36 KB), so 64 concurrent reads of a tiny URI against a
// template with several long prefixes held ~1.7 GB at once. A client sets
// the concurrency; the template's author cannot bound it.
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

// README no longer warns that an expression's cost per character grows
// with its variables: the fix gave a simple, + or # expression one group
// for its whole values (runRegexp), and a . / ; & expression "one optional
// place per variable", which the comment says keeps the places few. Yet
// every place of {/v0*,…,v19*} may hold the current "a" of "/a/a/a…", so
// the NFA still runs all twenty side by side, copying the captures of
// each: a 4 MiB URI (the body limit) takes ~13 s (~2 s with five
// variables), where {v0,…,v19} takes ~0.3 s and {/v0*} ~0.08 s. The bar is
// the one TestTemplateManyVariablesMatchIsFast holds {v0,…,v9} to.
func TestTemplateManyPathVariablesMatchIsFast(t *testing.T) {
	var names []string
	for i := range 20 {
		names = append(names, "v"+strconv.Itoa(i)+"*")
	}
	m, err := compileURITemplate("x://h/{/" + strings.Join(names, ",") + "}")
	if err != nil {
		t.Fatal(err)
	}
	uri := "x://h/" + strings.Repeat("/a", 2<<20)
	done := make(chan bool, 1)
	go func() { _, ok := m.match(uri); done <- ok }()
	select {
	case ok := <-done:
		if !ok {
			t.Fatal("not matched")
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("matching a %d-byte URI against a twenty-variable path expression still running after 5 s", len(uri))
	}
}
