package client_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/client"
	"github.com/mcpgen/mcpgen/generated/mcp"
)

// The scripted servers below answer tools/call after sending a request of
// their own, elicitRequest, and waiting up to answerWait for the client's
// answer to it.
const (
	elicitRequest = `{"jsonrpc":"2.0","id":"srv-1","method":"elicitation/create","params":{"message":"password?","requestedSchema":{"type":"object","properties":{}}}}`
	answerWait    = 300 * time.Millisecond
	legacyInitFmt = `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}`
)

// lockedBuffer is a bytes.Buffer a logger writes to from the client's
// goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// serverRequestCase is one era of TestModernSessionDropsServerRequests.
type serverRequestCase struct {
	era         client.Era
	wantAnswer  bool // the Elicit handler runs and the server gets its answer
	wantWarning bool // the client logs the request it dropped
}

var serverRequestCases = map[string]serverRequestCase{
	"modern": {era: client.EraAuto, wantAnswer: false, wantWarning: true},
	"legacy": {era: client.EraLegacy, wantAnswer: true, wantWarning: false},
}

// checkServerRequest connects over tr, calls a tool whose server sends
// elicitRequest on the way, and checks what became of that request.
func checkServerRequest(t *testing.T, tr client.Transport, answered <-chan bool, tc serverRequestCase) {
	t.Helper()
	var elicited atomic.Int64
	var log lockedBuffer
	c := connect(t, tr, &client.Options{Era: tc.era, Logger: slog.New(slog.NewTextHandler(&log, nil)),
		Elicit: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			elicited.Add(1)
			return &mcp.ElicitResult{Action: "decline"}, nil
		}})
	if c.Legacy() != (tc.era == client.EraLegacy) {
		t.Fatalf("legacy session %v with Era %v", c.Legacy(), tc.era)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := c.CallTool(ctx, &mcp.CallToolRequestParams{Name: "x"}); err != nil {
		t.Fatalf("the call failed: %v", err)
	}
	if got := <-answered; got != tc.wantAnswer {
		t.Errorf("the server got an answer to its request: %v, want %v", got, tc.wantAnswer)
	}
	if got := elicited.Load() == 1; got != tc.wantAnswer {
		t.Errorf("the Elicit handler ran %d times", elicited.Load())
	}
	warned := strings.Contains(log.String(), "dropped a request") && strings.Contains(log.String(), "elicitation/create")
	if warned != tc.wantWarning {
		t.Errorf("warning logged: %v, want %v; log:\n%s", warned, tc.wantWarning, log.String())
	}
}

// A 2026-07-28 server sends no requests of its own (stdio.mdx: "The server
// MUST NOT write JSON-RPC requests to stdout"; streamable-http.mdx: "The
// server MUST NOT send independent JSON-RPC requests on this stream", "The
// client MUST NOT send JSON-RPC responses"): in a modern session such a
// request is dropped with a warning, neither served nor answered, while the
// call it came with goes on. A legacy session still serves it.
func TestModernSessionDropsServerRequests(t *testing.T) {
	for name, tc := range serverRequestCases {
		t.Run("stdio/"+name, func(t *testing.T) {
			tr, answered := serverRequestStdio(t)
			checkServerRequest(t, tr, answered, tc)
		})
		t.Run("http/"+name, func(t *testing.T) {
			tr, answered := serverRequestHTTP(t)
			checkServerRequest(t, tr, answered, tc)
		})
	}
}

// serverRequestStdio is a stdio server of either era that sends
// elicitRequest while it serves tools/call; answered reports whether the
// client answered it.
func serverRequestStdio(t *testing.T) (client.Transport, <-chan bool) {
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	t.Cleanup(func() { cw.Close(); sr.Close() })
	msgs := make(chan wireRequest, 16)
	go func() {
		defer close(msgs)
		sc := bufio.NewScanner(sr)
		for sc.Scan() {
			var m wireRequest
			if json.Unmarshal(sc.Bytes(), &m) == nil {
				msgs <- m
			}
		}
	}()
	answered := make(chan bool, 1)
	go func() {
		defer sw.Close()
		for m := range msgs {
			switch m.Method {
			case "server/discover":
				fmt.Fprintf(sw, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", m.ID, discoverResult)
			case "initialize":
				fmt.Fprintf(sw, legacyInitFmt+"\n", m.ID)
			case "tools/call":
				fmt.Fprintln(sw, elicitRequest)
				answered <- awaitAnswer(msgs)
				fmt.Fprintf(sw, `{"jsonrpc":"2.0","id":%s,"result":{"content":[]}}`+"\n", m.ID)
			}
		}
	}()
	return client.NewStreamTransport(cr, cw, 0), answered
}

// awaitAnswer reports whether a response to elicitRequest arrives within
// answerWait.
func awaitAnswer(msgs <-chan wireRequest) bool {
	timeout := time.After(answerWait)
	for {
		select {
		case m, ok := <-msgs:
			if !ok {
				return false
			}
			if m.Method == "" && string(m.ID) == `"srv-1"` {
				return true
			}
		case <-timeout:
			return false
		}
	}
}

// serverRequestHTTP is the same server on Streamable HTTP: elicitRequest
// goes out on the tools/call response stream, an answer would be POSTed.
func serverRequestHTTP(t *testing.T) (client.Transport, <-chan bool) {
	posted := make(chan wireRequest, 16)
	answered := make(chan bool, 1)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed) // no session stream
			return
		}
		var m wireRequest
		_ = json.NewDecoder(r.Body).Decode(&m)
		switch m.Method {
		case "server/discover":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, m.ID, discoverResult)
		case "initialize":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, legacyInitFmt, m.ID)
		case "tools/call":
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "data: %s\n\n", elicitRequest)
			w.(http.Flusher).Flush()
			answered <- awaitAnswer(posted)
			fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"content\":[]}}\n\n", m.ID)
		default:
			posted <- m
			w.WriteHeader(http.StatusAccepted)
		}
	}))
	t.Cleanup(hs.Close)
	return client.HTTP(hs.URL), answered
}

// TestModernSessionRequestFloodLogsLittle: a modern server that sends 2 000
// requests of its own gets them all dropped, and the client's log gets at
// most one warning a second (with the count dropped), not one each.
func TestModernSessionRequestFloodLogsLittle(t *testing.T) {
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	t.Cleanup(func() { cw.Close(); sr.Close() })
	go func() {
		defer sw.Close()
		sc := bufio.NewScanner(sr)
		for sc.Scan() {
			var m wireRequest
			if json.Unmarshal(sc.Bytes(), &m) != nil || m.ID == nil {
				continue
			}
			if m.Method == "server/discover" {
				fmt.Fprintf(sw, `{"jsonrpc":"2.0","id":%s,"result":{"resultType":"complete","ttlMs":0,"cacheScope":"private","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}}}}`+"\n", m.ID)
				continue
			}
			for i := range 2000 {
				fmt.Fprintf(sw, `{"jsonrpc":"2.0","id":"srv-%d","method":"elicitation/create","params":{"message":"?","requestedSchema":{"type":"object","properties":{}}}}`+"\n", i)
			}
			fmt.Fprintf(sw, `{"jsonrpc":"2.0","id":%s,"result":{"content":[]}}`+"\n", m.ID)
		}
	}()
	var log lockedBuffer
	var elicited atomic.Int64
	c := connect(t, client.NewStreamTransport(cr, cw, 0), &client.Options{Era: client.EraAuto,
		Logger: slog.New(slog.NewTextHandler(&log, nil)),
		Elicit: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			elicited.Add(1)
			return &mcp.ElicitResult{Action: "decline"}, nil
		}})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	start := time.Now()
	if _, err := c.CallTool(ctx, &mcp.CallToolRequestParams{Name: "x"}); err != nil {
		t.Fatalf("the call failed: %v", err)
	}
	if elicited.Load() != 0 {
		t.Fatalf("the Elicit handler ran %d times in a modern session", elicited.Load())
	}
	warnings := strings.Count(log.String(), "dropped a request")
	if limit := 1 + int(time.Since(start)/time.Second); warnings == 0 || warnings > limit {
		t.Fatalf("%d warnings for 2 000 dropped requests in %v (want 1 to %d); log:\n%.600s", warnings, time.Since(start), limit, log.String())
	}
}
