package server

import (
	"encoding/json"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// TestServerInfoMetaIsJSONMarshal: serverInfoMeta writes what json.Marshal
// writes through the generated encoder, for every kind of string.
func TestServerInfoMetaIsJSONMarshal(t *testing.T) {
	strs := []string{"", "weather", "0.0.0", "a\"b\\c", "<script>&amp;", "line\nbreak\ttab\x00\x1f\x7f",
		"\u2028\u2029", "héllo wörld ☃ 𝄞", "bad \xff\xfe utf8 \xc3", "\xed\xa0\x80", "mixed <\xff> \"&\""}
	for _, name := range strs {
		for _, title := range strs {
			for _, version := range strs[:4] {
				info := mcp.Implementation{Name: name, Title: title, Version: version}
				want, err := json.Marshal(map[string]mcp.Implementation{keyServerInfo: info})
				if err != nil {
					t.Fatal(err)
				}
				if got := serverInfoMeta(info); string(got) != string(want) {
					t.Fatalf("serverInfoMeta(%q, %q, %q)\n got %s\nwant %s", name, title, version, got, want)
				}
			}
		}
	}
}
