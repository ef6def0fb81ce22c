package jsonscan

import (
	"math/rand"
	"strings"
	"testing"
)

// repeatedNameNested is the reference RepeatedName replaced: Members at
// each object, EachElement at each array, recursing into every value.
func repeatedNameNested(raw []byte) bool {
	switch Kind(raw) {
	case '{':
		found := false
		_, repeated, _ := Members(raw, func(_, value []byte) {
			found = found || repeatedNameNested(value)
		})
		return repeated || found
	case '[':
		found := false
		EachElement(raw, func(value []byte) bool {
			found = repeatedNameNested(value)
			return !found
		})
		return found
	}
	return false
}

// TestRepeatedNameAgreesWithNestedScan: on random values (escaped names,
// strings holding brackets, commas and colons, objects past smallObject)
// RepeatedName finds a repetition exactly when the per-level scan does.
func TestRepeatedNameAgreesWithNestedScan(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	names := []string{`"a"`, `"\u0061"`, `"b"`, `"A"`, `"{"`, `"[\"]"`, `"c:"`, `"d,"`, `"\\"`}
	var gen func(depth int) string
	gen = func(depth int) string {
		switch k := r.Intn(6); {
		case depth > 4 || k == 0:
			return []string{`1`, `-0`, `1e400`, `"x,}]"`, `"\"{"`, `null`, `true`}[r.Intn(7)]
		case k < 3:
			var b strings.Builder
			b.WriteByte('{')
			n := r.Intn(12)
			used := map[string]bool{}
			for i := 0; i < n; i++ {
				name := names[r.Intn(len(names))]
				if r.Intn(4) > 0 && used[name] {
					name = `"u` + string(rune('a'+i)) + `"`
				}
				used[name] = true
				if i > 0 {
					b.WriteString(" , ")
				}
				b.WriteString(name + " : " + gen(depth+1))
			}
			b.WriteByte('}')
			return b.String()
		default:
			var b strings.Builder
			b.WriteByte('[')
			for i, n := 0, r.Intn(4); i < n; i++ {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(gen(depth + 1))
			}
			b.WriteByte(']')
			return b.String()
		}
	}
	seen := [2]int{}
	for i := 0; i < 5000; i++ {
		v := gen(0)
		_, got := RepeatedName([]byte(v))
		if want := repeatedNameNested([]byte(v)); got != want {
			t.Fatalf("%s: RepeatedName %v, the nested scan %v", v, got, want)
		}
		if got {
			seen[1]++
		} else {
			seen[0]++
		}
	}
	if seen[0] == 0 || seen[1] == 0 {
		t.Fatalf("the values drawn were not varied: %v", seen)
	}
}
