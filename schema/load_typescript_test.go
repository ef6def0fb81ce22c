package schema

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLoadReadsOnlyRegularSchemaTS: Load reads the schema.ts beside a
// schema on its own, so it reads only a regular file: a folder or a named
// pipe named schema.ts is an error naming it, at once (a pipe used to block
// Load until something wrote to it), while no schema.ts at all is fine.
func TestLoadReadsOnlyRegularSchemaTS(t *testing.T) {
	schemaJSON := `{"$defs": {"A": {"type": "object", "properties": {"x": {"type": "string"}}}}}`
	write := func(t *testing.T) (dir, path string) {
		dir = filepath.Join(t.TempDir(), "2030-01-01")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		path = filepath.Join(dir, "schema.json")
		if err := os.WriteFile(path, []byte(schemaJSON), 0o644); err != nil {
			t.Fatal(err)
		}
		return dir, path
	}
	t.Run("none", func(t *testing.T) {
		_, path := write(t)
		if _, err := Load(path, Options{}); err != nil {
			t.Errorf("Load without schema.ts: %v", err)
		}
	})
	t.Run("folder", func(t *testing.T) {
		dir, path := write(t)
		if err := os.Mkdir(filepath.Join(dir, "schema.ts"), 0o755); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(path, Options{}); err == nil || !strings.Contains(err.Error(), "schema.ts: not a regular file") {
			t.Errorf("Load with a folder schema.ts: %v", err)
		}
	})
	t.Run("pipe", func(t *testing.T) {
		dir, path := write(t)
		if err := syscall.Mkfifo(filepath.Join(dir, "schema.ts"), 0o644); err != nil {
			t.Skip("mkfifo:", err)
		}
		done := make(chan error, 1)
		go func() {
			_, err := Load(path, Options{})
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("Load with a pipe schema.ts: %v", err)
			}
		case <-time.After(5 * time.Second):
			if w, err := os.OpenFile(filepath.Join(dir, "schema.ts"), os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				w.Close()
			}
			t.Fatal("Load blocked reading a schema.ts pipe")
		}
	})
}
