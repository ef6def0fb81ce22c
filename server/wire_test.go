package server

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// Every byte written is valid JSON-RPC.

func TestProgressIsFiniteAndIncreasing(t *testing.T) {
	f := newFixture(t, func(o *Options) {
		o.Tools = append(o.Tools, NewTool(ToolInfo{Name: "odd_progress", Description: "reports odd progress"}, func(ctx context.Context, in noArgs) (string, error) {
			for _, p := range []struct{ progress, total float64 }{
				{math.NaN(), 10}, {1, math.Inf(1)}, {math.Inf(1), 10}, {1, 10}, {0.5, 10}, {2, math.NaN()}, {math.Inf(-1), 0}, {3, 10},
			} {
				Progress(ctx, p.progress, p.total, "")
			}
			return "ok", nil
		}))
	})
	rec := newRecorder()
	r, _ := rpcMeta(t, f.s, "tools/call", `{"name":"odd_progress","arguments":{}}`,
		`{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":"p"}`, rec)
	wantResult(t, r)
	var got []string
	for _, n := range rec.all() {
		if !json.Valid(n.Params) {
			t.Fatalf("invalid JSON notification %s", n.Params)
		}
		var p struct {
			Progress float64  `json:"progress"`
			Total    *float64 `json:"total"`
		}
		_ = json.Unmarshal(n.Params, &p)
		got = append(got, string(n.Params))
	}
	want := []string{`{"progressToken":"p","progress":1}`, `{"progressToken":"p","progress":2}`, `{"progressToken":"p","progress":3,"total":10}`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("progress notifications:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestCacheScopeFailsClosed(t *testing.T) {
	// SetCachePolicy with a scope it does not know sends "private".
	for scope, want := range map[string]string{"": "public", "public": "public", "private": "private", "shared": "private", "Public": "private"} {
		f := newFixture(t, func(o *Options) {
			o.Resources = append(o.Resources, NewResource(ResourceInfo{URI: "test://cached", Name: "cached"}, func(ctx context.Context) (string, error) {
				SetCachePolicy(ctx, CachePolicy{TTLMs: 5, Scope: scope})
				return "x", nil
			}))
		})
		if got := rpc(t, f.s, "resources/read", `{"uri":"test://cached"}`).field(t, "cacheScope"); got != want {
			t.Errorf("SetCachePolicy scope %q: cacheScope %v, want %s", scope, got, want)
		}
	}
	// Options.Cache with one is an error from New.
	if _, err := New(Options{Name: "x", Version: "1", Cache: CachePolicy{Scope: "shared"}}); err == nil {
		t.Error("New accepted Options.Cache.Scope \"shared\"")
	}
}

func TestNullArgumentsAreInvalidParams(t *testing.T) {
	f := newFixture(t)
	for _, args := range []string{`null`, `"x"`, `[]`, `1`} {
		r := rpc(t, f.s, "tools/call", `{"name":"fail","arguments":`+args+`}`)
		wantError(t, r, -32602)
		if !strings.Contains(r.Error.Message, "arguments") {
			t.Errorf("arguments %s: message %q", args, r.Error.Message)
		}
	}
	wantResult(t, rpc(t, f.s, "tools/call", `{"name":"content"}`)) // absent is fine
}

func TestHandlersMustImplementAnInterface(t *testing.T) {
	type notAHandler struct{}
	_, err := New(Options{Name: "x", Version: "1", Handlers: []any{notAHandler{}}})
	if err == nil || !strings.Contains(err.Error(), "Handlers[0]") || !strings.Contains(err.Error(), "notAHandler") {
		t.Fatalf("New with a value implementing no handler interface: %v", err)
	}
}

// TestDuplicateParamsMembers: a member repeated in params or params._meta
// is -32602 in both eras, so no reader keeps the first value and another
// the last.
func TestDuplicateParamsMembers(t *testing.T) {
	f := newFixture(t)
	for _, msg := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","name":"fail","arguments":{"text":"a"},"_meta":` + goodMeta + `}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","\u006eame":"fail","arguments":{"text":"a"},"_meta":` + goodMeta + `}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/protocolVersion":"1999-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}`,
		// the empty name is a name: repeated, it is a duplicate too
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":` + goodMeta + `,"":1,"":2}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"":1,"":2,"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`,
	} {
		r, _ := rawRPC(t, f.s, msg, nil)
		wantError(t, r, -32602)
		if !strings.Contains(r.Error.Message, "duplicate") {
			t.Errorf("%s: message %q", msg, r.Error.Message)
		}
	}
}
