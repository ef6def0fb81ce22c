package server

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// TestLegacyProgressIncreasesAcrossRounds: Progress "follows
// progress.mdx: a progress that ... does not increase over the last one
// sent for the request, is dropped" (server.Progress doc); progress.mdx:
// "The progress value MUST increase with each notification". In a legacy
// session a handler that returns InputRequiredError itself is resolved by
// asking the client and running it again (legacySession.forward), all
// within the one client request and its one progressToken. The rounds
// share one progress record: the second round's progress 10 does not
// increase and is dropped, so the client gets [10], not [10, 10].
func TestLegacyProgressIncreasesAcrossRounds(t *testing.T) {
	tool := NewTool(ToolInfo{Name: "two_rounds"}, func(ctx context.Context, _ struct{}) (string, error) {
		Progress(ctx, 10, 100, "started")
		if State(ctx) == nil {
			SetState(ctx, json.RawMessage(`{"round":1}`))
			return "", &InputRequiredError{Requests: map[string]mcp.InputRequest{"name": elicitName("Name?")}}
		}
		return "done", nil
	})
	s, err := New(Options{Name: "p", Version: "1", Tools: []Tool{tool},
		StateKey: []byte("0123456789abcdef0123456789abcdef"),
		Logger:   slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.HTTPHandler(HTTPOptions{}))
	defer srv.Close()
	a := openSession(t, srv.URL, fullCaps)
	resp := a.post(lgBody("2", "tools/call", `{"name":"two_rounds","arguments":{},"_meta":{"progressToken":"tok"}}`))
	defer resp.Body.Close()
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("two_rounds answered %s %s, want SSE", resp.Header.Get("Content-Type"), b)
	}
	ev := newLgSSE(resp.Body)
	var progress []float64
	for {
		m, raw := ev.next(t)
		switch {
		case m["method"] == "notifications/progress":
			p, _ := m["params"].(map[string]any)["progress"].(float64)
			progress = append(progress, p)
		case m["method"] == "elicitation/create":
			ans := a.post(`{"jsonrpc":"2.0","id":` + idOf(m) + `,"result":{"action":"accept","content":{"name":"Lin"}}}`)
			ans.Body.Close()
		case m["id"] != nil && m["method"] == nil:
			if m["result"] == nil {
				t.Fatalf("two_rounds: %s", raw)
			}
			if len(progress) == 0 {
				t.Error("no progress notification for token tok")
			}
			for i := 1; i < len(progress); i++ {
				if progress[i] <= progress[i-1] {
					t.Errorf("progress for token tok: %v; must increase with each notification", progress)
					break
				}
			}
			return
		}
	}
}
