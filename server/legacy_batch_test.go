package server

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// openBatchSession opens a legacy HTTP session at version and returns it
// initialized.
func openBatchSession(t *testing.T, url, version string) *lgHTTP {
	t.Helper()
	c := &lgHTTP{t: t, url: url}
	resp := c.post(lgBody("1", "initialize", `{"protocolVersion":"`+version+`","capabilities":{},"clientInfo":{"name":"old","version":"1"}}`),
		"MCP-Protocol-Version", version)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), `"protocolVersion":"`+version+`"`) {
		t.Fatalf("initialize %s: %d %s", version, resp.StatusCode, b)
	}
	c.sid = resp.Header.Get("Mcp-Session-Id")
	r := c.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, "MCP-Protocol-Version", version)
	r.Body.Close()
	return c
}

// TestLegacy20250326SessionAcceptsBatch: a session that negotiated
// 2025-03-26 speaks that revision, whose JSONRPCMessage includes
// JSONRPCBatchRequest (schema/2025-03-26/schema.json, "A JSON-RPC batch
// request"; that revision's basic/index: implementations MUST support
// receiving batches). README (Compatibility): an initialize starts a
// session "at the version the client asks for among 2025-11-25,
// 2025-06-18, 2025-03-26, 2024-11-05". A batch of two requests in such a
// session is answered with an array of both responses.
func TestLegacy20250326SessionAcceptsBatch(t *testing.T) {
	_, srv := startLegacyHTTP(t)
	c := openBatchSession(t, srv.URL, "2025-03-26")
	resp := c.post(`[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","id":3,"method":"tools/list"}]`,
		"MCP-Protocol-Version", "2025-03-26")
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), `"id":2`) || !strings.Contains(string(b), `"id":3`) || strings.Contains(string(b), `"error"`) {
		t.Errorf("batch of ping and tools/list in a 2025-03-26 session: %d %s; want both answered", resp.StatusCode, b)
	}
	var arr []json.RawMessage
	if err := json.Unmarshal(b, &arr); err != nil || len(arr) != 2 {
		t.Errorf("batch response %s: want an array of 2 responses (%v)", b, err)
	}
}

// TestLegacyBatchBounds: a batch of notifications only is 202; an empty
// batch, one over maxLegacyBatch messages and any batch in a session of a
// revision without batches (2025-06-18 removed them) are 400 -32600; an
// initialize in a batch gets its -32600 in the batch response.
func TestLegacyBatchBounds(t *testing.T) {
	_, srv := startLegacyHTTP(t)
	old := openBatchSession(t, srv.URL, "2025-03-26")
	status := func(c *lgHTTP, body string) (int, string) {
		resp := c.post(body)
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp.StatusCode, string(b)
	}
	if st, b := status(old, `[{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}]`); st != http.StatusAccepted {
		t.Errorf("batch of a notification: %d %s, want 202", st, b)
	}
	if st, b := status(old, `[]`); st != http.StatusBadRequest || !strings.Contains(b, "-32600") {
		t.Errorf("empty batch: %d %s, want 400 -32600", st, b)
	}
	pings := make([]string, maxLegacyBatch+1)
	for i := range pings {
		pings[i] = `{"jsonrpc":"2.0","id":` + strconv.Itoa(i+10) + `,"method":"ping"}`
	}
	if st, b := status(old, "["+strings.Join(pings, ",")+"]"); st != http.StatusBadRequest || !strings.Contains(b, "-32600") {
		t.Errorf("batch of %d: %d %s, want 400 -32600", len(pings), st, b)
	}
	if st, b := status(old, "["+strings.Join(pings[:maxLegacyBatch], ",")+"]"); st != http.StatusOK || strings.Count(b, `"result"`) != maxLegacyBatch {
		t.Errorf("batch of %d: %d %s, want every ping answered", maxLegacyBatch, st, b)
	}
	if st, b := status(old, `[{"jsonrpc":"2.0","id":5,"method":"initialize","params":{}}]`); st != http.StatusOK || !strings.Contains(b, "must not be part of a batch") {
		t.Errorf("initialize in a batch: %d %s, want its -32600 in the batch response", st, b)
	}
	newer := openBatchSession(t, srv.URL, "2025-06-18")
	if st, b := status(newer, `[{"jsonrpc":"2.0","id":2,"method":"ping"}]`); st != http.StatusBadRequest || !strings.Contains(b, "batch requests are not supported") {
		t.Errorf("batch in a 2025-06-18 session: %d %s, want 400", st, b)
	}
}

// TestLegacyStdio20250326SessionAcceptsBatch: on stdio too, a session at
// 2025-03-26 takes a batch line and answers it with one line, the array
// of the requests' responses; a session at 2025-06-18 refuses one.
func TestLegacyStdio20250326SessionAcceptsBatch(t *testing.T) {
	f := newFixture(t)
	p := startLegacyStdio(t, f.s)
	p.initialize("2025-03-26", `{}`)
	p.send(`[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/roots/list_changed"},{"jsonrpc":"2.0","id":3,"method":"tools/list"}]`)
	line := p.nextRaw()
	var arr []map[string]any
	if err := json.Unmarshal([]byte(line), &arr); err != nil || len(arr) != 2 {
		t.Fatalf("batch response %s: want an array of 2 responses (%v)", line, err)
	}
	for i, id := range []string{"2", "3"} {
		if idOf(arr[i]) != id || arr[i]["result"] == nil {
			t.Errorf("batch response %d: %v, want the result for id %s", i, arr[i], id)
		}
	}

	q := startLegacyStdio(t, newFixture(t).s)
	q.initialize("2025-06-18", `{}`)
	q.send(`[{"jsonrpc":"2.0","id":2,"method":"ping"}]`)
	if line := q.nextRaw(); !strings.Contains(line, "batch requests are not supported") {
		t.Errorf("batch in a 2025-06-18 session: %s, want -32600", line)
	}
}

// TestLegacyBatchAnsweredOnShutdown: over HTTP each request of a batch
// goes through the server's limits, so the end of a drain's grace answers
// a batch request still running with -32603 {"reason":"shutdown"} in the
// batch response (Server.Shutdown), and a batch sent once the drain began
// is refused request by request.
func TestLegacyBatchAnsweredOnShutdown(t *testing.T) {
	f, srv := startLegacyHTTP(t)
	c := openBatchSession(t, srv.URL, "2025-03-26")
	got := make(chan string, 1)
	go func() {
		resp := c.post(`[{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{"tag":"a"}}}]`,
			"MCP-Protocol-Version", "2025-03-26")
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		got <- string(b)
	}()
	<-f.gate.started
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	shut := make(chan error, 1)
	go func() { shut <- f.s.Shutdown(ctx) }()
	select {
	case b := <-got:
		if !strings.Contains(b, `"id":2`) || !strings.Contains(b, reasonShutdown) {
			t.Errorf("batch request running at the end of the grace: %s, want -32603 reason shutdown", b)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the batch was not answered after Shutdown")
	}
	<-shut
	resp := c.post(`[{"jsonrpc":"2.0","id":3,"method":"ping"}]`, "MCP-Protocol-Version", "2025-03-26")
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `"id":3`) || !strings.Contains(string(b), reasonShutdown) {
		t.Errorf("batch after Shutdown: %d %s, want its request refused with reason shutdown", resp.StatusCode, b)
	}
}

// TestLegacyBatchOfMalformedNotificationsIsRefused: a 2025-03-26 batch
// whose only messages are notifications the server cannot accept (params
// not an object, "result" beside "method") is 400, as the same
// notification POSTed alone is, not 202 (streamable-http.mdx, Sending
// Messages: 202 only "If the server accepts" the input, otherwise an HTTP
// error status). Beside a request, a malformed notification gets no
// element of the array (a notification is never answered); the request is
// answered.
func TestLegacyBatchOfMalformedNotificationsIsRefused(t *testing.T) {
	_, srv := startLegacyHTTP(t)
	c := openBatchSession(t, srv.URL, "2025-03-26")
	status := func(body string) (int, string) {
		resp := c.post(body, "MCP-Protocol-Version", "2025-03-26")
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp.StatusCode, string(b)
	}
	bad := `{"jsonrpc":"2.0","method":"notifications/roots/list_changed","params":"x"}`
	if st, b := status(bad); st != http.StatusBadRequest {
		t.Fatalf("the malformed notification alone: %d %s (reference: want 400)", st, b)
	}
	for _, body := range []string{
		"[" + bad + "]",
		`[{"jsonrpc":"2.0","method":"notifications/roots/list_changed","result":{}}]`,
		`[{"jsonrpc":"2.0","method":"notifications/roots/list_changed"},` + bad + `]`,
	} {
		if st, b := status(body); st == http.StatusAccepted {
			t.Errorf("batch %s of a notification the server cannot accept: 202 Accepted %q; want an HTTP error status (400), as for the same notification alone", body, b)
		}
	}
	st, b := status(`[{"jsonrpc":"2.0","id":7,"method":"ping"},` + bad + `]`)
	var arr []json.RawMessage
	if err := json.Unmarshal([]byte(b), &arr); st != http.StatusOK || err != nil || len(arr) != 1 || !strings.Contains(b, `"id":7`) {
		t.Errorf("batch of a ping and a malformed notification: %d %s; want an array of the ping's response only", st, b)
	}
}

// A 2025-03-26 session's batch is capped at 64 messages, and refusing a
// longer one costs about its body: the elements are counted by scanning,
// not by splitting the body into a slice first (a 4 MiB body of two
// million tiny elements made the server allocate about 240 MB before its
// -32600). README, Limits: "Every bound is explicit".
func TestLegacyBatchOverCapCostsAboutItsBody(t *testing.T) {
	_, srv := startLegacyHTTP(t)
	sid := openSessionVersion(t, srv.URL, "2025-03-26")
	body := "[" + strings.Repeat("0,", 2<<20-2) + "0]" // just under 4 MiB
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	st, b, _ := lgDo(t, http.MethodPost, srv.URL, body,
		"Content-Type", "application/json", "Accept", "application/json, text/event-stream", "Mcp-Session-Id", sid)
	runtime.ReadMemStats(&m1)
	if st != http.StatusBadRequest || !strings.Contains(b, "-32600") {
		t.Fatalf("oversized batch: %d %s, want 400 -32600", st, b)
	}
	if got := (m1.TotalAlloc - m0.TotalAlloc) >> 20; got > 80 {
		t.Errorf("refusing a %d-byte batch of %d messages allocated %d MiB (client and server together); want well under 80 MiB", len(body), 2<<20-1, got)
	}
}
