package driver

import (
	"strings"
	"testing"
	"time"
)

// TestUnreadableRepliesAreReported: a server that answers the verification
// call, then answers every later request with a line that is not a
// response, fails the load with the ids left waiting and the lines it
// skipped, instead of a bare "no reply".
func TestUnreadableRepliesAreReported(t *testing.T) {
	script := `read -r first
printf '%s\n' '{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"Paris: 21.50 (metric)"}]}}'
while read -r line; do printf 'not a response\n'; done`
	s := Server{Name: "garbled", Binary: "sh", Args: []string{"-c", script}}
	opt := shortLoad
	opt.Timeout = 300 * time.Millisecond
	start := time.Now()
	_, err := RunStdio(s, testCall, opt)
	if err == nil {
		t.Fatal("want an error")
	}
	for _, want := range []string{"waiting for ids [3 4 5 6]", "lines skipped", `"not a response\n"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if d := time.Since(start); d > 8*time.Second {
		t.Errorf("took %v", d)
	}
}
