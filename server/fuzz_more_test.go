package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp"
	legacy "github.com/mcpgen/mcpgen/generated/mcp20251125"
	"github.com/mcpgen/mcpgen/internal/jsonscan"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// FuzzRequestStateUnseal: a requestState token opens only as it was sealed.
// The state sealed for an identity comes back unchanged for that identity;
// for any other identity, with any byte of the token changed, or for any
// fuzzed token, unseal fails unless the token decodes to exactly the bytes
// seal produced.
func FuzzRequestStateUnseal(f *testing.F) {
	f.Add([]byte(`{"step":1}`), "tools/call\x00multi_round\x00{}", "tools/call\x00other\x00{}", uint16(3), byte(1), "AAAA")
	f.Add([]byte{}, "", "x", uint16(0), byte(0x80), "")
	f.Add([]byte("\x00\xff"), "prompts/get\x00p\x00", "prompts/get\x00p\x00 ", uint16(60), byte(0xff), "not base64!")
	s := newFixture(f).s
	f.Fuzz(func(t *testing.T, state []byte, id, other string, at uint16, flip byte, token string) {
		sealed := s.seal(state, digestOf(id))
		got, err := s.unseal(sealed, digestOf(id))
		if err != nil || !bytes.Equal(got, state) && !(len(state) == 0 && got == nil) {
			t.Fatalf("round trip of %q: %q, %v", state, got, err)
		}
		if other != id {
			if _, err := s.unseal(sealed, digestOf(other)); err == nil {
				t.Fatalf("state sealed for %q opened for %q", id, other)
			}
		}
		raw, _ := base64.RawURLEncoding.DecodeString(sealed)
		if flip != 0 {
			tampered := slices.Clone(raw)
			tampered[int(at)%len(tampered)] ^= flip
			if _, err := s.unseal(base64.RawURLEncoding.EncodeToString(tampered), digestOf(id)); err == nil {
				t.Fatalf("tampered token (byte %d ^ %#x) opened", int(at)%len(tampered), flip)
			}
		}
		if _, err := s.unseal(token, digestOf(id)); err == nil {
			if b, derr := base64.RawURLEncoding.DecodeString(token); derr != nil || !bytes.Equal(b, raw) {
				t.Fatalf("fuzzed token %q opened", token)
			}
		}
	})
}

// FuzzLegacyResultConversion: a modern result converted for a legacy
// session is valid JSON, carries none of the 2026-07-28 members
// (resultType, ttlMs, cacheScope, _meta serverInfo), holds no content kind
// the session's revision lacks, and a tools/call result that decodes as a
// modern CallToolResult decodes as the 2025-11-25 one after conversion.
func FuzzLegacyResultConversion(f *testing.F) {
	for _, b := range []string{
		`{"resultType":"complete","content":[{"type":"text","text":"hi"}],"structuredContent":{"a":1},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"x","version":"1"}}}`,
		`{"resultType":"complete","content":[{"type":"resource_link","uri":"file:///a","name":"a"},{"type":"audio","data":"AA==","mimeType":"audio/wav"}]}`,
		`{"resultType":"complete","ttlMs":0,"cacheScope":"public","tools":[{"name":"t","inputSchema":{"type":"object"},"outputSchema":{"type":"object"}}]}`,
		`{"resultType":"complete","messages":[{"role":"user","content":{"type":"resource_link","uri":"x://y","name":"y"}}]}`,
		`[1]`, `"x"`, `{"content":5}`, `{`,
	} {
		for m := range 4 {
			f.Add(uint8(m), uint8(m), []byte(b))
		}
	}
	methods := []string{mcp.MethodToolsCall, mcp.MethodToolsList, mcp.MethodPromptsGet, mcp.MethodResourcesRead}
	s := newFixture(f).s
	f.Fuzz(func(t *testing.T, mi, vi uint8, in []byte) {
		method := methods[int(mi)%len(methods)]
		version := legacyVersions[int(vi)%len(legacyVersions)]
		l := s.requestSession(requestMeta{protocolVersion: version, caps: []byte("{}")})
		out, rerr := l.convertResult(method, in)
		if rerr != nil || !json.Valid(in) || jsonscan.Kind(in) != '{' {
			return // the core only ever hands over a JSON object
		}
		if !json.Valid(out) || jsonscan.Kind(out) != '{' {
			t.Fatalf("%s %s: %q became %q", method, version, in, out)
		}
		var top map[string]json.RawMessage
		if err := json.Unmarshal(out, &top); err != nil {
			t.Fatalf("%s: %v", out, err)
		}
		for _, k := range []string{"resultType", "ttlMs", "cacheScope"} {
			if _, ok := top[k]; ok {
				t.Fatalf("%s %s: %q keeps %s", method, version, out, k)
			}
		}
		if strings.Contains(string(top["_meta"]), keyServerInfo) {
			var meta map[string]json.RawMessage
			if json.Unmarshal(top["_meta"], &meta) == nil {
				if _, ok := meta[keyServerInfo]; ok {
					t.Fatalf("%q keeps _meta serverInfo", out)
				}
			}
		}
		if method == mcp.MethodToolsCall {
			// Content kinds are read by exact member name, as a client
			// decoding the union by its "type" discriminator does.
			var blocks []json.RawMessage
			if json.Unmarshal(top["content"], &blocks) == nil {
				for _, raw := range blocks {
					b, err := exactObject(raw, "content")
					if err != nil {
						continue // repeats a name: no decoder reads it as a block
					}
					typ, _ := jsonscan.String(b["type"])
					if typ == "resource_link" && version < "2025-06-18" || typ == "audio" && version < "2025-03-26" {
						t.Fatalf("%s: %s content in %q", version, typ, out)
					}
				}
			}
			var modern mcp.CallToolResult
			var old legacy.CallToolResult
			if json.Unmarshal(in, &modern) == nil {
				if err := json.Unmarshal(out, &old); err != nil {
					t.Fatalf("%s: modern result %q converts to %q, which 2025-11-25 does not read: %v", version, in, out, err)
				}
			}
		}
	})
}

// FuzzStdio drives ServeStdio end to end with fuzzed input lines (modern
// and legacy, any bytes) on the fixture server without its blocking or
// client-asking tools: after stdin ends it returns promptly, every output
// line is one valid JSON-RPC message, and no request id is answered that
// was not sent, or more often than it was sent.
func FuzzStdio(f *testing.F) {
	for _, s := range fuzzHandleSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":` + goodMeta + `}}` + "\n"))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"progress","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":1}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}` + "\n" + "\xff\n[]\n{}\n"))
	blocking := []string{"slow", "sleep", "ask_name", "multi_round", "multi_input", "needs_sampling", "ask_context"}
	fx := newFixture(f, func(o *Options) {
		o.Tools = slices.DeleteFunc(o.Tools, func(t Tool) bool { return slices.Contains(blocking, t.Name()) })
	})
	f.Fuzz(func(t *testing.T, in []byte) {
		sent := map[string]int{}
		for line := range bytes.SplitSeq(in, []byte("\n")) {
			if msg, derr := jsonrpc.Decode(line); !msg.ID.IsZero() && (derr != nil || msg.Kind == jsonrpc.KindRequest) {
				sent[msg.ID.String()]++ // a request, or a bad message whose id was readable
			}
		}
		var out bytes.Buffer
		done := make(chan error, 1)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go func() { done <- fx.s.serveStdio(ctx, bytes.NewReader(in), &out, 1<<16) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("ServeStdio did not return after stdin ended: %q", in)
		}
		answered := map[string]int{}
		sc := bufio.NewScanner(&out)
		sc.Buffer(nil, 1<<22)
		for sc.Scan() {
			msg, derr := jsonrpc.Decode(sc.Bytes())
			if derr != nil {
				t.Fatalf("output line %q is not JSON-RPC: %v", sc.Bytes(), derr)
			}
			if msg.Kind == jsonrpc.KindResponse || msg.Kind == jsonrpc.KindErrorResponse {
				if msg.ID.IsZero() {
					continue // an input that did not decode far enough to read its id
				}
				id := msg.ID.String()
				answered[id]++
				if answered[id] > sent[id] {
					t.Fatalf("id %s answered %d times, sent %d: %q", id, answered[id], sent[id], in)
				}
			}
		}
	})
}
