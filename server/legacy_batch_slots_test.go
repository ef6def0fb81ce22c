package server

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// batchSlotsMix is a 2025-03-26 batch whose requests end every way a
// request can: a result, a tool error, a panic, a timeout, a refusal
// over the cap.
const batchSlotsMix = `[` +
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}},` +
	`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"boom","arguments":{}}},` +
	`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"slow","arguments":{"tag":"t"}}},` +
	`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"fail","arguments":{}}},` +
	`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"text":"y"}}},` +
	`{"jsonrpc":"2.0","id":6,"method":"ping"}]`

// inFlightSettles waits until the server holds no in-flight slot nor a
// watched context: every request of every batch released its slot once.
func inFlightSettles(t *testing.T, s *Server) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for {
		s.lim.mu.Lock()
		n, w := s.lim.inflight, len(s.lim.watched)
		s.lim.mu.Unlock()
		if n == 0 && w == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the batches: %d in-flight slots, %d watched contexts; want 0 and 0", n, w)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// The requests of HTTP batches that answer, fail, panic, time out or are
// refused over Limits.MaxInFlight each release their in-flight slot once:
// after many batches the server holds none.
func TestLegacyBatchReleasesEverySlot(t *testing.T) {
	f := newFixture(t, func(o *Options) {
		o.Limits = Limits{MaxInFlight: 4, RequestTimeout: 20 * time.Millisecond}
	})
	srv := httptest.NewServer(f.s.HTTPHandler(HTTPOptions{}))
	defer srv.Close()
	c := openBatchSession(t, srv.URL, "2025-03-26")
	for range 20 {
		resp := c.post(batchSlotsMix, "MCP-Protocol-Version", "2025-03-26")
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.HasPrefix(string(b), "[") {
			t.Fatalf("batch response %s", b)
		}
	}
	inFlightSettles(t, f.s)
}

// Likewise on stdio, with Limits.MaxInFlightPerConn too.
func TestLegacyStdioBatchReleasesEverySlot(t *testing.T) {
	f := newFixture(t, func(o *Options) {
		o.Limits = Limits{MaxInFlight: 4, MaxInFlightPerConn: 3, RequestTimeout: 20 * time.Millisecond}
	})
	p := startLegacyStdio(t, f.s)
	p.initialize("2025-03-26", `{}`)
	for range 20 {
		p.send(batchSlotsMix)
		if line := p.nextRaw(); !strings.HasPrefix(line, "[") {
			t.Fatalf("batch response %s", line)
		}
	}
	inFlightSettles(t, f.s)
}
