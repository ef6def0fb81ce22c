package jsonscan

import "testing"

// TestMembersRepeatedEmptyName: the empty name is a name like any other, so
// repeating it is a duplicate (a "" dup alone could not say so).
func TestMembersRepeatedEmptyName(t *testing.T) {
	for _, c := range []struct {
		in       string
		repeated bool
	}{
		{`{"":1,"":2}`, true},
		{`{"":1,"\u0000":2}`, false},
		{`{"":1,"a":2}`, false},
		{`{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"":8,"k9":9,"":10}`, true},
	} {
		dup, repeated, ok := Members([]byte(c.in), func(_, _ []byte) {})
		if !ok || repeated != c.repeated || dup != "" {
			t.Errorf("Members(%s) = %q, %v, %v; want \"\", %v, true", c.in, dup, repeated, ok, c.repeated)
		}
	}
}
