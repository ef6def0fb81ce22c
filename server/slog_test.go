package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// TestLogRequestsLevels: LogRequests logs each request once, at the level
// its outcome deserves, with the documented attributes.
func TestLogRequestsLevels(t *testing.T) {
	var buf bytes.Buffer
	var mu sync.Mutex
	logger := slog.New(slog.NewJSONHandler(lockedWriter{&mu, &buf}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	f := newFixture(t, func(o *Options) {
		o.Interceptors = []Interceptor{LogRequests(logger, LogOptions{})}
		o.Limits.RequestTimeout = 50 * time.Millisecond
	})
	rpc(t, f.s, "tools/call", `{"name":"echo","arguments":{"text":"x"}}`)
	rpc(t, f.s, "tools/call", `{"name":"fail","arguments":{}}`)
	rpc(t, f.s, "tools/call", `{"name":"nope"}`)
	rpc(t, f.s, "tools/call", `{"name":"boom","arguments":{}}`)
	rawRPC(t, f.s, `{"jsonrpc":"2.0","id":9,"method":"tools/list","params":{}}`, nil) // no _meta: -32602
	// A request past Limits.RequestTimeout, over stdio (Handle has no limits).
	peer := startStdio(t, f.s, 0)
	peer.send(`{"jsonrpc":"2.0","id":10,"method":"tools/call","params":` + withMeta(`{"name":"slow","arguments":{"tag":"t"}}`, defaultMeta) + `}`)
	if r := peer.next(); r["error"] == nil {
		t.Fatalf("timeout: %v", r)
	}
	var recs []map[string]any
	deadline := time.Now().Add(2 * time.Second)
	for {
		mu.Lock()
		out := buf.String()
		mu.Unlock()
		recs = recs[:0]
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var m map[string]any
			if err := json.Unmarshal([]byte(line), &m); err != nil {
				t.Fatalf("log line %q: %v", line, err)
			}
			recs = append(recs, m)
		}
		if len(recs) >= 6 || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	want := []struct{ level, name, outcome string }{
		{"INFO", "echo", "ok"},
		{"WARN", "fail", "tool_error"},
		{"WARN", "nope", "error"},
		{"ERROR", "boom", "error"},
		{"WARN", "", "error"},
		{"ERROR", "slow", "timeout"},
	}
	if len(recs) != len(want) {
		t.Fatalf("%d records: %v", len(recs), recs)
	}
	for i, w := range want {
		r := recs[i]
		name, _ := r["name"].(string)
		if r["level"] != w.level || name != w.name || r["outcome"] != w.outcome || r["method"] == nil || r["duration"] == nil || r["msg"] != "mcp request" {
			t.Errorf("record %d: %v, want %+v", i, r, w)
		}
	}
	if recs[0]["protocolVersion"] != "2026-07-28" || recs[0]["id"] != "7" {
		t.Errorf("attributes: %v", recs[0])
	}
	if recs[2]["code"] != float64(-32602) || recs[3]["code"] != float64(-32603) {
		t.Errorf("codes: %v %v", recs[2], recs[3])
	}

	// SuccessLevel Debug: a logger at Info logs no successes.
	buf.Reset()
	quiet := slog.New(slog.NewJSONHandler(lockedWriter{&mu, &buf}, nil))
	debug := slog.LevelDebug
	g := newFixture(t, func(o *Options) { o.Interceptors = []Interceptor{LogRequests(quiet, LogOptions{SuccessLevel: &debug})} })
	rpc(t, g.s, "tools/list", `{}`)
	rpc(t, g.s, "tools/call", `{"name":"nope"}`)
	mu.Lock()
	out := buf.String()
	mu.Unlock()
	if strings.Count(out, "\n") != 1 || !strings.Contains(out, `"name":"nope"`) {
		t.Fatalf("quiet log: %s", out)
	}
}

func TestLoggingLevelMapping(t *testing.T) {
	for l, want := range map[slog.Level]mcp.LoggingLevel{
		slog.LevelDebug - 4: "debug", slog.LevelDebug: "debug", slog.LevelInfo: "info",
		slog.LevelInfo + 2: "notice", slog.LevelWarn: "warning", slog.LevelError: "error",
		slog.LevelError + 4: "critical", slog.LevelError + 8: "alert", slog.LevelError + 12: "emergency",
		slog.LevelError + 40: "emergency",
	} {
		if got := LoggingLevel(l); got != want {
			t.Errorf("LoggingLevel(%v) = %s, want %s", l, got, want)
		}
	}
}

// clientLogTool logs through a ClientLogHandler at several levels.
func clientLogTool() Tool {
	logger := slog.New(ClientLogHandler(ClientLogOptions{Logger: "app"})).With("tool", "chatty").WithGroup("req")
	return NewTool(ToolInfo{Name: "chatty"}, func(ctx context.Context, in noArgs) (string, error) {
		logger.DebugContext(ctx, "debug detail")
		logger.InfoContext(ctx, "working", "step", 1)
		logger.WarnContext(ctx, "odd", slog.Group("g", "k", "v"), "err", errors.New("bad thing"), "d", time.Second)
		logger.ErrorContext(ctx, "failed")
		logger.Warn("no context: dropped")
		return "done", nil
	})
}

// TestClientLogHandler: records reach the client as notifications/message
// at or above the level it asked for, in both eras, with the level mapped
// and the attributes as data.
func TestClientLogHandler(t *testing.T) {
	f := newFixture(t, func(o *Options) { o.Tools = append(o.Tools, clientLogTool()) })
	w := newRecorder()
	meta := `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"warning"}`
	r, _ := rpcMeta(t, f.s, "tools/call", `{"name":"chatty","arguments":{}}`, meta, w)
	wantResult(t, r)
	notes := w.all()
	if len(notes) != 2 {
		t.Fatalf("notifications: %v", notes)
	}
	var warn struct {
		Level  string         `json:"level"`
		Logger string         `json:"logger"`
		Data   map[string]any `json:"data"`
	}
	if err := json.Unmarshal(notes[0].Params, &warn); err != nil || notes[0].Method != "notifications/message" {
		t.Fatalf("%s %s: %v", notes[0].Method, notes[0].Params, err)
	}
	data, _ := json.Marshal(warn.Data)
	if warn.Level != "warning" || warn.Logger != "app" ||
		string(data) != `{"message":"odd","req":{"d":"1s","err":"bad thing","g":{"k":"v"}},"tool":"chatty"}` {
		t.Fatalf("warning notification: %s", notes[0].Params)
	}
	if !strings.Contains(string(notes[1].Params), `"level":"error"`) {
		t.Fatalf("error notification: %s", notes[1].Params)
	}
	// Without logLevel: nothing.
	w = newRecorder()
	rpcMeta(t, f.s, "tools/call", `{"name":"chatty","arguments":{}}`, defaultMeta, w)
	if n := w.all(); len(n) != 0 {
		t.Fatalf("sent without logLevel: %v", n)
	}
	// A legacy session on stdio: nothing before logging/setLevel, then
	// what it set.
	peer := startStdio(t, f.s, 0)
	peer.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"old","version":"1"}}}`)
	peer.next()
	peer.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"chatty","arguments":{}}}`)
	if m := peer.next(); m["id"] != float64(2) {
		t.Fatalf("before setLevel got %v", m)
	}
	peer.send(`{"jsonrpc":"2.0","id":3,"method":"logging/setLevel","params":{"level":"info"}}`)
	peer.next()
	peer.send(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"chatty","arguments":{}}}`)
	var levels []string
	for {
		m := peer.next()
		if m["id"] == float64(4) {
			break
		}
		if m["method"] != "notifications/message" {
			t.Fatalf("unexpected %v", m)
		}
		levels = append(levels, m["params"].(map[string]any)["level"].(string))
	}
	if strings.Join(levels, ",") != "info,warning,error" {
		t.Fatalf("legacy levels %v", levels)
	}
}
