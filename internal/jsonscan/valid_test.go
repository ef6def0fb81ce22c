package jsonscan

import (
	"encoding/json"
	"strings"
	"testing"
)

var validSeeds = []string{
	``, ` `, `null`, `true`, `false`, `nul`, `truex`, `0`, `-0`, `01`, `-`, `1.`, `1.5e`, `1e+5`, `1E-05`, `-12.5e3`,
	`""`, `"\u00e9\ud83d\ude00"`, `"\u12g4"`, `"\x"`, "\"\x01\"", "\"\xff\"", `"\/\b\f\n\r\t\\\""`,
	`{}`, `[]`, `{"a":1,}`, `[1,]`, `{"a" : [ 1 , {"b":null} ] }`, `{1:2}`, `{"a"}`, `[1 2]`, `{} {}`, ` [] `,
	`{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"get_weather","arguments":{"location":"New York"}}}`,
	strings.Repeat("[", MaxNesting) + strings.Repeat("]", MaxNesting),
	strings.Repeat("[", MaxNesting+1) + strings.Repeat("]", MaxNesting+1),
	strings.Repeat(`{"a":`, MaxNesting) + "1" + strings.Repeat("}", MaxNesting),
	strings.Repeat(`{"a":`, MaxNesting+1) + "1" + strings.Repeat("}", MaxNesting+1),
}

func TestValidMatchesEncodingJSON(t *testing.T) {
	for _, s := range validSeeds {
		if got, want := Valid([]byte(s)), json.Valid([]byte(s)); got != want {
			t.Errorf("Valid(%.60q) = %v, json.Valid = %v", s, got, want)
		}
	}
}

// FuzzValid checks Valid against json.Valid on arbitrary bytes.
func FuzzValid(f *testing.F) {
	for _, s := range validSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := Valid(data), json.Valid(data); got != want {
			t.Fatalf("Valid(%q) = %v, json.Valid = %v", data, got, want)
		}
	})
}
