package mcp_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// README ("The generated encoders refuse ... a value that contains itself
// (encoding/json's cycle error ...)"): a value that contains itself is an
// error, "not a stack overflow that kills the process" (encodeDepth's doc).
// A cycle that passes through a map whose keys are not strings (encoded by
// encoding/json, which calls the generated MarshalJSON, which starts a new
// encodeDepth) is never found: the process dies of a stack overflow.
// The encoding runs in a child process, since a stack overflow cannot be
// recovered.
func TestAttackCycleThroughIntKeyedMapIsAnError(t *testing.T) {
	if os.Getenv("MCPGEN_ATTACK_CYCLE_CHILD") == "1" {
		debug.SetMaxStack(64 << 20) // overflow sooner than at 1 GB
		res := &mcp.CallToolResult{Content: []mcp.ContentBlock{}}
		res.StructuredContent = map[int]any{1: res}
		_, err := res.AppendJSON(nil)
		if err == nil {
			os.Stdout.WriteString("RESULT: no error\n")
			return
		}
		os.Stdout.WriteString("RESULT: error: " + err.Error() + "\n")
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestAttackCycleThroughIntKeyedMapIsAnError$", "-test.count=1")
	cmd.Env = append(os.Environ(), "MCPGEN_ATTACK_CYCLE_CHILD=1")
	out, err := cmd.CombinedOutput()
	s := string(out)
	if err != nil || !strings.Contains(s, "RESULT: error: ") || !strings.Contains(s, "cycle") {
		if len(s) > 400 {
			s = s[:400]
		}
		t.Fatalf("encoding a CallToolResult whose structuredContent map[int]any holds the result itself: want a cycle error; the process ended with %v:\n%s", err, s)
	}
}

// README: the generated encoders refuse "a map key ... that is not UTF-8
// (two such names would be written as one name twice)". One step away —
// the same map inside a map whose keys are ints, which goes to
// encoding/json — the two keys are written as "\ufffd" twice, JSON the
// generated decoder refuses ("duplicate member").
func TestAttackNonUTF8KeysInsideIntKeyedMapRefused(t *testing.T) {
	res := mcp.CallToolResult{Content: []mcp.ContentBlock{},
		StructuredContent: map[int]any{1: map[string]any{"\xff": 1, "\xfe": 2}}}
	out, err := json.Marshal(res)
	if err != nil {
		return // refused, as the same map is one level up
	}
	if _, derr := mcp.DecodeNamed("CallToolResult", out); derr != nil {
		t.Fatalf("encoder wrote %s (no error); its own decoder refuses it: %v", out, derr)
	}
}

// README: "The generated encoders refuse, with an error ..., what their own
// decoders would refuse", and "The decoders refuse a member named twice at
// any depth (inside structuredContent, ... and kept undeclared members
// too)". Raw JSON a caller puts in structuredContent, an Extra member or a
// _meta member is written with its repeated member, and the decoder of the
// same type refuses the message the encoder produced.
func TestAttackRawJSONWithRepeatedMemberRefused(t *testing.T) {
	dup := json.RawMessage(`{"a":1,"a":2}`)
	cases := []struct {
		name string
		v    any
	}{
		{"CallToolResult", mcp.CallToolResult{Content: []mcp.ContentBlock{}, StructuredContent: dup}},
		{"CallToolResult", mcp.CallToolResult{Content: []mcp.ContentBlock{}, Extra: map[string]json.RawMessage{"x": dup}}},
		{"TextContent", mcp.TextContent{Text: "x", Meta: mcp.MetaObject{Extra: map[string]json.RawMessage{"k": dup}}}},
	}
	for _, c := range cases {
		out, err := json.Marshal(c.v)
		if err != nil {
			continue
		}
		if _, derr := mcp.DecodeNamed(c.name, out); derr != nil {
			t.Errorf("%s: encoder wrote %s (no error); its own decoder refuses it: %v", c.name, out, derr)
		}
	}
}
