package server

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestTerminalBanner: a stdio server started on a terminal says what it is
// and how to talk to it, and the request it suggests works.
func TestTerminalBanner(t *testing.T) {
	banner := terminalBanner("hello", "0.1.0")
	for _, want := range []string{"hello 0.1.0", "Model Context Protocol server", "stdin/stdout", "--help", terminalRequest} {
		if !strings.Contains(banner, want) {
			t.Errorf("banner lacks %q:\n%s", want, banner)
		}
	}
	srv, err := New(Options{Name: "hello", Version: "0.1.0"})
	if err != nil {
		t.Fatal(err)
	}
	resp := srv.HandleBytes(t.Context(), []byte(terminalRequest), nil)
	var r struct {
		Result map[string]any `json:"result"`
	}
	if err := json.Unmarshal(resp.Body, &r); err != nil || r.Result["supportedVersions"] == nil {
		t.Errorf("the suggested request answers %s", resp.Body)
	}
}
