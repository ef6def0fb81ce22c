package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// TestStdioTimedOutAskGivesItsSlotBack: with a RequestTimeout the handler
// runs on a goroutine of its own; a legacy request that times out while its
// Ask waits for the client (which never answers) must not take its
// in-flight slot again after it ended. With one slot, a single leak would
// leave the read loop waiting for a slot for good: every request must get
// its timeout answer, and the connection must end at EOF.
func TestStdioTimedOutAskGivesItsSlotBack(t *testing.T) {
	type none struct{}
	s, err := New(Options{Name: "slots", Version: "1", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Limits: Limits{MaxInFlightPerConn: 1, RequestTimeout: 10 * time.Millisecond},
		Tools: []Tool{NewTool(ToolInfo{Name: "ask_name"}, func(ctx context.Context, _ none) (string, error) {
			_, err := Ask(ctx, "name", &mcp.ElicitRequest{Params: &mcp.ElicitRequestFormParams{Message: "Name?",
				RequestedSchema: mcp.ElicitRequestFormParamsRequestedSchema{
					Properties: map[string]mcp.PrimitiveSchemaDefinition{"name": &mcp.StringSchema{}}}}})
			return "asked", err
		})}})
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	go func() { served <- s.ServeStdio(context.Background(), inR, outW); outW.Close() }()
	answers := make(chan map[string]any, 100) // responses only
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) == nil && m["method"] == nil {
				answers <- m
			}
		}
	}()
	call := func(id int, line string) map[string]any {
		t.Helper()
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
		select {
		case m := <-answers:
			return m
		case <-time.After(3 * time.Second):
			t.Fatalf("request %d: no answer in 3 s (the read loop waits for an in-flight slot nobody gives back)", id)
			return nil
		}
	}
	call(0, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"c","version":"1"}}}`)
	io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	for id := 1; id <= 150; id++ {
		m := call(id, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"ask_name"}}`, id))
		if m["error"] == nil {
			t.Fatalf("request %d: %v, want the timeout error", id, m)
		}
		time.Sleep(2 * time.Millisecond) // the timed-out handler finishes while the slot is free
	}
	inW.Close()
	select {
	case <-served:
	case <-time.After(5 * time.Second):
		t.Fatal("ServeStdio did not return within 5 s of the end of its input")
	}
}
