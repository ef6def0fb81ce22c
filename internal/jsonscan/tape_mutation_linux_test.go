//go:build linux

package jsonscan

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
)

// guardedEnd returns a function that copies a document to the very end of
// a mapping followed by an unreadable page, so that a read past the
// document's last byte faults instead of reading a neighbour.
func guardedEnd(t *testing.T) func([]byte) []byte {
	pg := os.Getpagesize()
	m, err := syscall.Mmap(-1, 0, 17*pg, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { syscall.Munmap(m) })
	if err := syscall.Mprotect(m[16*pg:], syscall.PROT_NONE); err != nil {
		t.Skip(err)
	}
	room := m[:16*pg]
	return func(s []byte) []byte {
		if len(s) > len(room) {
			return s
		}
		d := room[len(room)-len(s):]
		copy(d, s)
		return d[:len(s):len(s)]
	}
}

// mutationSeeds are the spec's small examples and envelopes whose members
// repeat in another spelling (an escape, a \/, a different raw length),
// in a _meta whose reserved keys share a prefix, and in objects past
// smallTapeObject members.
func mutationSeeds(t *testing.T) []string {
	seeds := []string{
		`{"jsonrpc":"2.0","id":1,"method":"a","m\u0065thod":"b"}`,
		`{"m\u0065thod":"a","jsonrpc":"2.0","method":"b"}`,
		`{"jsonrpc":"2.0","id":1,"result":{},"r\u0065sult":{"a":1}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","_meta":{"io.modelcontextprotocol/protocolVersion":"v","io.modelcontextprotocol\/protocolVersion":"w"}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/logLevel":"info","io.modelcontextprotocol/logLeve":"x","io.modelcontextprotocol/logLevel ":"y","io.modelcontextprotocol/":1,"progressToken":1}}}`,
		`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"\u0061":8}`,
		`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"\u0069":10}`,
		`{"ab":1,"ba":2,"a\u0062":3}`,
		`{"a\/b":1,"a\u002fb":2}`,
		`{"é":1,"\u00e9":2}`,
		`{"":1,"\u0000":2,"":3}`,
		`{"params":{"arguments":{"x":1},"\u0061rguments":{}}}`,
	}
	if dir := os.Getenv("MCPGEN_SPEC_DIR"); dir != "" {
		files, _ := filepath.Glob(filepath.Join(dir, "schema", "2026-07-28", "examples", "*", "*.json"))
		for _, f := range files {
			if b, err := os.ReadFile(f); err == nil && len(b) < 600 {
				seeds = append(seeds, string(b))
			}
		}
	}
	return seeds
}

// TestTapeAgreesWithTreeOnMutatedEnvelopes holds ParseTape to Tree (the
// reference: encoding/json's grammar, every repeated name refused), and
// ParseEnvelope to ParseKept, for envelopes with whitespace valid or not
// at every position, cut at every byte, each at the end of readable
// memory, and each parsed just after a parse that failed mid-way (the
// pooled parser must keep nothing of it).
func TestTapeAgreesWithTreeOnMutatedEnvelopes(t *testing.T) {
	atEnd := guardedEnd(t)
	ws := []byte{' ', '\t', '\r', '\n', '\v', '\f', 0, 0xa0}
	check := func(s []byte) {
		data := atEnd(s)
		tree, terr := Tree(data, treeDepth)
		tape, err := ParseTape(data, treeDepth)
		switch {
		case (err == nil) != (terr == nil):
			t.Fatalf("ParseTape(%q) error %v, Tree's %v", s, err, terr)
		case err != nil:
			if err.Error() != terr.Error() || err.Repeated != terr.Repeated || err.Duplicate != terr.Duplicate {
				t.Fatalf("ParseTape(%q): %v, Tree: %v", s, err, terr)
			}
		default:
			if got := tape.Value(0); !reflect.DeepEqual(got, tree) {
				t.Fatalf("ParseTape(%q).Value(0) = %#v, Tree %#v", s, got, tree)
			}
			tape.Release()
		}
		checkEnvelope(t, data)
		env, eerr := ParseEnvelope(data, treeDepth, Opaque{Root: "result"}, Opaque{Root: "params", Inner: "arguments", Spans: true})
		if terr == nil && eerr != nil {
			t.Fatalf("ParseEnvelope(%q): %v", s, eerr)
		}
		if eerr == nil && env.Kind(0) == KindObject {
			for m := env.FirstMember(0); m >= 0; m = env.NextMember(0, m) {
				k, plain := env.PlainKey(m)
				if !plain {
					k = env.Text(m)
				}
				if k != env.Text(m) || plain == env.Escaped(m) {
					t.Fatalf("%q: PlainKey(%d) = %q, %v; Text %q", s, m, k, plain, env.Text(m))
				}
			}
		}
	}
	for _, seed := range mutationSeeds(t) {
		s := []byte(seed)
		for i := 0; i <= len(s); i++ {
			// A parse failing at byte i leaves the pooled parser with
			// open objects; the next parse must not see them.
			ParseEnvelope(s[:i], treeDepth, Opaque{Root: "result"})
			check(s[:i])
			for k := 0; k < 2; k++ {
				c := ws[(i+3*k)%len(ws)]
				check(append(append(append([]byte(nil), s[:i]...), c), s[i:]...))
			}
		}
		// Each name of the seed repeated in an escaped spelling, beside it.
		for i := 0; i+3 < len(s); i++ {
			if s[i] == '"' && s[i+1] >= 'a' && s[i+1] <= 'z' {
				if end := strings.IndexByte(seed[i+1:], '"'); end > 0 && i+2+end < len(s) && s[i+2+end] == ':' {
					name := seed[i+1 : i+1+end]
					dup := `"` + fmt.Sprintf(`\u%04x`, name[0]) + name[1:] + `":0,`
					check([]byte(seed[:i] + dup + seed[i:]))
				}
			}
		}
	}
}
