package server

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// sameJSON reports whether a and b are the same JSON value (members in any
// order).
func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// FuzzLegacyFastPaths: wherever the one-parse conversions of a legacy
// session (modernParamsFast, convertResultFast) take a message, they give
// the same JSON value as the general paths on maps of members, which take
// every message; a message the fast paths leave is one the general path
// also handles (the errors are its own).
func FuzzLegacyFastPaths(f *testing.F) {
	for _, b := range []string{
		`{"resultType":"complete","content":[{"type":"text","text":"hi"}],"structuredContent":{"a":1},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"x","version":"1"}}}`,
		`{"resultType":"complete","content":[{"type":"resource_link","uri":"file:///a","name":"a"},{"type":"audio","data":"AA==","mimeType":"audio/wav"}]}`,
		`{"resultType":"complete","ttlMs":0,"cacheScope":"public","tools":[{"name":"t","inputSchema":{"type":"object"},"outputSchema":{"type":"object"}}]}`,
		`{"resultType":"complete","tools":[{"name":"t","inputSchema":{"type":"object"},"outputSchema":{"type":"array"}},{"name":"u","outputSchema":{"t\u0079pe":"\u006fbject"}}]}`,
		`{"tools":[{"name":"t","outputSchema":{"anyOf":[{"type":"object"}]}},{"name":"u","outputSchema":true},5]}`,
		`{"tools":[{"name":"t","inputSchema":{"type":"object","properties":{"x":true,"y":{"items":false}}},"outputSchema":{"type":"object","properties":{"z":true}}},5],"nextCursor":"c"}`,
		`{"resultType":"complete","messages":[{"role":"user","content":{"type":"resource_link","uri":"x://y","name":"y"}}]}`,
		`{"result\u0054ype":"complete","_meta":{"a":1,"io.modelcontextprotocol/serverInfo":{}},"structuredContent":[1]}`,
		`{"name":"weather","arguments":{"location":"Paris"},"_meta":{"progressToken":1,"io.modelcontextprotocol/logLevel":"debug","io.modelcontextprotocol/protocol\u0056ersion":"x"}}`,
		`{"name":"t","inputResponses":{"a":{}},"requestState":"s","_meta":null}`,
		`{"content":null,"_meta":5}`, `null`, `{}`, `[1]`, `"x"`, `{"content":5}`, `{`, ` {"a" : [ 1 , {"b":null} ] } `,
	} {
		for m := range 4 {
			f.Add(uint8(m), uint8(m), []byte(b), true)
			f.Add(uint8(m), uint8(m+1), []byte(b), false)
		}
	}
	methods := []string{mcp.MethodToolsCall, mcp.MethodToolsList, mcp.MethodPromptsGet, mcp.MethodResourcesRead}
	s := newFixture(f).s
	infos := []json.RawMessage{nil, json.RawMessage(`{"name":"c","version":"1"}`)}
	f.Fuzz(func(t *testing.T, mi, vi uint8, in []byte, withInfo bool) {
		method := methods[int(mi)%len(methods)]
		version := legacyVersions[int(vi)%len(legacyVersions)]
		info := infos[0]
		if withInfo {
			info = infos[1]
		}
		l := s.requestSession(requestMeta{protocolVersion: version, caps: []byte(`{"sampling":{}}`), clientInfo: info})

		if fast, ok := l.convertResultFast(method, in); ok {
			general, rerr := l.convertResultGeneral(method, in)
			if rerr != nil {
				t.Fatalf("%s %s: fast path took %q, the general path refused it: %v", method, version, in, rerr)
			}
			if !sameJSON(fast, general) {
				t.Fatalf("%s %s: %q converted to\n%s by the fast path,\n%s by the general one", method, version, in, fast, general)
			}
		}

		var responses mcp.InputResponses
		state := ""
		if mi%3 == 0 {
			responses = mcp.InputResponses{"k": &mcp.ListRootsResult{}}
			state = "st"
		}
		if fast, ok := l.modernParamsFast(in, responses, state); ok {
			general, rerr := l.modernParamsGeneral(in, responses, state)
			if rerr != nil {
				t.Fatalf("params %q: fast path took them, the general path refused them: %v", in, rerr)
			}
			if !sameJSON(fast, general) {
				t.Fatalf("params %q became\n%s on the fast path,\n%s on the general one", in, fast, general)
			}
		}
	})
}
