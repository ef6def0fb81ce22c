package server

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/jsonrpc"
)

// testIDs are ids of every form, decoded as a request carries them.
func testIDs(t *testing.T) []jsonrpc.ID {
	t.Helper()
	var ids []jsonrpc.ID
	for _, raw := range []string{`0`, `1`, `-7`, `123456789012345678`, `""`, `"a"`, `"\u00e9\n"`, `"` + strings.Repeat("x", 30) + `"`,
		`"` + strings.Repeat("x", 31) + `"`, `"` + strings.Repeat("y", 200) + `"`} {
		msg, err := jsonrpc.Decode([]byte(`{"jsonrpc":"2.0","id":` + raw + `,"method":"ping"}`))
		if err != nil {
			t.Fatalf("id %s: %v", raw, err)
		}
		ids = append(ids, msg.ID)
	}
	return append(ids, jsonrpc.ID{})
}

// TestResultHeadLen: resultHeadLen is the length AppendResultHead writes,
// for every kind of id (resultFrame.response relies on it not to write
// into the result).
func TestResultHeadLen(t *testing.T) {
	for _, id := range testIDs(t) {
		if got, want := resultHeadLen(id), len(jsonrpc.AppendResultHead(nil, id)); got != want {
			t.Errorf("id %s: resultHeadLen %d, AppendResultHead writes %d", id, got, want)
		}
	}
}

// TestResultFrameResponse: a result encoded into a frame gets exactly the
// response AppendResult builds, without a copy; anything else (a copy, a
// result grown out of its buffer, one with a newline, a long id) gets nil,
// so the caller builds it by copying.
func TestResultFrameResponse(t *testing.T) {
	for _, id := range testIDs(t) {
		for _, result := range []string{`{}`, `{"content":[{"type":"text","text":"x"}],"resultType":"complete"}`} {
			var f resultFrame
			got := f.response(id, f.done(append(f.alloc(len(result)), result...)))
			want := jsonrpc.AppendResult(nil, id, []byte(result))
			switch {
			case resultHeadLen(id) > frameRoom:
				if got != nil {
					t.Errorf("id %s (longer than the room): %s, want nil", id, got)
				}
			case !bytes.Equal(got, want):
				t.Errorf("id %s: %s, want %s", id, got, want)
			case &got[len(got)-len(result)-1] != &f.buf[frameRoom]:
				t.Errorf("id %s: the result was copied", id)
			}
		}
	}
	id := testIDs(t)[1]
	var f resultFrame
	result := f.done(append(f.alloc(2), `{}`...))
	if f.response(id, bytes.Clone(result)) != nil {
		t.Error("a copy of the result got a framed response")
	}
	var g resultFrame
	grown := g.done(append(g.alloc(2), `{"much":"longer than its buffer"}`...))
	if g.buf != nil || g.response(id, grown) != nil {
		t.Error("a result grown out of its buffer got a framed response")
	}
	var h resultFrame
	if h.response(id, h.done(append(h.alloc(16), "{\n\"a\":1}"...))) != nil {
		t.Error("a result with a newline got a framed response: stdio needs it compacted")
	}
	var none *resultFrame
	if none.response(id, result) != nil {
		t.Error("no frame, yet a response")
	}
}

// TestToolCallFramedResponse: tool calls through HandleBytes answer with
// the same bytes as before the frame (the result, framed by AppendResult),
// for short and long ids and for a text whose escaping outgrows its
// buffer (the allocation saved shows in bench/budgets.json).
func TestToolCallFramedResponse(t *testing.T) {
	s, err := New(Options{Name: "bench", Version: "1", Tools: []Tool{weatherTool()}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, id := range []string{`1`, `"` + strings.Repeat("z", 60) + `"`} {
		msg := []byte(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"weather_current","arguments":{"location":"Paris"}}}`)
		resp := s.HandleBytes(ctx, msg, nil)
		var env struct {
			ID     json.RawMessage `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal(resp.Body, &env); err != nil || string(env.ID) != id || !bytes.Contains(env.Result, []byte(`Paris`)) {
			t.Fatalf("id %s: %s (%v)", id, resp.Body, err)
		}
		decoded, _ := jsonrpc.Decode(msg)
		if want := jsonrpc.AppendResult(nil, decoded.ID, env.Result); !bytes.Equal(resp.Body, want) {
			t.Fatalf("id %s: %s, want %s", id, resp.Body, want)
		}
	}
	// A text whose escaping outgrows the estimate: answered by copying.
	ctrl := strings.Repeat(`\u0001`, 500)
	grown := []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"weather_current","arguments":{"location":"` + ctrl + `"}}}`)
	if resp := s.HandleBytes(ctx, grown, nil); !json.Valid(resp.Body) || !bytes.Contains(resp.Body, []byte(`\u0001\u0001`)) {
		t.Fatalf("escaped text: %.200s", resp.Body)
	}
}
