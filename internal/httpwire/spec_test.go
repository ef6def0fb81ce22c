package httpwire

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// specDir returns $MCPGEN_SPEC_DIR (a relative value is also tried against
// the module root). Without it the test skips, or fails when CI=true.
func specDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("MCPGEN_SPEC_DIR")
	candidates := []string{dir}
	if dir != "" && !filepath.IsAbs(dir) {
		if wd, err := os.Getwd(); err == nil {
			for d := wd; d != filepath.Dir(d); d = filepath.Dir(d) {
				if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
					candidates = append(candidates, filepath.Join(d, dir))
					break
				}
			}
		}
	}
	for _, c := range candidates {
		if c == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(c, "schema", "2026-07-28", "schema.json")); err == nil {
			return c
		}
	}
	msg := "spec not found; set MCPGEN_SPEC_DIR=../shared/mcp-spec"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// TestSpecEncodingExamples checks EncodeHeaderValue against every row of the
// "Encoding examples" table and the x-mcp-header example tool definition in
// streamable-http.mdx.
func TestSpecEncodingExamples(t *testing.T) {
	dir := specDir(t)
	doc, err := os.ReadFile(filepath.Join(dir, "docs", "2026-07-28", "basic", "transports", "streamable-http.mdx"))
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("(?m)^\\| `(\"[^`]*\")` +\\|[^|]+\\| `Mcp-Param-[A-Za-z]+: ([^`]*)` +\\|$")
	rows := row.FindAllSubmatch(doc, -1)
	if len(rows) < 5 {
		t.Fatalf("found %d encoding example rows, want at least 5", len(rows))
	}
	for _, r := range rows {
		var original string
		if err := json.Unmarshal(r[1], &original); err != nil {
			t.Fatalf("row value %s: %v", r[1], err)
		}
		if got := EncodeHeaderValue(original); got != string(r[2]) {
			t.Errorf("EncodeHeaderValue(%q) = %q, spec says %q", original, got, r[2])
		}
		if back, err := DecodeHeaderValue(string(r[2])); err != nil || back != original {
			t.Errorf("DecodeHeaderValue(%q) = %q, %v", r[2], back, err)
		}
	}

	// The example tool definition under "Schema Extension".
	start := strings.Index(string(doc), `"name": "execute_sql"`)
	if start < 0 {
		t.Fatal("execute_sql example not found")
	}
	open := strings.LastIndex(string(doc[:start]), "{")
	var tool struct {
		InputSchema json.RawMessage `json:"inputSchema"`
	}
	if err := json.NewDecoder(strings.NewReader(string(doc[open:]))).Decode(&tool); err != nil {
		t.Fatal(err)
	}
	got, err := ParamHeadersFromSchema(tool.InputSchema)
	want := []ParamHeader{{Name: "Region", Path: []string{"region"}, Type: "string"}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("execute_sql declarations = %+v, %v", got, err)
	}
}

// TestSpecErrorCodes checks the error codes and the -32022 data keys
// against the code constants of schema.json.
func TestSpecErrorCodes(t *testing.T) {
	dir := specDir(t)
	raw, err := os.ReadFile(filepath.Join(dir, "schema", "2026-07-28", "schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var schema struct {
		Defs map[string]struct {
			Properties struct {
				Error struct {
					AllOf []struct {
						Properties struct {
							Code struct {
								Const int64 `json:"const"`
							} `json:"code"`
							Data struct {
								Required []string `json:"required"`
							} `json:"data"`
						} `json:"properties"`
					} `json:"allOf"`
				} `json:"error"`
			} `json:"properties"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(raw, &schema); err != nil {
		t.Fatal(err)
	}
	for def, want := range map[string]int64{
		"HeaderMismatchError":                  CodeHeaderMismatch,
		"MissingRequiredClientCapabilityError": CodeMissingClientCapability,
		"UnsupportedProtocolVersionError":      CodeUnsupportedProtocolVersion,
	} {
		d, ok := schema.Defs[def]
		if !ok || len(d.Properties.Error.AllOf) < 2 {
			t.Fatalf("%s not found in schema.json", def)
		}
		ext := d.Properties.Error.AllOf[1].Properties
		if ext.Code.Const != want {
			t.Errorf("%s code = %d, we use %d", def, ext.Code.Const, want)
		}
		if def == "UnsupportedProtocolVersionError" {
			keys := slices.Sorted(slices.Values(ext.Data.Required))
			b, _ := json.Marshal(UnsupportedVersionData{})
			var ours map[string]any
			_ = json.Unmarshal(b, &ours)
			for _, k := range keys {
				if _, ok := ours[k]; !ok {
					t.Errorf("UnsupportedVersionData lacks required key %q", k)
				}
			}
		}
	}
}
