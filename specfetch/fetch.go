package specfetch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// DefaultBaseURL is where the specification repository serves its schema
// files: <base>/<version>/schema.json and schema.ts.
const DefaultBaseURL = "https://raw.githubusercontent.com/modelcontextprotocol/modelcontextprotocol/main/schema"

// DefaultTimeout bounds one whole fetch.
const DefaultTimeout = 30 * time.Second

// maxFileSize bounds a downloaded file; the schemas are well under 1 MB.
const maxFileSize = 32 << 20

// Fetcher downloads revisions into a cache folder.
type Fetcher struct {
	// BaseURL replaces DefaultBaseURL when set (tests, mirrors).
	BaseURL string
	// CacheDir is where revisions go (<CacheDir>/<version>/schema.json).
	CacheDir string
	// Client is the HTTP client; http.DefaultClient when nil.
	Client *http.Client
	// Timeout bounds the whole fetch; DefaultTimeout when zero.
	Timeout time.Duration
}

// Fetched says what Fetch stored.
type Fetched struct {
	Version string
	// Dir is the cache folder of the revision.
	Dir string
	// Files are the names stored (schema.json, and schema.ts when served).
	Files []string
}

// Fetch downloads schema.json and schema.ts of a revision and stores them
// in the cache, replacing an earlier copy as one step: files are written to
// a temporary folder beside the cache entry and renamed into place only
// when both downloads succeeded. schema.json must be valid JSON; a
// revision without schema.ts is kept without it.
func (f *Fetcher) Fetch(ctx context.Context, version string) (*Fetched, error) {
	if !IsVersion(version) {
		return nil, fmt.Errorf("%q is not a version name such as 2026-07-28", version)
	}
	if f.CacheDir == "" {
		return nil, errors.New("no cache folder to fetch into")
	}
	timeout := f.Timeout
	if timeout == 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	base := strings.TrimRight(f.BaseURL, "/")
	if base == "" {
		base = DefaultBaseURL
	}
	jsonData, err := f.get(ctx, base+"/"+version+"/schema.json", true)
	if err != nil {
		return nil, err
	}
	if !json.Valid(jsonData) {
		return nil, fmt.Errorf("%s/%s/schema.json is not valid JSON", base, version)
	}
	tsData, err := f.get(ctx, base+"/"+version+"/schema.ts", false)
	if err != nil {
		return nil, err
	}

	files := map[string][]byte{"schema.json": jsonData}
	if tsData != nil {
		files["schema.ts"] = tsData
	}
	dir := filepath.Join(f.CacheDir, version)
	if err := replaceDir(dir, files); err != nil {
		return nil, fmt.Errorf("storing %s in the cache: %w", version, err)
	}
	out := &Fetched{Version: version, Dir: dir, Files: []string{"schema.json"}}
	if tsData != nil {
		out.Files = append(out.Files, "schema.ts")
	}
	return out, nil
}

// get downloads one file. A 404 is an error for a required file and nil
// data for an optional one.
func (f *Fetcher) get(ctx context.Context, url string, required bool) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	client := f.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("cannot download %s: %w (offline? set %s to a local checkout of the MCP specification instead)", url, err, EnvSpecDir)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound && !required:
		return nil, nil
	case resp.StatusCode == http.StatusNotFound:
		return nil, fmt.Errorf("%s: no such revision on the server (HTTP 404)", url)
	case resp.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("%s: HTTP %s", url, resp.Status)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("cannot download %s: %w", url, err)
	}
	if len(data) > maxFileSize {
		return nil, fmt.Errorf("%s is larger than %d bytes", url, maxFileSize)
	}
	return data, nil
}

// replaceDir makes dir hold exactly files: it writes them into a temporary
// folder beside dir, moves an old dir aside, renames the new one in and
// then removes the old one.
func replaceDir(dir string, files map[string][]byte) error {
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	staged := filepath.Join(tmp, "new")
	if err := os.Mkdir(staged, 0o755); err != nil {
		return err
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(staged, name), data, 0o644); err != nil {
			return err
		}
	}
	old := filepath.Join(tmp, "old")
	hadOld := false
	if err := os.Rename(dir, old); err == nil {
		hadOld = true
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if err := os.Rename(staged, dir); err != nil {
		if hadOld {
			os.Rename(old, dir)
		}
		return err
	}
	return nil
}
