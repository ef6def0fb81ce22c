package server

import (
	"encoding/json"
	"io"
	"net/http/httptest"
	"testing"
	"time"
)

// TestLegacyBatchAdmitsItsRequestsInOrder: the requests of a 2025-03-26
// HTTP batch go through the server's limits "like a request of its own"
// each, and a client that sends requests one after another has them
// admitted in that order. With Limits.MaxInFlight 1 and a batch of four
// slow calls, the first call runs and the three after it are refused
// busy. Each request was given a goroutine that raced the others to the
// in-flight cap, so whichever was scheduled first ran (often the last
// one), and a goroutine was spent on every request before admission.
func TestLegacyBatchAdmitsItsRequestsInOrder(t *testing.T) {
	const batch = `[` +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{"tag":"a"}}},` +
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"slow","arguments":{"tag":"b"}}},` +
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"slow","arguments":{"tag":"c"}}},` +
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"slow","arguments":{"tag":"d"}}}]`
	for round := range 10 {
		f := newFixture(t, func(o *Options) { o.Limits = Limits{MaxInFlight: 1} })
		srv := httptest.NewServer(f.s.HTTPHandler(HTTPOptions{}))
		c := openBatchSession(t, srv.URL, "2025-03-26")
		inFlightSettles(t, f.s) // initialize's slot is given back after its answer
		got := make(chan string, 1)
		go func() {
			resp := c.post(batch, "MCP-Protocol-Version", "2025-03-26")
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			got <- string(b)
		}()
		var tag string
		select {
		case tag = <-f.gate.started:
		case <-time.After(5 * time.Second):
			t.Fatal("no request of the batch started")
		}
		time.Sleep(200 * time.Millisecond) // the batch's loop admits the rest meanwhile (microseconds; loaded machines)
		close(f.gate.release)
		b := <-got
		srv.Close()
		if tag != "a" {
			t.Fatalf("round %d: the request with tag %q ran under MaxInFlight 1, want the batch's first (a); response %s", round, tag, b)
		}
		var answers []struct {
			ID     int             `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal([]byte(b), &answers); err != nil || len(answers) != 4 {
			t.Fatalf("round %d: batch response %s (%v), want 4 answers", round, b, err)
		}
		for _, a := range answers {
			if ran := a.Result != nil; ran != (a.ID == 2) {
				t.Errorf("round %d: id %d answered %s; want only id 2 to run", round, a.ID, a.Result)
			}
		}
	}
}

// TestLegacyStdioBatchAdmitsItsRequestsInOrder: on stdio too, with
// Limits.MaxInFlight 1 the first call of a batch runs and the three after
// it are refused busy (each was admitted on a goroutine of its own, in
// whatever order they were scheduled).
func TestLegacyStdioBatchAdmitsItsRequestsInOrder(t *testing.T) {
	const batch = `[` +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{"tag":"a"}}},` +
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"slow","arguments":{"tag":"b"}}},` +
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"slow","arguments":{"tag":"c"}}},` +
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"slow","arguments":{"tag":"d"}}}]`
	for round := range 10 {
		f := newFixture(t, func(o *Options) { o.Limits = Limits{MaxInFlight: 1} })
		p := startLegacyStdio(t, f.s)
		p.initialize("2025-03-26", `{}`)
		inFlightSettles(t, f.s) // initialize's slot is given back after its answer
		p.send(batch)
		var tag string
		select {
		case tag = <-f.gate.started:
		case <-time.After(5 * time.Second):
			t.Fatal("no request of the batch started")
		}
		close(f.gate.release)
		line := p.nextRaw()
		if tag != "a" {
			t.Fatalf("round %d: the request with tag %q ran under MaxInFlight 1, want the batch's first (a); response %s", round, tag, line)
		}
		var answers []struct {
			ID     int             `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal([]byte(line), &answers); err != nil || len(answers) != 4 {
			t.Fatalf("round %d: batch response %s (%v), want 4 answers", round, line, err)
		}
		if answers[0].ID != 2 || answers[0].Result == nil {
			t.Errorf("round %d: batch response %s, want id 2 answered with its result", round, line)
		}
	}
}
