package jsonrpc

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// specExamples returns the example JSON files of the 2026-07-28 schema under
// $MCPGEN_SPEC_DIR, or nil if the spec directory is not available.
func specExamples(tb testing.TB) []string {
	tb.Helper()
	dir := os.Getenv("MCPGEN_SPEC_DIR")
	if dir == "" {
		return nil
	}
	files, err := filepath.Glob(filepath.Join(dir, "schema", "2026-07-28", "examples", "*", "*.json"))
	if err != nil {
		tb.Fatalf("glob examples: %v", err)
	}
	return files
}

// requireSpec skips (or fails when CI=true) if the spec is unavailable.
func requireSpec(t *testing.T) []string {
	t.Helper()
	files := specExamples(t)
	if len(files) == 0 {
		msg := "spec examples not found; set MCPGEN_SPEC_DIR=../shared/mcp-spec"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return files
}

// TestSpecExamples decodes every schema example. Full JSON-RPC messages must
// decode to the kind their type name implies; bare params/result objects
// (no "jsonrpc" member) must be rejected as Invalid Request.
func TestSpecExamples(t *testing.T) {
	files := requireSpec(t)
	messages := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		typeName := filepath.Base(filepath.Dir(f))
		var probe map[string]json.RawMessage
		isMessage := json.Unmarshal(data, &probe) == nil && probe["jsonrpc"] != nil
		msg, derr := Decode(data)
		if !isMessage {
			if derr == nil || derr.Code != CodeInvalidRequest {
				t.Errorf("%s: bare object decoded as %v, err %v; want Invalid Request", f, msg.Kind, derr)
			}
			continue
		}
		messages++
		if derr != nil {
			t.Errorf("%s: %v", f, derr)
			continue
		}
		var want Kind
		switch {
		case strings.HasSuffix(typeName, "ResultResponse"):
			want = KindResponse
		case strings.HasSuffix(typeName, "Request"):
			want = KindRequest
		case strings.HasSuffix(typeName, "Notification"):
			want = KindNotification
		case strings.HasSuffix(typeName, "Error"):
			want = KindErrorResponse
		default:
			t.Errorf("%s: unexpected message type name %s", f, typeName)
			continue
		}
		if msg.Kind != want {
			t.Errorf("%s: kind %v, want %v", f, msg.Kind, want)
		}
	}
	if messages == 0 {
		t.Error("no full JSON-RPC messages among the examples")
	}
}
