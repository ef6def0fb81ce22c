package server

import (
	"bytes"
	"context"
	"crypto/sha256"
	"testing"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// readArgsAs shows ir a reading of t as the decoder's (argcheck.LazyReader):
// its lazy arrays in the order order names (0: as in the text; 1: the
// other way round; 2: the last one left out; 3: the first one twice),
// every element of each through its windows, then Done. It returns
// whether the reading was complete, and Done's error.
func readArgsAs(ir *identityReader, t *jsonscan.Tape, order uint8) (bool, error) {
	ir.Start(t)
	arrays := append([]int(nil), t.LazyArrays()...)
	complete := true
	switch order % 4 {
	case 1:
		for i, j := 0, len(arrays)-1; i < j; i, j = i+1, j-1 {
			arrays[i], arrays[j] = arrays[j], arrays[i]
		}
	case 2:
		arrays, complete = arrays[:len(arrays)-1], false
	case 3:
		arrays = append([]int{arrays[0]}, arrays...)
	}
	for _, i := range arrays {
		ir.ArrayStart(i)
		w := t.Windows(i)
		for w.Next() {
			wt := w.Tape()
			for e := wt.FirstElement(0); e >= 0; e = wt.NextElement(0, e) {
				ir.Element(wt, e)
			}
		}
		failed := w.Err() != nil
		w.Release()
		if failed {
			complete = false
			break
		}
		ir.ArrayEnd(i)
	}
	err := ir.Done(complete)
	ir.release()
	return complete, err
}

// FuzzIdentityReader: the digest an identityReader takes from a reading of
// lazily parsed arguments (any threshold, the arrays read in any order,
// complete or not) is identityDigestOf's: when it keeps one (the reading
// was complete and in the canonical order) it is the digest of identity's
// text, and a requestState is accepted exactly when it was sealed for that
// digest.
func FuzzIdentityReader(f *testing.F) {
	for _, v := range lazyIdentitySeeds {
		for order := range uint8(4) {
			f.Add([]byte(v), uint8(1), order)
			f.Add(lazyIdentityArgs(v, 50), uint8(4), order)
		}
	}
	f.Add([]byte(` {"b":[1,{"a":[2,3]},[[4]]],"a":"\u2028<","c":[[5],[6,7]]} `), uint8(2), uint8(0))
	f.Add([]byte(`{"z":[1,2,3],"a":[4,5,6]}`), uint8(3), uint8(1))
	f.Fuzz(func(t *testing.T, args []byte, min, order uint8) {
		a := bytes.Trim(args, " \t\r\n") // as the decoder trims them
		tp, err := jsonscan.ParseLazyMin(a, jsonscan.MaxArgumentsDepth, int(min%32)+1)
		if err != nil {
			return
		}
		defer tp.Release()
		if tp.LazyArrays() == nil {
			return
		}
		want := wantDigest("tools/call", "n", args, "")
		r := fusedRequest(args, &identityCheck{})
		complete, _ := readArgsAs(&identityReader{r: r}, tp, order)
		if c := r.rounds().identity; c.have && c.digest != want {
			t.Fatalf("%q (min %d, order %d): the reading's digest differs from identity's", args, min%32+1, order%4)
		}
		if r.rounds().identity.have && !complete {
			t.Fatalf("%q: a digest kept from an incomplete reading", args)
		}
		if complete && order%4 == 0 && len(tp.LazyArrays()) == 1 && !r.rounds().identity.have {
			t.Fatalf("%q (min %d): one lazy array read through, no digest", args, min%32+1)
		}
		for _, sealed := range [][sha256.Size]byte{want, {1}} {
			r := fusedRequest(args, &identityCheck{pending: true, want: sealed, state: []byte(`{"s":1}`)})
			ir := &identityReader{r: r}
			_, err := readArgsAs(ir, tp, order)
			if ir.Done(false) != nil || r.rounds().identity.pending {
				t.Fatalf("%q: a second Done changed something, or the state is still pending", args)
			}
			accepted := string(r.rounds().state) == `{"s":1}`
			if accepted == (err != nil) || accepted != (sealed == want) {
				t.Fatalf("%q (min %d, order %d): state sealed for the digest %v, accepted %v", args, min%32+1, order%4, sealed == want, accepted)
			}
		}
	})
}

// fusedRequest is a tools/call of tool "n" with args and the identity
// check c.
func fusedRequest(args []byte, c *identityCheck) *request {
	r := &request{method: "tools/call", ctx: context.Background()}
	r.mrtr.Store(&mrtrRounds{idName: "n", idArgs: args, idGiven: true, identity: c})
	return r
}
