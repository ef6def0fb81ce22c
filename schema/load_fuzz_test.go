package schema

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// FuzzLoadBytes: any bytes load or fail with an error, never a panic or a
// hang, and loading the same bytes twice gives the same model (or the same
// error): the one-parse decoder and the memoised allOf and union passes
// keep no state between loads.
func FuzzLoadBytes(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("testdata", "constructs", "2030-01-01", "schema.json")); err == nil {
		f.Add(b)
	}
	for _, s := range []string{
		`{"$defs":{"A":{"type":"object","properties":{"x":{"type":"integer","minimum":1}}}}}`,
		`{"$defs":{"A":{"anyOf":[{"$ref":"#/$defs/B"},{"$ref":"#/$defs/B"}]},"B":{"type":["string","null"]}}}`,
		`{"$defs":{"A":{"allOf":[{"$ref":"#/$defs/B"},{"properties":{"x":{"description":"d"}}}]},"B":{"type":"object","properties":{"x":{"enum":["a","b"]}}}}}`,
		`{"$defs":{"A":{"const":{"a":[1,2]}},"B":{"enum":["x","x","y"]}}}`,
		`{"definitions":{"A":{"type":"string"}},"$defs":{}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 64<<10 {
			return
		}
		m1, err1 := LoadBytes("schema.json", b, Options{Version: "2030-01-01"})
		m2, err2 := LoadBytes("schema.json", b, Options{Version: "2030-01-01"})
		if (err1 == nil) != (err2 == nil) || err1 != nil && err1.Error() != err2.Error() {
			t.Fatalf("two loads disagree: %v / %v", err1, err2)
		}
		if err1 == nil && !reflect.DeepEqual(m1, m2) {
			t.Fatal("two loads of the same bytes gave different models")
		}
	})
}
