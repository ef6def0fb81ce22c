package server

import (
	"bytes"
	"context"
	"encoding/json"
	"runtime"
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

// TestGeneratedResultFramedResponse: a generated result (resources/read)
// encoded behind the frame's room answers with the bytes AppendResult
// builds around it, for short and long ids (a long one is copied), for a
// result within the frame's first capacity and one that grows it, and its
// encoding is not copied again into the response.
func TestGeneratedResultFramedResponse(t *testing.T) {
	for _, size := range []int{3, 64 << 10} {
		blob := bytes.Repeat([]byte{0xfb}, size)
		res := NewResource(ResourceInfo{URI: "file:///blob", Name: "blob", MIMEType: "application/octet-stream"},
			func(context.Context) ([]byte, error) { return blob, nil })
		s, err := New(Options{Name: "bench", Version: "1", Resources: []Resource{res}})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		for _, id := range []string{`1`, `"` + strings.Repeat("z", 60) + `"`} {
			msg := []byte(`{"jsonrpc":"2.0","id":` + id + `,"method":"resources/read","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"uri":"file:///blob"}}`)
			resp := s.HandleBytes(ctx, msg, nil)
			var env struct {
				ID     json.RawMessage `json:"id"`
				Result struct {
					Contents []struct {
						Blob []byte `json:"blob"`
					} `json:"contents"`
				} `json:"result"`
			}
			if err := json.Unmarshal(resp.Body, &env); err != nil || string(env.ID) != id ||
				len(env.Result.Contents) != 1 || !bytes.Equal(env.Result.Contents[0].Blob, blob) {
				t.Fatalf("size %d, id %s: %.300s (%v)", size, id, resp.Body, err)
			}
			decoded, _ := jsonrpc.Decode(msg)
			var raw struct {
				Result json.RawMessage `json:"result"`
			}
			json.Unmarshal(resp.Body, &raw)
			if want := jsonrpc.AppendResult(nil, decoded.ID, raw.Result); !bytes.Equal(resp.Body, want) {
				t.Fatalf("size %d, id %s: %s, want %s", size, id, resp.Body, want)
			}
		}
		// The response is the encoded result framed in place: one buffer
		// of the result's size, not two.
		msg := []byte(`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"uri":"file:///blob"}}`)
		body := len(s.HandleBytes(ctx, msg, nil).Body)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		const n = 20
		for range n {
			s.HandleBytes(ctx, msg, nil)
		}
		runtime.ReadMemStats(&after)
		slack := body/2 + 4096
		if raceEnabled {
			slack += body // the encoder's slices.Grow allocates twice (race_on_test.go)
		}
		if per := int(after.TotalAlloc-before.TotalAlloc) / n; size > resultStart && per > body+slack {
			t.Errorf("size %d: %d bytes allocated per read for a %d-byte response: the result is copied", size, per, body)
		}
	}
}
