package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// legacyFaultInit initializes a 2025-03-26 legacy session on a fault-kit
// stdio connection.
func legacyFaultInit(t *testing.T, f *faultStdio) {
	t.Helper()
	f.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"old","version":"1"}}}`)
	if m := f.reply(); m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	f.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

func legacyToolCall(id, tool string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"` + tool + `","arguments":{}}}`
}

// batchAnswers returns the responses of the batch response lines of out,
// by id.
func batchAnswers(t *testing.T, out []string) map[string]map[string]any {
	t.Helper()
	got := map[string]map[string]any{}
	for _, line := range out {
		if !strings.HasPrefix(line, "[") {
			continue
		}
		var arr []map[string]any
		if err := json.Unmarshal([]byte(line), &arr); err != nil {
			t.Fatalf("batch response %q: %v", line, err)
		}
		for _, m := range arr {
			got[idOf(m)] = m
		}
	}
	return got
}

// TestStdioBatchRequestsHoldInFlightSlots: each request of a batch line
// takes an in-flight slot of Limits.MaxInFlightPerConn as a request of its
// own does (limits.go, README "How a request flows": "stdio: at
// MaxInFlightPerConn the next line is not read"): with the cap at 2,
// three batch lines of two blocking calls each run two handlers at once,
// not six. When the server then shuts down, every request is answered in
// its batch's response: the running ones with the shutdown error, the
// ones not started refused as the server drains.
func TestStdioBatchRequestsHoldInFlightSlots(t *testing.T) {
	k := limitServer(t, Limits{MaxInFlightPerConn: 2})
	f := startFaultStdio(t, k.s, 0)
	legacyFaultInit(t, f)
	for b := 0; b < 3; b++ {
		id1, id2 := string(rune('1'+2*b)), string(rune('2'+2*b))
		f.send("[" + legacyToolCall(id1, "until_cancel") + "," + legacyToolCall(id2, "until_cancel") + "]")
	}
	running := 0
	deadline := time.After(500 * time.Millisecond)
loop:
	for {
		select {
		case <-k.started:
			running++
		case <-deadline:
			break loop
		}
	}
	// At the cap the loop reads nothing more, the end of the input
	// included: the server's Shutdown ends the requests.
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	k.s.Shutdown(ctx)
	_, _, rest := f.closeIn(8 * time.Second)
	if running > 2 {
		t.Fatalf("%d requests of one stdio connection ran at once with MaxInFlightPerConn 2; want at most 2", running)
	}
	got := batchAnswers(t, rest)
	for id := 1; id <= 6; id++ {
		m := got[strconv.Itoa(id)]
		if errorCode(m) != -32603 || reasonOf(m) != reasonShutdown {
			t.Errorf("request %d: %v, want -32603 reason shutdown in its batch response (output %q)", id, m, rest)
		}
	}
}

// TestStdioBatchRequestUnfinishedAtEOFAnswered: ServeStdio's contract
// (stdio.go): "At the end of in, … other requests get up to 2 s to finish
// and be answered, then the ones left are answered with -32603
// {"reason":"shutdown"}"; a request in a batch line too, in the batch
// response.
func TestStdioBatchRequestUnfinishedAtEOFAnswered(t *testing.T) {
	k := limitServer(t, Limits{})
	f := startFaultStdio(t, k.s, 0)
	legacyFaultInit(t, f)
	f.send("[" + legacyToolCall("7", "until_cancel") + "]")
	k.waitFor(t, k.started, "until_cancel")
	_, _, rest := f.closeIn(8 * time.Second)
	var answers []string
	for _, line := range rest {
		if strings.Contains(line, `"id":7`) {
			answers = append(answers, line)
		}
	}
	if len(answers) != 1 || !strings.HasPrefix(answers[0], "[") || !strings.Contains(answers[0], reasonShutdown) {
		t.Fatalf("after the end of input, the batched request got answers %q; want one: -32603 reason shutdown in a batch response", answers)
	}
}

// TestStdioSingleRequestUnfinishedAtEOFAnswered is the control: the same
// request not batched is answered with the shutdown error.
func TestStdioSingleRequestUnfinishedAtEOFAnswered(t *testing.T) {
	k := limitServer(t, Limits{})
	f := startFaultStdio(t, k.s, 0)
	legacyFaultInit(t, f)
	f.send(legacyToolCall("7", "until_cancel"))
	k.waitFor(t, k.started, "until_cancel")
	_, _, rest := f.closeIn(8 * time.Second)
	for _, line := range rest {
		if strings.Contains(line, `"id":7`) && strings.Contains(line, reasonShutdown) {
			return
		}
	}
	t.Fatalf("output %q", rest)
}

// TestStdioBatchedAsksDoNotDeadlock: a batch request that waits for the
// client's answer to a server-to-client request gives its in-flight slot
// back meanwhile, as a single request does: a batch of more asking
// requests than MaxInFlightPerConn still sends every request to the
// client, and reads its answers.
func TestStdioBatchedAsksDoNotDeadlock(t *testing.T) {
	sample := NewTool(ToolInfo{Name: "sample"}, func(ctx context.Context, in noArgs) (string, error) {
		r, err := Ask(ctx, "greeting", &mcp.CreateMessageRequest{Params: mcp.CreateMessageRequestParams{MaxTokens: 50,
			Messages: []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: &mcp.TextContent{Text: "Greet"}}}}})
		if err != nil {
			return "", err
		}
		return r.(*mcp.CreateMessageResult).Content.(*mcp.TextContent).Text, nil
	})
	f := newFixture(t, func(o *Options) { o.Tools = append(o.Tools, sample) })
	f.s.lim.cfg.MaxInFlightPerConn = 2
	p := startLegacyStdio(t, f.s)
	p.initialize("2025-03-26", `{"sampling":{}}`)
	const n = 5
	var calls []string
	for i := 1; i <= n; i++ {
		calls = append(calls, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"sample"}}`, i))
	}
	p.send("[" + strings.Join(calls, ",") + "]")
	for range n {
		req := p.serverRequest()
		p.send(`{"jsonrpc":"2.0","id":` + idOf(req) + `,"result":{"role":"assistant","content":{"type":"text","text":"Howdy"},"model":"m"}}`)
	}
	got := batchAnswers(t, []string{p.nextRaw()})
	for i := 1; i <= n; i++ {
		if m := got[strconv.Itoa(i)]; m == nil || lgText(t, resultOf(t, m)) != "Howdy" {
			t.Errorf("request %d: %v, want Howdy", i, m)
		}
	}
}
