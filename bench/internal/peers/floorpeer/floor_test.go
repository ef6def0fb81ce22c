package floorpeer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestServeStdio(t *testing.T) {
	work := func(r io.Reader, w io.Writer) error { return ServeStdioWork(r, w, 10*time.Microsecond) }
	for name, serve := range map[string]func(io.Reader, io.Writer) error{"raw": ServeStdio, "concurrent": ServeStdioConcurrent, "work": work} {
		t.Run(name, func(t *testing.T) { testServe(t, serve) })
	}
}

func testServe(t *testing.T, serve func(io.Reader, io.Writer) error) {
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		``,
		`{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"weather_current"}}`,
	}, "\n") // last line has no newline: must still be answered
	var out bytes.Buffer
	if err := serve(strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	slices.Sort(lines) // the concurrent floor answers in any order
	if len(lines) != 2 {
		t.Fatalf("got %d reply lines, want 2: %q", len(lines), out.String())
	}
	for i, wantID := range []string{`"x"`, `7`} {
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Result struct {
				Content []struct{ Text string } `json:"content"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(lines[i]), &msg); err != nil {
			t.Fatalf("reply %d is not JSON: %v", i, err)
		}
		if string(msg.ID) != wantID || len(msg.Result.Content) != 1 || msg.Result.Content[0].Text != "Paris: 21.50 (metric)" {
			t.Errorf("reply %d = %s", i, lines[i])
		}
	}
}

// TestServeStdioWorkSpendsItsWorkOnEveryRequest: the budget sweep's floor
// answers as the raw floor does, byte for byte, and takes at least its work
// per request (the spin reads the same clock, so this bound cannot flake).
func TestServeStdioWorkSpendsItsWorkOnEveryRequest(t *testing.T) {
	const n, work = 100, 300 * time.Microsecond
	var in strings.Builder
	for id := range n {
		fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{}}`+"\n", id)
	}
	var raw, worked bytes.Buffer
	if err := ServeStdio(strings.NewReader(in.String()), &raw); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := ServeStdioWork(strings.NewReader(in.String()), &worked, work); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took < n*work {
		t.Errorf("%d requests with %v of work each took %v, less than %v", n, work, took, n*work)
	}
	if worked.String() != raw.String() {
		t.Errorf("the work floor's replies differ from the raw floor's:\n%s\nwant\n%s", worked.String(), raw.String())
	}
	if got := strings.Count(raw.String(), "\n"); got != n {
		t.Errorf("%d replies, want %d", got, n)
	}
}

func TestServeStdioLongLineAndGarbage(t *testing.T) {
	long := `{"jsonrpc":"2.0","id":1,"method":"x","params":{"pad":"` + strings.Repeat("a", 200<<10) + `"}}`
	var out bytes.Buffer
	if err := ServeStdio(strings.NewReader("not json\n"+long+"\n"), &out); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(out.String(), "\n"); got != 1 {
		t.Fatalf("got %d replies, want 1 (a line without an id skipped, long line answered)", got)
	}
}

func TestHandler(t *testing.T) {
	h := Handler()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":3,"method":"tools/call"}`)))
	if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Body.String(), `{"jsonrpc":"2.0","id":3,`) {
		t.Errorf("POST: %d %s", rec.Code, rec.Body)
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)))
	if rec.Code != http.StatusAccepted {
		t.Errorf("notification: got %d, want 202", rec.Code)
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/mcp", nil))
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("GET: got %d, want 405", rec.Code)
	}
}

func TestScanID(t *testing.T) {
	for line, want := range map[string]string{
		`{"jsonrpc":"2.0","id":42,"method":"x"}`:     "42",
		`{"jsonrpc":"2.0","id": "a-1" }`:             `"a-1"`,
		`{"jsonrpc":"2.0","method":"notifications"}`: "",
	} {
		id, ok := ScanID([]byte(line))
		if string(id) != want || ok != (want != "") {
			t.Errorf("ScanID(%s) = %q, %v; want %q", line, id, ok, want)
		}
	}
}
