package specfetch

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeSchema(t *testing.T, dir string, withTS bool) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "schema.json")
	if err := os.WriteFile(path, []byte(`{"$defs":{}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if withTS {
		if err := os.WriteFile(filepath.Join(dir, "schema.ts"), []byte("// ts"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

func TestResolve(t *testing.T) {
	root := t.TempDir()
	loc := Location{SpecDir: filepath.Join(root, "spec"), CacheDir: filepath.Join(root, "cache")}
	inSpec := writeSchema(t, filepath.Join(loc.SpecDir, "schema", "2025-11-25"), true)
	writeSchema(t, filepath.Join(loc.CacheDir, "2025-11-25"), true)
	inCache := writeSchema(t, filepath.Join(loc.CacheDir, "2026-07-28"), false)
	loose := writeSchema(t, filepath.Join(root, "loose"), false)

	for _, tc := range []struct{ arg, want string }{
		{"2025-11-25", inSpec}, // spec dir wins over the cache
		{"2026-07-28", inCache},
		{loose, loose},
		{filepath.Join(root, "loose"), loose}, // a folder holding schema.json
	} {
		got, err := loc.Resolve(tc.arg)
		if err != nil || got != tc.want {
			t.Errorf("Resolve(%q) = %q, %v; want %q", tc.arg, got, err, tc.want)
		}
	}

	_, err := loc.Resolve("2024-11-05")
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown version: err = %v, want ErrNotFound", err)
	}
	for _, want := range []string{"MCPGEN_SPEC_DIR", "mcpgen schema fetch 2024-11-05", loc.CacheDir} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	if _, err := loc.Resolve(filepath.Join(root, "missing.json")); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing file: err = %v", err)
	}
	if _, err := loc.Resolve(root); !errors.Is(err, ErrNotFound) {
		t.Errorf("folder without schema.json: err = %v", err)
	}
	for _, bad := range []string{"", "latest", "2026-7-28"} {
		if _, err := loc.Resolve(bad); err == nil {
			t.Errorf("Resolve(%q) succeeded", bad)
		}
	}
	if _, err := (Location{}).Resolve("2026-07-28"); !errors.Is(err, ErrNotFound) {
		t.Errorf("empty location: err = %v", err)
	}
}

func TestList(t *testing.T) {
	root := t.TempDir()
	loc := Location{SpecDir: filepath.Join(root, "spec"), CacheDir: filepath.Join(root, "cache")}
	writeSchema(t, filepath.Join(loc.SpecDir, "schema", "2025-11-25"), true)
	writeSchema(t, filepath.Join(loc.SpecDir, "schema", "2024-11-05"), false)
	writeSchema(t, filepath.Join(loc.CacheDir, "2025-11-25"), false)
	writeSchema(t, filepath.Join(loc.CacheDir, "2026-07-28"), true)
	os.MkdirAll(filepath.Join(loc.CacheDir, "2027-01-01"), 0o755) // no schema.json
	os.MkdirAll(filepath.Join(loc.CacheDir, ".2026-07-28.tmp-1"), 0o755)

	got, err := loc.List()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"2024-11-05 spec dir false", "2025-11-25 spec dir true", "2025-11-25 cache false", "2026-07-28 cache true"}
	if len(got) != len(want) {
		t.Fatalf("List = %+v", got)
	}
	for i, e := range got {
		s := e.Version + " " + e.Source + " " + map[bool]string{true: "true", false: "false"}[e.HasTypeScript]
		if s != want[i] {
			t.Errorf("entry %d = %q, want %q", i, s, want[i])
		}
		if !strings.HasSuffix(e.Path, filepath.Join(e.Version, "schema.json")) {
			t.Errorf("entry %d path %s", i, e.Path)
		}
	}

	none, err := Location{SpecDir: filepath.Join(root, "nope")}.List()
	if err != nil || len(none) != 0 {
		t.Errorf("missing folders: %v, %v", none, err)
	}
}

func TestDefaultUsesEnvironment(t *testing.T) {
	t.Setenv(EnvSpecDir, "/some/spec")
	t.Setenv("XDG_CACHE_HOME", "/some/cache")
	t.Setenv("HOME", "/some/home")
	loc := Default()
	if loc.SpecDir != "/some/spec" {
		t.Errorf("SpecDir = %q", loc.SpecDir)
	}
	if dir, err := CacheDir(); err != nil || loc.CacheDir != dir || !strings.HasSuffix(dir, filepath.Join("mcpgen", "spec")) {
		t.Errorf("CacheDir = %q (CacheDir() = %q, %v)", loc.CacheDir, dir, err)
	}
}
