package specfetch

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// specServer serves schema files from a map keyed by URL path.
func specServer(t *testing.T, files map[string]string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestFetch(t *testing.T) {
	srv := specServer(t, map[string]string{
		"/schema/2026-07-28/schema.json": `{"$defs":{"A":{"type":"string"}}}`,
		"/schema/2026-07-28/schema.ts":   `export type A = string;`,
		"/schema/2025-11-25/schema.json": `{"$defs":{}}`,
	})
	cache := filepath.Join(t.TempDir(), "cache")
	f := &Fetcher{BaseURL: srv.URL + "/schema/", CacheDir: cache}

	got, err := f.Fetch(context.Background(), "2026-07-28")
	if err != nil {
		t.Fatal(err)
	}
	if got.Dir != filepath.Join(cache, "2026-07-28") || strings.Join(got.Files, ",") != "schema.json,schema.ts" {
		t.Errorf("Fetch = %+v", got)
	}
	data, err := os.ReadFile(filepath.Join(got.Dir, "schema.ts"))
	if err != nil || string(data) != `export type A = string;` {
		t.Errorf("schema.ts = %q, %v", data, err)
	}
	// The fetched revision resolves by name.
	if path, err := (Location{CacheDir: cache}).Resolve("2026-07-28"); err != nil || path != filepath.Join(got.Dir, "schema.json") {
		t.Errorf("Resolve after Fetch = %q, %v", path, err)
	}

	// schema.ts is optional.
	got, err = f.Fetch(context.Background(), "2025-11-25")
	if err != nil || strings.Join(got.Files, ",") != "schema.json" {
		t.Errorf("Fetch without schema.ts = %+v, %v", got, err)
	}
	assertNoTemp(t, cache)
}

func TestFetchReplacesOldCopy(t *testing.T) {
	cache := t.TempDir()
	dir := filepath.Join(cache, "2026-07-28")
	writeSchema(t, dir, false)
	os.WriteFile(filepath.Join(dir, "leftover"), []byte("x"), 0o644)
	srv := specServer(t, map[string]string{"/2026-07-28/schema.json": `{"new":true}`})
	if _, err := (&Fetcher{BaseURL: srv.URL, CacheDir: cache}).Fetch(context.Background(), "2026-07-28"); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "schema.json"))
	if string(data) != `{"new":true}` {
		t.Errorf("schema.json = %s", data)
	}
	if _, err := os.Stat(filepath.Join(dir, "leftover")); err == nil {
		t.Error("old cache entry not replaced")
	}
	assertNoTemp(t, cache)
}

func TestFetchFailuresKeepCache(t *testing.T) {
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}))
	defer slow.Close()
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL
	closed.Close()
	srv := specServer(t, map[string]string{
		"/2026-07-28/schema.json": `{not json`,
	})
	broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "boom", http.StatusInternalServerError)
	}))
	defer broken.Close()

	for _, tc := range []struct {
		name, base, version, want string
		timeout                   time.Duration
	}{
		{"offline", closedURL, "2026-07-28", "offline?", 0},
		{"timeout", slow.URL, "2026-07-28", "cannot download", 100 * time.Millisecond},
		{"unknown version", srv.URL, "2030-01-01", "no such revision", 0},
		{"invalid JSON", srv.URL, "2026-07-28", "not valid JSON", 0},
		{"server error", broken.URL, "2026-07-28", "HTTP 500", 0},
		{"bad version", srv.URL, "../etc", "not a version name", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cache := t.TempDir()
			old := writeSchema(t, filepath.Join(cache, "2026-07-28"), false)
			f := &Fetcher{BaseURL: tc.base, CacheDir: cache, Timeout: tc.timeout}
			start := time.Now()
			_, err := f.Fetch(context.Background(), tc.version)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to mention %q", err, tc.want)
			}
			if d := time.Since(start); d > 3*time.Second {
				t.Errorf("fetch took %v", d)
			}
			if data, err := os.ReadFile(old); err != nil || string(data) != `{"$defs":{}}` {
				t.Errorf("cached copy changed: %q, %v", data, err)
			}
			assertNoTemp(t, cache)
		})
	}
}

func assertNoTemp(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("temporary %s left in the cache", e.Name())
		}
	}
}
