package jsonscan

import (
	"encoding/json"
	"strings"
	"testing"
)

// deepWraps are containers (opening and closing text) that checkDeep
// nests past MaxNesting around a value, so that ValidDeep checks it with its
// bit stack, and three deep for json.Valid.
var deepWraps = [][2]string{
	{"[", "]"},
	{"[0,", "]"},
	{`{"a":`, "}"},
	{`[1, {"k" : `, "} ]"},
}

// ValidDeep is Valid (json.Valid) for values within MaxNesting, and past
// it gives a value nested deeper the verdict json.Valid gives the value
// alone.
func TestValidDeepPastTheNestingLimit(t *testing.T) {
	for _, s := range validSeeds {
		if got, want := ValidDeep([]byte(s)), json.Valid([]byte(s)) || strings.HasPrefix(s, strings.Repeat("[", MaxNesting+1)) || strings.HasPrefix(s, strings.Repeat(`{"a":`, MaxNesting+1)); got != want {
			t.Errorf("ValidDeep(%.60q) = %v, want %v", s, got, want)
		}
		if len(s) < MaxNesting { // the value alone within json.Valid's limit
			checkDeep(t, []byte(s))
		}
	}
	for _, bad := range []string{`[{]}`, `{"a":1]`, `[1}`, `{"a" 1}`, `{"a":1,}`, `[,]`, `[1`, `{`, `]`} {
		checkDeep(t, []byte(bad))
	}
	if ValidDeep([]byte(strings.Repeat("[", 3*MaxNesting) + strings.Repeat("]", 3*MaxNesting-1))) {
		t.Error("ValidDeep accepts an array left open")
	}
}

// checkDeep checks that data wrapped in containers nested past MaxNesting
// is valid for ValidDeep exactly when data wrapped three deep is for
// json.Valid.
func checkDeep(t *testing.T, data []byte) {
	t.Helper()
	for _, w := range deepWraps {
		want := json.Valid([]byte(strings.Repeat(w[0], 3) + string(data) + strings.Repeat(w[1], 3)))
		deep := strings.Repeat(w[0], MaxNesting+1) + string(data) + strings.Repeat(w[1], MaxNesting+1)
		if got := ValidDeep([]byte(deep)); got != want {
			t.Errorf("ValidDeep(%.60q wrapped in %q past MaxNesting) = %v, json.Valid three deep = %v", data, w[0], got, want)
		}
	}
}

// FuzzValidDeep checks ValidDeep past MaxNesting against json.Valid of the
// value it wraps.
func FuzzValidDeep(f *testing.F) {
	for _, s := range validSeeds[:len(validSeeds)-4] {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1000 {
			return
		}
		checkDeep(t, data)
	})
}
