package bind

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEmitLinksFullSchema: bindings import the full JSON Schema validator
// exactly when a tool's schema is outside the runtime's native subset
// (here a declared inputSchema with patternProperties), with a comment
// saying which; the build then works, and the happy fixture's bindings
// (derived schemas only) do not import it.
func TestEmitLinksFullSchema(t *testing.T) {
	src := compileBindings(t, map[string][]byte{"p.go": []byte(`package p

import "context"

const labelsSchema = ` + "`" + `{"type":"object","properties":{"labels":{"type":"object","patternProperties":{"^[a-z]+$":{"type":"string"}}}}}` + "`" + `

type TagArgs struct {
	Labels map[string]string ` + "`json:\"labels\"`" + `
}

// Tag labels a thing.
//
//mcp:tool inputSchema=labelsSchema
func Tag(ctx context.Context, in TagArgs) (string, error) { return "", nil }
`)})
	if !bytes.Contains(src, []byte(`_ "github.com/mcpgen/mcpgen/fullschema"`)) {
		t.Errorf("bindings do not import fullschema:\n%s", src)
	}
	if !bytes.Contains(src, []byte(`inputSchema of tool "tag"`)) || !bytes.Contains(src, []byte(`patternProperties`)) {
		t.Errorf("bindings do not say why they link fullschema:\n%s", src)
	}
	happy, err := os.ReadFile(filepath.Join("testdata", "golden", "happy.golden"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(happy), "fullschema") {
		t.Error("the happy fixture's bindings import fullschema")
	}
}
