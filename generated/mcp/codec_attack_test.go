package mcp_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"runtime/debug"
	"sort"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// Every generated struct encoder says (encode.go): "MarshalJSON encodes an
// X, refusing values its decoder would refuse" (generator/encode.go:
// "refuses what the decoder would refuse"). So whatever MarshalJSON
// accepts, DecodeNamed of the same definition must accept. The zero value
// of a type whose schema requires a union or scalar-union member (id,
// ref, resource, params, result, progressToken, requestId,
// subscriptionId) is encoded with that member as null, which both the
// decoder ("must not be null") and the spec schema refuse.
func TestAttackZeroValueEncodingIsDecodable(t *testing.T) {
	names := make([]string, 0, len(zeroValues))
	for name := range zeroValues {
		names = append(names, name)
	}
	sort.Strings(names)
	var bad []string
	for _, name := range names {
		out, err := json.Marshal(zeroValues[name])
		if err != nil {
			continue // refused on the way out: fine
		}
		if _, err := mcp.DecodeNamed(name, out); err != nil {
			bad = append(bad, name+": encoded "+string(out)+"\n    decoder: "+err.Error())
		}
	}
	if len(bad) > 0 {
		t.Errorf("%d zero values encode to JSON their own decoder refuses:\n  %s", len(bad), strings.Join(bad, "\n  "))
	}
}

// Hostile values of sealed unions and scalar unions: a nil or typed-nil
// union element, a float or a uint64 beyond int64 in a string|integer
// union. Each is encoded without error into JSON that the type's decoder
// (and the schema: ContentBlock items are objects, ProgressToken and
// RequestId are ["string","integer"]) refuses.
func TestAttackUnionValuesEncodingIsDecodable(t *testing.T) {
	cases := []struct {
		name string // the schema definition
		v    any
	}{
		{"CallToolResult", mcp.CallToolResult{Content: []mcp.ContentBlock{nil}}},
		{"CallToolResult", mcp.CallToolResult{Content: []mcp.ContentBlock{(*mcp.TextContent)(nil)}}},
		{"ReadResourceResult", mcp.ReadResourceResult{Contents: []mcp.ResourceContentsUnion{nil}}},
		{"GetPromptResult", mcp.GetPromptResult{Messages: []mcp.PromptMessage{{Role: mcp.Role("user")}}}},
		{"EmbeddedResource", mcp.EmbeddedResource{}},
		{"ProgressNotificationParams", mcp.ProgressNotificationParams{ProgressToken: mcp.ProgressToken{Value: 1.5}}},
		{"ProgressNotificationParams", mcp.ProgressNotificationParams{ProgressToken: mcp.ProgressToken{Value: uint64(1 << 63)}}},
		{"CancelledNotificationParams", mcp.CancelledNotificationParams{RequestID: mcp.RequestID{Value: 1e300}}},
		{"RequestId", mcp.RequestID{Value: float32(0.25)}},
	}
	for _, c := range cases {
		out, err := json.Marshal(c.v)
		if err != nil {
			continue
		}
		if _, err := mcp.DecodeNamed(c.name, out); err != nil {
			t.Errorf("%s %T\n  encoded without error: %s\n  its decoder refuses it: %v", c.name, c.v, out, err)
		}
	}
}

// Extra holds undeclared members by name. Two names that are different Go
// strings but the same JSON string (invalid UTF-8 is written as \ufffd, as
// encoding/json writes it) come out as one member named twice: the
// decoder refuses the result ("duplicate member"), as the runtime's parser
// and the Go client do (README: "results with a repeated member refused").
func TestAttackExtraKeysEncodeToDuplicateMember(t *testing.T) {
	v := mcp.CallToolResult{
		Content: []mcp.ContentBlock{},
		Extra:   map[string]json.RawMessage{"x\xff": json.RawMessage(`1`), "x\xfe": json.RawMessage(`2`)},
	}
	out, err := json.Marshal(v)
	if err != nil {
		return // refusing is fine
	}
	if _, err := mcp.DecodeNamed("CallToolResult", out); err != nil {
		t.Errorf("encoded %s\nits decoder refuses it: %v", out, err)
	}
}

// The property FuzzDecodeNamed states: "whatever decodes must encode and
// decode again". A member name of raw invalid UTF-8 beside the escaped
// \ufffd decodes (split compares the raw bytes of one and the unescaped
// text of the other, so they are two names), then encodes as the same
// name twice, which the decoder refuses.
func TestAttackDecodedExtraReencodesAsDuplicate(t *testing.T) {
	in := []byte("{\"content\":[],\"resultType\":\"complete\",\"\xff\":1,\"\\ufffd\":2}")
	v, err := mcp.DecodeNamed("CallToolResult", in)
	if err != nil {
		return // refusing the input is fine
	}
	out, err := json.Marshal(v)
	if err != nil {
		return
	}
	if _, err := mcp.DecodeNamed("CallToolResult", out); err != nil {
		t.Errorf("decoded %q, encoded again as %s, which does not decode: %v", in, out, err)
	}
}

// A value that contains itself (a map holding itself, reachable through
// StructuredContent's any) must be refused with an error, as
// json.Marshal refuses it ("encountered a cycle") and as the runtime's own
// internal/jsonenc does; appendJSON's comment promises "byte for byte what
// json.Marshal(v) writes". The generated appendJSON has no cycle
// detection: it recurses until the goroutine stack limit, a fatal error
// that no recover catches, so a tool returning such a result kills the
// whole server process. The value is encoded in a child process whose
// stack limit is lowered to 64 MiB so the crash comes fast.
func TestAttackCyclicValueIsRefusedNotFatal(t *testing.T) {
	if os.Getenv("MCPGEN_ATTACK_CYCLE_CHILD") == "1" {
		debug.SetMaxStack(64 << 20)
		m := map[string]any{}
		m["self"] = m
		_, err := json.Marshal(mcp.CallToolResult{Content: []mcp.ContentBlock{}, StructuredContent: m})
		if err == nil {
			os.Exit(3)
		}
		os.Exit(0)
	}
	// encoding/json refuses the same value with an error under the same limit.
	cmd := exec.Command(os.Args[0], "-test.run=^TestAttackCyclicValueIsRefusedNotFatal$", "-test.count=1")
	cmd.Env = append(os.Environ(), "MCPGEN_ATTACK_CYCLE_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		first := string(out)
		if i := strings.IndexByte(first, '\n'); i >= 0 {
			first = first[:i]
		}
		t.Fatalf("encoding a cyclic structuredContent did not return an error: child process %v: %s", err, first)
	}
}
