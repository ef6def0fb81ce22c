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

// Every generated struct encoder says "MarshalJSON encodes an X, refusing
// values its decoder would refuse": whatever MarshalJSON accepts,
// DecodeNamed of the same definition accepts. The zero value of a type
// whose schema requires a union or scalar-union member (id, ref, resource,
// params, result, progressToken, requestId, subscriptionId) is refused,
// not written with that member null.
func TestZeroValuesEncodeOnlyWhatDecodes(t *testing.T) {
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

// Values of sealed unions and scalar unions that would go out as JSON the
// decoder (and the schema: ContentBlock items are objects, ProgressToken
// and RequestId are ["string","integer"]) refuses are refused: a nil or
// typed-nil union element or member, a float or a uint64 beyond int64 in a
// string|integer union. Each is an error here.
func TestUnionValuesEncodeOnlyWhatDecodes(t *testing.T) {
	cases := []struct {
		name string // the schema definition
		v    any
	}{
		{"CallToolResult", mcp.CallToolResult{Content: []mcp.ContentBlock{nil}}},
		{"CallToolResult", mcp.CallToolResult{Content: []mcp.ContentBlock{(*mcp.TextContent)(nil)}}},
		{"ReadResourceResult", mcp.ReadResourceResult{Contents: []mcp.ResourceContentsUnion{nil}}},
		{"GetPromptResult", mcp.GetPromptResult{Messages: []mcp.PromptMessage{{Role: mcp.Role("user")}}}},
		{"EmbeddedResource", mcp.EmbeddedResource{}},
		{"EmbeddedResource", mcp.EmbeddedResource{Resource: (*mcp.TextResourceContents)(nil)}},
		{"ProgressNotificationParams", mcp.ProgressNotificationParams{ProgressToken: mcp.ProgressToken{Value: 1.5}}},
		{"ProgressNotificationParams", mcp.ProgressNotificationParams{ProgressToken: mcp.ProgressToken{Value: uint64(1 << 63)}}},
		{"CancelledNotificationParams", mcp.CancelledNotificationParams{RequestID: mcp.RequestID{Value: 1e300}}},
		{"RequestId", mcp.RequestID{Value: float32(0.25)}},
		{"InputRequiredResult", mcp.InputRequiredResult{InputRequests: mcp.InputRequests{"a": nil}}},
	}
	for _, c := range cases {
		out, err := json.Marshal(c.v)
		if err == nil {
			t.Errorf("%s %T: encoded without error as %s", c.name, c.v, out)
		}
		if _, derr := mcp.DecodeNamed(c.name, out); err == nil && derr == nil {
			t.Errorf("%s %T: %s decodes too: the case does not test a refusal", c.name, c.v, out)
		}
	}
	// What the decoder takes still goes out: an integral float, a string.
	for _, v := range []any{2.0, int64(-7), "tok"} {
		out, err := json.Marshal(mcp.ProgressNotificationParams{ProgressToken: mcp.ProgressToken{Value: v}})
		if err != nil {
			t.Errorf("progress token %T %v refused: %v", v, v, err)
			continue
		}
		if _, err := mcp.DecodeNamed("ProgressNotificationParams", out); err != nil {
			t.Errorf("%s does not decode: %v", out, err)
		}
	}
}

// Extra holds undeclared members by name. Two names that are different Go
// strings but the same JSON string (invalid UTF-8 is written as \ufffd)
// would come out as one member named twice, which the decoder, the
// runtime's parser and the Go client refuse: a name that is not UTF-8 is
// refused on the way out, as is a map key in an any value.
func TestExtraNamesNotUTF8AreRefused(t *testing.T) {
	for _, v := range []any{
		mcp.CallToolResult{
			Content: []mcp.ContentBlock{},
			Extra:   map[string]json.RawMessage{"x\xff": json.RawMessage(`1`), "x\xfe": json.RawMessage(`2`)},
		},
		mcp.CallToolResult{Content: []mcp.ContentBlock{}, StructuredContent: map[string]any{"x\xff": 1, "x\xfe": 2}},
	} {
		out, err := json.Marshal(v)
		if err == nil {
			t.Errorf("encoded %q without error", out)
		}
		if _, derr := mcp.DecodeNamed("CallToolResult", out); err == nil && derr != nil {
			t.Errorf("encoded %s\nits decoder refuses it: %v", out, derr)
		}
	}
}

// A member name of raw invalid UTF-8 is the name encoding/json reads it
// as, with U+FFFD: beside the escaped \ufffd it is one name twice, refused
// (so "whatever decodes must encode and decode again", FuzzDecodeNamed,
// holds).
func TestMemberNameNotUTF8IsReadWithReplacementCharacter(t *testing.T) {
	in := []byte("{\"content\":[],\"resultType\":\"complete\",\"\xff\":1,\"\\ufffd\":2}")
	v, err := mcp.DecodeNamed("CallToolResult", in)
	if err == nil {
		t.Errorf("decoded %q, a member named twice, as %+v", in, v)
		out, err := json.Marshal(v)
		if err != nil {
			return
		}
		if _, err := mcp.DecodeNamed("CallToolResult", out); err != nil {
			t.Errorf("decoded %q, encoded again as %s, which does not decode: %v", in, out, err)
		}
	}
	one := []byte("{\"content\":[],\"x\xff\":1}")
	v, err = mcp.DecodeNamed("CallToolResult", one)
	if err != nil {
		t.Fatalf("decoding %q: %v", one, err)
	}
	if _, ok := v.(*mcp.CallToolResult).Extra["x\ufffd"]; !ok {
		t.Errorf("%q decoded with Extra %q, want the name x\\ufffd", one, v.(*mcp.CallToolResult).Extra)
	}
}

// A value that contains itself is refused with an error, as json.Marshal
// refuses it ("encountered a cycle"), whether the cycle is in an any value
// (a map holding itself) or passes through a generated type; a deep value
// without a cycle still encodes. Before, the encoder recursed until the
// goroutine stack limit, a fatal error that no recover catches. The values
// are encoded in a child process whose stack limit is lowered to 64 MiB so
// that a regression fails fast.
func TestCyclicValueIsRefused(t *testing.T) {
	if os.Getenv("MCPGEN_CYCLE_CHILD") == "1" {
		debug.SetMaxStack(64 << 20)
		m := map[string]any{}
		m["self"] = m
		through := map[string]any{}
		through["result"] = &mcp.CallToolResult{Content: []mcp.ContentBlock{}, StructuredContent: through}
		for _, v := range []any{
			mcp.CallToolResult{Content: []mcp.ContentBlock{}, StructuredContent: m},
			mcp.CallToolResult{Content: []mcp.ContentBlock{}, StructuredContent: through},
		} {
			if _, err := json.Marshal(v); err == nil || !strings.Contains(err.Error(), "encountered a cycle") {
				os.Exit(3)
			}
		}
		var deep any = "leaf"
		for range 3000 {
			deep = []any{map[string]any{"d": deep}}
		}
		if _, err := json.Marshal(mcp.CallToolResult{Content: []mcp.ContentBlock{}, StructuredContent: deep}); err != nil {
			os.Exit(4)
		}
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestCyclicValueIsRefused$", "-test.count=1")
	cmd.Env = append(os.Environ(), "MCPGEN_CYCLE_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		first, _, _ := strings.Cut(string(out), "\n")
		t.Fatalf("encoding a cyclic structuredContent did not return an error (exit 3), or a deep one did (exit 4): child process %v: %s", err, first)
	}
}

// README ("The generated encoders refuse ... a value that contains itself
// (encoding/json's cycle error ...)"): a value that contains itself is an
// error, "not a stack overflow that kills the process" (encodeDepth's doc).
// A cycle that passes through a map whose keys are not strings (encoded by
// encoding/json, which calls the generated MarshalJSON, which starts a new
// encodeDepth) is never found: the process dies of a stack overflow.
// The encoding runs in a child process, since a stack overflow cannot be
// recovered.
func TestCycleThroughIntKeyedMapIsAnError(t *testing.T) {
	if os.Getenv("MCPGEN_INT_KEYED_CYCLE_CHILD") == "1" {
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
	cmd := exec.Command(os.Args[0], "-test.run=^TestCycleThroughIntKeyedMapIsAnError$", "-test.count=1")
	cmd.Env = append(os.Environ(), "MCPGEN_INT_KEYED_CYCLE_CHILD=1")
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
func TestNonUTF8KeysInsideIntKeyedMapAreRefused(t *testing.T) {
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
func TestRawJSONNamingAMemberTwiceIsRefused(t *testing.T) {
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
