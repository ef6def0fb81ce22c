package server

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/jsonrpc"
)

// fuzzHandleSeeds are requests for every route of the fixture, plus broken
// envelopes and _meta; the spec's example requests are added when
// MCPGEN_SPEC_DIR is set.
var fuzzHandleSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":` + withMeta(`{"name":"weather_current","arguments":{"location":"Paris","units":"metric"}}`, defaultMeta) + `}`,
	`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":` + withMeta(`{"name":"echo","arguments":{"text":"hi"}}`, defaultMeta) + `}`,
	`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":` + withMeta(`{"name":"boom","arguments":{}}`, defaultMeta) + `}`,
	`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":` + withMeta(`{"name":"ask_name","arguments":{},"inputResponses":{"user_name":{"action":"accept","content":{"name":"A"}}}}`, defaultMeta) + `}`,
	`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":` + withMeta(`{"name":"multi_round","requestState":"AAAA"}`, defaultMeta) + `}`,
	`{"jsonrpc":"2.0","id":5,"method":"tools/list","params":` + withMeta(`{"cursor":"x"}`, defaultMeta) + `}`,
	`{"jsonrpc":"2.0","id":6,"method":"prompts/get","params":` + withMeta(`{"name":"greet","arguments":{"name":"Bo"}}`, defaultMeta) + `}`,
	`{"jsonrpc":"2.0","id":7,"method":"resources/read","params":` + withMeta(`{"uri":"test://items/7/data"}`, defaultMeta) + `}`,
	`{"jsonrpc":"2.0","id":8,"method":"resources/templates/list","params":` + withMeta(`{}`, defaultMeta) + `}`,
	`{"jsonrpc":"2.0","id":9,"method":"completion/complete","params":` + withMeta(`{"ref":{"type":"ref/prompt","name":"greet"},"argument":{"name":"tone","value":"f"}}`, defaultMeta) + `}`,
	`{"jsonrpc":"2.0","id":10,"method":"server/discover","params":` + withMeta(`{}`, `{"io.modelcontextprotocol/protocolVersion":"2025-11-25","io.modelcontextprotocol/clientCapabilities":{}}`) + `}`,
	`{"jsonrpc":"2.0","id":11,"method":"subscriptions/listen","params":` + withMeta(`{"notifications":{"toolsListChanged":true}}`, defaultMeta) + `}`,
	`{"jsonrpc":"2.0","id":12,"method":"tools/call","params":` + withMeta(`{"name":"progress"}`, `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"sampling":{}},"progressToken":7,"io.modelcontextprotocol/logLevel":"debug"}`) + `}`,
	`{"jsonrpc":"2.0","id":13,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`,
	`{"jsonrpc":"2.0","id":14,"method":"tools/call","params":{"name":"echo"}}`,
	`{"jsonrpc":"2.0","id":15,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":1}}}`,
	`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`,
	`{"jsonrpc":"2.0","id":16,"result":{}}`,
	`{"jsonrpc":"2.0","id":17}`, `[]`, `{`, `null`, "\xff",
}

// FuzzHandle feeds arbitrary bytes to HandleBytes on the full fixture (minus
// its blocking tools). It must never panic; a request always gets exactly
// one valid JSON-RPC response with its id (success with resultType, or an
// error whose code Response.Code repeats), except a listen stream, which
// may end with the context; a message that does not decode gets an error
// response unless it is a notification; notifications and responses get
// nothing.
func FuzzHandle(f *testing.F) {
	for _, s := range fuzzHandleSeeds {
		f.Add([]byte(s))
	}
	if dir := os.Getenv("MCPGEN_SPEC_DIR"); dir != "" {
		files, _ := filepath.Glob(filepath.Join(dir, "schema", "2026-07-28", "examples", "*Request", "*.json"))
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil {
				f.Add(data)
			}
		}
	}
	fx := newFixture(f, func(o *Options) {
		o.Tools = slices.DeleteFunc(o.Tools, func(t Tool) bool { return t.Name() == "slow" || t.Name() == "sleep" })
	})
	f.Fuzz(func(t *testing.T, data []byte) {
		msg, derr := jsonrpc.Decode(data)
		// A listen stream is open until its context ends: 20ms of it is
		// enough. Any other request must be answered, however loaded the
		// machine (a slow answer is not a missing one): 10s.
		wait := 10 * time.Second
		if derr == nil && msg.Method == methodListen {
			wait = 20 * time.Millisecond
		}
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		resp := fx.s.HandleBytes(ctx, data, &recorder{})
		switch {
		case derr != nil && msg.Kind != jsonrpc.KindNotification:
			checkFuzzReply(t, data, resp, msg.ID, true)
		case derr != nil || msg.Kind != jsonrpc.KindRequest:
			if resp.Body != nil {
				t.Fatalf("%q: a notification or response got %q", data, resp.Body)
			}
		case resp.Body == nil:
			if msg.Method != methodListen || ctx.Err() == nil {
				t.Fatalf("%q: request got no response", data)
			}
		default:
			checkFuzzReply(t, data, resp, msg.ID, false)
		}
	})
}

// modernEra reports whether the request in is served in the modern era
// (its _meta is usable and names 2026-07-28); others are answered in an
// initialize-era revision, whose results have no resultType.
func modernEra(in []byte) bool {
	msg, derr := jsonrpc.Decode(in)
	if derr != nil {
		return true
	}
	pr := parseRequest(msg)
	return pr.metaUsable() && pr.meta.protocolVersion == "2026-07-28" || !pr.metaUsable() && msg.Method != "initialize"
}

// checkFuzzReply checks that resp is one JSON-RPC response for id.
func checkFuzzReply(t *testing.T, in []byte, resp Response, id jsonrpc.ID, wantError bool) {
	t.Helper()
	out, derr := jsonrpc.Decode(resp.Body)
	if derr != nil {
		t.Fatalf("%q: reply %q does not decode: %v", in, resp.Body, derr)
	}
	if out.ID.String() != id.String() {
		t.Fatalf("%q: reply id %s, want %s", in, out.ID.String(), id.String())
	}
	switch out.Kind {
	case jsonrpc.KindErrorResponse:
		if resp.Code != out.Error.Code || resp.Code == 0 {
			t.Fatalf("%q: Response.Code %d, error code %d", in, resp.Code, out.Error.Code)
		}
	case jsonrpc.KindResponse:
		if wantError || resp.Code != 0 {
			t.Fatalf("%q: success %q for a message that does not decode (code %d)", in, resp.Body, resp.Code)
		}
		var r struct {
			ResultType string `json:"resultType"`
		}
		if err := json.Unmarshal(out.Result, &r); err != nil || r.ResultType == "" && modernEra(in) {
			t.Fatalf("%q: result without resultType: %q", in, out.Result)
		}
	default:
		t.Fatalf("%q: reply %q is a %v", in, resp.Body, out.Kind)
	}
}
