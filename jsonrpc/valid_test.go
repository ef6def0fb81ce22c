package jsonrpc

import (
	"encoding/json"
	"strings"
	"testing"
)

var validSeeds = []string{
	``, ` `, `null`, `true`, `false`, `nul`, `truex`, `0`, `-0`, `01`, `-`, `1.`, `1.5e`, `1e+5`, `1E-05`, `-12.5e3`,
	`""`, `"\u00e9\ud83d\ude00"`, `"\u12g4"`, `"\x"`, "\"\x01\"", "\"\xff\"", `"\/\b\f\n\r\t\\\""`,
	`{}`, `[]`, `{"a":1,}`, `[1,]`, `{"a" : [ 1 , {"b":null} ] }`, `{1:2}`, `{"a"}`, `[1 2]`, `{} {}`, ` [] `,
	toolsCallLine,
	strings.Repeat("[", maxNesting) + strings.Repeat("]", maxNesting),
	strings.Repeat("[", maxNesting+1) + strings.Repeat("]", maxNesting+1),
	strings.Repeat(`{"a":`, maxNesting) + "1" + strings.Repeat("}", maxNesting),
	strings.Repeat(`{"a":`, maxNesting+1) + "1" + strings.Repeat("}", maxNesting+1),
}

func TestValidJSONMatchesEncodingJSON(t *testing.T) {
	for _, s := range validSeeds {
		if got, want := validJSON([]byte(s)), json.Valid([]byte(s)); got != want {
			t.Errorf("validJSON(%.60q) = %v, json.Valid = %v", s, got, want)
		}
	}
}

// FuzzValidJSON checks validJSON against json.Valid on arbitrary bytes.
func FuzzValidJSON(f *testing.F) {
	for _, s := range validSeeds {
		f.Add([]byte(s))
	}
	for _, s := range decodeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := validJSON(data), json.Valid(data); got != want {
			t.Fatalf("validJSON(%q) = %v, json.Valid = %v", data, got, want)
		}
	})
}
