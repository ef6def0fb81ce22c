package jsonscan

import "testing"

// skipStringByteWise is the plain left-to-right scan skipString must agree
// with: a backslash skips the next byte, the first other '"' ends the
// string.
func skipStringByteWise(data []byte, i int) int {
	for i++; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

// FuzzSkipString checks skipString against the byte-wise scan from every
// quote of arbitrary input.
func FuzzSkipString(f *testing.F) {
	for _, s := range []string{`"abc"`, `"a\"b"`, `"a\\"b"`, `"a\\\"b"`, `"\`, `"\\`, `"ab\"`, `"x"y"`, `""`, `"`, `"\\\\"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for i, c := range data {
			if c != '"' {
				continue
			}
			if got, want := skipString(data, i), skipStringByteWise(data, i); got != want {
				t.Fatalf("skipString(%q, %d) = %d, want %d", data, i, got, want)
			}
		}
	})
}

// EachElement yields an array's raw elements in order, stops when fn says
// so, and reports false for what is not a well-formed array.
func TestEachElement(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
		ok   bool
	}{
		{` [ 1 , "a,]" , {"b":[2,3]} , [ ] ] `, []string{`1`, `"a,]"`, `{"b":[2,3]}`, `[ ]`}, true},
		{`[]`, nil, true},
		{`{}`, nil, false},
		{`[1,`, []string{`1`}, false},
		{`[1 2]`, []string{`1`}, false},
	} {
		var got []string
		ok := EachElement([]byte(c.in), func(v []byte) bool { got = append(got, string(v)); return true })
		if ok != c.ok || len(got) != len(c.want) {
			t.Errorf("EachElement(%s) = %v %q, want %v %q", c.in, ok, got, c.ok, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("EachElement(%s) element %d = %q, want %q", c.in, i, got[i], c.want[i])
			}
		}
	}
	n := 0
	if !EachElement([]byte(`[0,0,0,0]`), func([]byte) bool { n++; return n < 2 }) || n != 2 {
		t.Errorf("an early stop saw %d elements, want 2 and true", n)
	}
}
