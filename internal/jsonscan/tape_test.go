package jsonscan

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

var tapeSeeds = append([]string{
	`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"a":11}`,
	`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"\u0061":11}`,
	`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11}`,
	"{\"\xff\":1,\"\xfe\":2}", `{"a":{"b":[1,2,{"c":"\n"}]},"d":[]}`, `[[],{},[[]],{"":{}}]`,
	`{"x":1,"x":{` + strings.Repeat("[", 3), `{"":"","":0`,
	`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":{}},"j":1,"a":2}`,
	`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"a":{}},"j":1}`,
	`[{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9},{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"i":0}]`, `"\ud800\u12g4"`, `"\\"`, `"a\u00e9\ud83d\ude00b"`,
	// Names equal as text but not as bytes, names of one length (the metas
	// tell them apart only by length), strings ending at and around the
	// eight-byte blocks skipPlain reads.
	`{"a":1,"\u0061":2}`, `{"\u0061":1,"a":2}`, "{\"\xff\":1,\"\ufffd\":2}", "{\"\ufffd\":1,\"\xff\":2}", `{"é":1,"\u00e9":2}`, "{\"\xc3\xa9\":1,\"\xc3\":2}",
	`{"ab":1,"ba":2,"ab":3}`, `{"abcdefgh":1,"abcdefgi":2,"abcdefgh":3}`, `{"abcdefg":1,"abcdefgh":2,"abcdefghi":3,"abcdefgh\u0069":4}`,
	`"abcdefg"`, `"abcdefgh"`, `"abcdefghijklmno"`, `"abcdefghijklmnop"`, `"abcdefgh`, `"abcdefg\"`, `"abcdefgh\n"`, "\"abcdefg\x7f\"", "\"abcdefg\x80\"", "\"abcdefgh\x01\"",
	`["abcdefg","abcdefgh",{"abcdefgh":"abcdefgh"}]`, `{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"aa":8,"\u0061a":9}`,
}, treeSeeds...)

func TestTapeMatchesTree(t *testing.T) {
	for _, s := range tapeSeeds {
		checkTape(t, []byte(s))
	}
}

// FuzzTape checks ParseTape against Tree (and through checkTree, Tree
// against encoding/json): the same documents accepted, the same error
// (message, offset, repeated name), the same values, and a consistent tape.
func FuzzTape(f *testing.F) {
	for _, s := range tapeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkTape(t, data) })
}

func checkTape(t *testing.T, data []byte) {
	t.Helper()
	checkTree(t, data)
	tree, terr := Tree(data, treeDepth)
	tape, err := ParseTape(data, treeDepth)
	switch {
	case (err == nil) != (terr == nil):
		t.Fatalf("ParseTape(%q) error %v, Tree's %v", data, err, terr)
	case err != nil && (err.Error() != terr.Error() || err.Offset != terr.Offset || err.Repeated != terr.Repeated || err.Duplicate != terr.Duplicate):
		t.Fatalf("ParseTape(%q): %v at %d, Tree: %v at %d", data, err, err.Offset, terr, terr.Offset)
	case err != nil:
		return
	}
	defer tape.Release()
	if got := tape.Value(0); !reflect.DeepEqual(got, tree) {
		t.Fatalf("ParseTape(%q).Value(0) = %#v, Tree %#v", data, got, tree)
	}
	if next := tape.Next(0); next != tape.Nodes() {
		t.Fatalf("ParseTape(%q): root ends at node %d of %d", data, next, tape.Nodes())
	}
	if !bytes.Equal(tape.Raw(0), TrimSpace(data)) {
		t.Fatalf("ParseTape(%q): root raw %q", data, tape.Raw(0))
	}
	checkNode(t, tape, 0)
}

// checkNode checks node i's subtree: raw bytes that encoding/json reads as
// its value, a kind that fits them, Len and the iterators agreeing.
func checkNode(t *testing.T, tape *Tape, i int) {
	raw := tape.Raw(i)
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("node %d raw %q: %v", i, raw, err)
	}
	wantKind := map[byte]NodeKind{'n': KindNull, 'f': KindFalse, 't': KindTrue, '"': KindString, '[': KindArray, '{': KindObject}[raw[0]]
	if raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9' {
		wantKind = KindNumber
	}
	if tape.Kind(i) != wantKind {
		t.Fatalf("node %d %q: kind %d, want %d", i, raw, tape.Kind(i), wantKind)
	}
	switch tape.Kind(i) {
	case KindString:
		if s := tape.Text(i); s != v || !tape.TextEqual(i, s) || tape.TextEqual(i, s+"x") || string(tape.AppendText(nil, i)) != s {
			t.Fatalf("node %d %q: text %q, want %q", i, raw, s, v)
		}
		s := tape.Text(i)
		if n := len(s); n > 0 && (tape.TextEqual(i, s[:n-1]) || tape.TextEqual(i, s[:n-1]+string(s[n-1]^1)) || tape.TextEqual(i, string(s[0]^1)+s[1:])) {
			t.Fatalf("node %d %q: TextEqual holds for a changed text", i, raw)
		}
		if c := string(tape.Contents(i)); tape.TextEqual(i, c) != (c == s) {
			t.Fatalf("node %d %q: TextEqual(contents %q) = %v, text %q", i, raw, c, c != s, s)
		}
		if !tape.Escaped(i) && string(tape.Contents(i)) != v {
			t.Fatalf("node %d %q: not escaped, but text %q", i, raw, v)
		}
		if k := tape.Key(i); k != s {
			t.Fatalf("node %d %q: key %q, text %q", i, raw, k, s)
		}
		if tape.Next(i) != i+1 {
			t.Fatalf("string node %d: next %d", i, tape.Next(i))
		}
	case KindNumber:
		if tape.Number(i) != string(v.(json.Number)) {
			t.Fatalf("node %d: number %q, want %q", i, tape.Number(i), v)
		}
	case KindArray:
		n := 0
		for e := tape.FirstElement(i); e >= 0; e = tape.NextElement(i, e) {
			checkNode(t, tape, e)
			n++
		}
		if n != tape.Len(i) || n != len(v.([]any)) {
			t.Fatalf("array node %d %q: %d elements, Len %d", i, raw, n, tape.Len(i))
		}
	case KindObject:
		n := 0
		for m := tape.FirstMember(i); m >= 0; m = tape.NextMember(i, m) {
			if tape.Kind(m) != KindString {
				t.Fatalf("object node %d: member name node %d has kind %d", i, m, tape.Kind(m))
			}
			if got, ok := tape.Member(i, tape.Text(m)); !ok || got != m+1 {
				t.Fatalf("object node %d: Member(%q) = %d, %v, want %d", i, tape.Text(m), got, ok, m+1)
			}
			checkNode(t, tape, m+1)
			n++
		}
		if n != tape.Len(i) || n != len(v.(map[string]any)) {
			t.Fatalf("object node %d %q: %d members, Len %d", i, raw, n, tape.Len(i))
		}
		if _, ok := tape.Member(i, "\x00absent\x00"); ok {
			t.Fatalf("object node %d: an absent member found", i)
		}
	default:
		if tape.Len(i) != 0 || tape.Next(i) != i+1 {
			t.Fatalf("scalar node %d: len %d next %d", i, tape.Len(i), tape.Next(i))
		}
	}
}

func TestTapeDepthAndLargeObjects(t *testing.T) {
	// The root is at depth 0: 512 levels below it are allowed, as in Tree.
	deep := strings.Repeat("[", 514) + strings.Repeat("]", 514)
	if _, err := ParseTape([]byte(deep), 512); err == nil || !strings.Contains(err.Error(), "nested deeper") {
		t.Fatalf("ParseTape of 514 levels: %v", err)
	}
	if tape, err := ParseTape([]byte(deep[1:len(deep)-1]), 512); err != nil {
		t.Fatalf("ParseTape of 513 levels: %v", err)
	} else {
		tape.Release()
	}
	var b strings.Builder
	b.WriteString("{")
	for i := range 1000 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"k` + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + strconv.Itoa(i) + `":1`)
	}
	big := b.String()
	tape, err := ParseTape([]byte(big+"}"), 512)
	if err != nil {
		t.Fatalf("1000 distinct members: %v", err)
	}
	if tape.Len(0) != 1000 {
		t.Fatalf("Len = %d", tape.Len(0))
	}
	tape.Release()
	_, err = ParseTape([]byte(big+`,"k\u0078xa702":2}`), 512)
	if err == nil || !err.Repeated || err.Duplicate != "kxxa702" {
		t.Fatalf("a repeated escaped name among 1000: %v", err)
	}
}

// TestTapeKey checks that Key is a view of the document for a string
// without escapes (no copy) and the decoded text for one with them.
func TestTapeKey(t *testing.T) {
	data := []byte(`{"name":1,"n\u0061mf":2,"":3}`)
	tape, err := ParseTape(data, 8)
	if err != nil {
		t.Fatal(err)
	}
	defer tape.Release()
	plain, escaped, empty := 2, tape.NextMember(0, 2), tape.Nodes()-2
	if k := tape.Key(plain); k != "name" || unsafe.StringData(k) != &data[2] {
		t.Errorf("Key of a plain name = %q, not a view of the document", k)
	}
	if k := tape.Key(escaped); k != "namf" {
		t.Errorf("Key of an escaped name = %q, want %q", k, "namf")
	}
	if k := tape.Key(empty); k != "" {
		t.Errorf("Key of an empty name = %q", k)
	}
}

// FuzzSkipASCII checks skipASCII against skipPlain with highBytes (and
// both against a byte-by-byte reading): the same stop from every start.
func FuzzSkipASCII(f *testing.F) {
	for _, s := range []string{"", "abcdefgh", `abcdefg"`, `abc\defgh"`, "abcdefgh\x1fijklmnop", "abcdefgh\x80", "\x7f\x20\x21\x23\x5b\x5d\x7e\x7f!", "a\"\\\x00\xff\x1f\x20\x22\x5c\x80"} {
		f.Add([]byte(s), uint8(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, from uint8) {
		j := min(int(from), len(data))
		got, want := skipASCII(data, j), skipPlain(data, j, highBytes)
		if got != want {
			t.Fatalf("skipASCII(%q, %d) = %d, skipPlain %d", data, j, got, want)
		}
		// Bytewise: the first stop byte in a whole block, else the start of
		// the last partial block.
		k := j
		for k < len(data) && data[k] >= 0x20 && data[k] < 0x80 && data[k] != '"' && data[k] != '\\' {
			k++
		}
		blocks := j + (len(data)-j)/8*8 // the end of the last whole block
		if k < blocks && got != k {
			t.Fatalf("skipASCII(%q, %d) = %d, first stop byte at %d", data, j, got, k)
		}
		if k >= blocks && got != blocks {
			t.Fatalf("skipASCII(%q, %d) = %d, no stop in a whole block (they end at %d)", data, j, got, blocks)
		}
	})
}
