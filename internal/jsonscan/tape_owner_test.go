package jsonscan

import (
	"strings"
	"testing"
	"unsafe"
)

// inData reports whether s's bytes are inside data (a view, not a copy).
func inData(s string, data []byte) bool {
	if len(s) == 0 || len(data) == 0 {
		return false
	}
	p, lo := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(&data[0]))
	return p >= lo && p < lo+uintptr(len(data))
}

func TestTextAliasesOnlyLargeStringsOfAnOwnedBuffer(t *testing.T) {
	big := strings.Repeat("x", 1000)
	data := []byte(`{"big":"` + big + `","small":"abc","esc":"` + strings.Repeat("y", 990) + `\n"}`)
	tape, perr := ParseKept(data, 10)
	if perr != nil {
		t.Fatal(perr)
	}
	member := func(tp *Tape, name string) int {
		v, ok := tp.Member(0, name)
		if !ok {
			t.Fatalf("no member %s", name)
		}
		return v
	}
	bigNode, smallNode, escNode := member(&tape, "big"), member(&tape, "small"), member(&tape, "esc")
	check := func(what string, tp *Tape, node int, wantAlias bool, want string) {
		t.Helper()
		got := tp.Text(node)
		if got != want {
			t.Fatalf("%s: text differs", what)
		}
		if tp.Aliasable(node) != wantAlias || inData(got, data) != wantAlias {
			t.Errorf("%s: Aliasable %v, a view of the message %v; want %v", what, tp.Aliasable(node), inData(got, data), wantAlias)
		}
	}
	check("not owned", &tape, bigNode, false, big)

	tape.SetOwner(len(data)) // big is 1000 of about 2040 bytes: not half
	check("owned, under half", &tape, bigNode, false, big)
	tape.SetOwner(2000)
	check("owned, half", &tape, bigNode, true, big)
	check("owned, small", &tape, smallNode, false, "abc")
	check("owned, escaped", &tape, escNode, false, strings.Repeat("y", 990)+"\n")

	sub := tape.Sub(0)
	if sub.Owner() != 2000 {
		t.Errorf("Sub's owner %d, want 2000", sub.Owner())
	}
	check("Sub view", &sub, member(&sub, "big"), true, big)

	tape.SetOwner(0)
	check("taken back", &tape, bigNode, false, big)
}

func TestReleaseForgetsTheOwner(t *testing.T) {
	data := []byte(`["` + strings.Repeat("z", 100) + `"]`)
	tp, perr := ParseTape(data, 10)
	if perr != nil {
		t.Fatal(perr)
	}
	tp.SetOwner(len(data))
	if !tp.Aliasable(tp.FirstElement(0)) {
		t.Fatal("the owned tape's string is not aliasable")
	}
	tp.Release() // back to the pool, for a later parse of other bytes
	if tp.owner != 0 {
		t.Errorf("a released tape keeps its owner %d", tp.owner)
	}
}
