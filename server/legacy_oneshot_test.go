package server

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// oneShotAskMeta is the _meta of a request served on its own by a legacy
// session (it names 2025-11-25), whose client declares elicitation.
const oneShotAskMeta = `{"io.modelcontextprotocol/protocolVersion":"2025-11-25","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}`

const oneShotAskCall = `{"jsonrpc":"2.0","id":"c1","method":"tools/call","params":{"name":"ask_name","arguments":{},"_meta":` + oneShotAskMeta + `}}`

// wantNeedsSession checks the answer to oneShotAskCall: an answer (not a
// server-to-client request nobody could answer) saying why Ask failed.
func wantNeedsSession(t *testing.T, line string) {
	t.Helper()
	var m struct {
		ID     json.RawMessage
		Method string
	}
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatalf("bad message %q: %v", line, err)
	}
	if m.Method != "" {
		t.Fatalf("the server sent a request no answer can reach: %s", line)
	}
	if string(m.ID) != `"c1"` || !strings.Contains(line, "needs a session") {
		t.Fatalf("answer %s: want id c1 and the reason (needs a session)", line)
	}
}

// TestOneShotLegacyAskFailsFastHTTP: a POST whose _meta names 2025-11-25 is
// served by a one-request session; its tool's Ask cannot be answered (no
// session id to POST the answer under), so it fails at once instead of
// sending elicitation/create and holding the request for ever.
func TestOneShotLegacyAskFailsFastHTTP(t *testing.T) {
	f := newFixture(t)
	srv := httptest.NewServer(f.s.HTTPHandler(HTTPOptions{}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, strings.NewReader(oneShotAskCall))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", "ask_name")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("no complete answer within 3 s: %v (read %q)", err, body)
	}
	line := strings.TrimSpace(string(body))
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		var last string
		for l := range strings.Lines(line) {
			if d, ok := strings.CutPrefix(strings.TrimSpace(l), "data: "); ok {
				wantNotRequest(t, d)
				last = d
			}
		}
		line = last
	}
	wantNeedsSession(t, line)
}

// wantNotRequest fails when msg is a server-to-client request.
func wantNotRequest(t *testing.T, msg string) {
	t.Helper()
	var m struct {
		ID     json.RawMessage
		Method string
	}
	if json.Unmarshal([]byte(msg), &m) == nil && m.Method != "" && m.ID != nil {
		t.Fatalf("the server sent a request no answer can reach: %s", msg)
	}
}

// TestOneShotLegacyAskFailsFastStdio: the same request on stdio, outside
// the connection's own session (no initialize), is answered at once.
func TestOneShotLegacyAskFailsFastStdio(t *testing.T) {
	f := newFixture(t)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- f.s.ServeStdio(context.Background(), inR, outW) }()
	t.Cleanup(func() {
		inW.Close()
		<-done
		outR.Close()
	})
	if _, err := io.WriteString(inW, oneShotAskCall+"\n"); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 4)
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("the output ended without an answer")
			}
			wantNotRequest(t, l)
			if strings.Contains(l, `"id":"c1"`) {
				wantNeedsSession(t, l)
				return
			}
		case <-time.After(3 * time.Second):
			t.Fatal("no answer within 3 s")
		}
	}
}
