package jsonscan

import "testing"

// TestMemberAsTextEqual: Member finds a name as a TextEqual of each member
// would, escaped names of another raw length included.
func TestMemberAsTextEqual(t *testing.T) {
	docs := []string{
		`{"\u006cocation":1}`, `{"loc":0,"\u006cocation":1}`, `{"locatio":0,"location":1}`, "{\"\xff\":1}",
		`{"\u00e9":1}`, "{\"\u00e9\":1}", `{"":1}`, `{"a\"b":1}`, `{"\u0000":1}`, `{"x":{"location":1},"location":2}`,
	}
	names := []string{"location", "loc", "\ufffd", "\u00e9", "", "a\"b", "\x00", "x", "\xff"}
	for _, d := range docs {
		tp, err := ParseTape([]byte(d), 1<<20)
		if err != nil {
			t.Fatal(d, err)
		}
		for _, name := range names {
			want, wantOK := 0, false
			for m := tp.FirstMember(0); m >= 0; m = tp.NextMember(0, m) {
				if tp.TextEqual(m, name) {
					want, wantOK = m+1, true
					break
				}
			}
			if got, ok := tp.Member(0, name); got != want || ok != wantOK {
				t.Errorf("Member(%s, %q) = %d, %v; want %d, %v", d, name, got, ok, want, wantOK)
			}
		}
	}
}
