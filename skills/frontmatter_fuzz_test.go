package skills

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzFrontmatterRoundTrip checks frontmatterJSON differentially: JSON is
// YAML 1.2, so the JSON it renders, read back as frontmatter, must render
// to the same bytes (the YAML path and the JSON-as-YAML path agree), and it
// must be one valid JSON object. Any input gives that or an error, never a
// panic.
func FuzzFrontmatterRoundTrip(f *testing.F) {
	for _, seed := range []string{
		"---\nname: a\ndescription: b\n---\n",
		"---\r\nname: a\r\ndescription: 'x: y'\r\n---\r\nbody",
		"---\nn: 0o17\nh: 0x1F\nf: 1.5e3\nd: 2024-01-15\ny: yes\nz: ~\nl: [1, two, {k: v}]\n---\n",
		"---\na: &x [1, 2]\nb: *x\nc: |\n  block\n  text\n---\n",
		"---\n\"quoted key\": \"\\u00e9\\n\"\nbig: 123456789012345678901234567890\nneg: -0.0\n---\n",
		"---\n- not a map\n---\n",
		"---\na: .inf\n---\n",
		"---\n<<: {a: 1}\n---\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, content []byte) {
		out, err := frontmatterJSON(content)
		if err != nil {
			return
		}
		var v map[string]any
		if err := json.Unmarshal(out, &v); err != nil || !json.Valid(out) {
			t.Fatalf("rendered %q, not a JSON object: %v", out, err)
		}
		again, err := frontmatterJSON(append(append([]byte("---\n"), out...), "\n---\n"...))
		if err != nil {
			t.Fatalf("the rendered JSON %s does not read back as frontmatter: %v", out, err)
		}
		if !bytes.Equal(again, out) {
			t.Fatalf("round trip differs:\n first %s\nsecond %s", out, again)
		}
	})
}
