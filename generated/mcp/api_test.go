package mcp_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// TestAbsentResultTypeIsComplete: basic/index — a client MUST treat an
// absent resultType as "complete".
func TestAbsentResultTypeIsComplete(t *testing.T) {
	out, err := mcp.DecodeCallToolOutcome([]byte(`{"content":[{"type":"text","text":"hi"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	r, ok := out.(*mcp.CallToolResult)
	if !ok || r.ResultType != "complete" {
		t.Fatalf("decoded %#v, want a *CallToolResult with resultType complete", out)
	}
	var lt mcp.ListToolsResult
	if err := json.Unmarshal([]byte(`{"tools":[],"ttlMs":0,"cacheScope":"public"}`), &lt); err != nil || lt.ResultType != "complete" {
		t.Fatalf("ListToolsResult without resultType: %v %q", err, lt.ResultType)
	}
	// Unset, it is encoded as its tag.
	b, err := json.Marshal(&mcp.InputRequiredResult{RequestState: new("s")})
	if err != nil || !strings.Contains(string(b), `"resultType":"input_required"`) {
		t.Fatalf("InputRequiredResult encoded as %s (%v)", b, err)
	}
}

// TestBase64MembersAreBytes: blob and data are []byte, so only valid
// base64 decodes and only valid base64 goes out.
func TestBase64MembersAreBytes(t *testing.T) {
	var img mcp.ImageContent
	if err := json.Unmarshal([]byte(`{"type":"image","data":"!!!not-base64!!!","mimeType":"image/png"}`), &img); err == nil {
		t.Fatal("invalid base64 decoded")
	}
	if err := json.Unmarshal([]byte(`{"type":"image","data":"iVBORw==","mimeType":"image/png"}`), &img); err != nil || !bytes.Equal(img.Data, []byte("\x89PNG")) {
		t.Fatalf("data %q (%v)", img.Data, err)
	}
	b, err := json.Marshal(&mcp.BlobResourceContents{URI: "x:/b", Blob: []byte{0xff, 0x00}})
	if err != nil || !strings.Contains(string(b), `"blob":"/wA="`) {
		t.Fatalf("blob encoded as %s (%v)", b, err)
	}
	b, err = json.Marshal(&mcp.AudioContent{MIMEType: "audio/wav"})
	if err != nil || !strings.Contains(string(b), `"data":""`) {
		t.Fatalf("required data without bytes encoded as %s (%v)", b, err)
	}
}

// TestToolSchemasAreRawJSON: inputSchema and outputSchema are the JSON
// Schema documents as they came; a non-object is refused both ways.
func TestToolSchemasAreRawJSON(t *testing.T) {
	in := `{"name":"t","inputSchema":{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"A"}},"$defs":{}}}`
	var tool mcp.Tool
	if err := json.Unmarshal([]byte(in), &tool); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(tool.InputSchema), `"x-mcp-header":"A"`) || len(tool.Extra) != 0 {
		t.Fatalf("inputSchema %s, extra %v", tool.InputSchema, tool.Extra)
	}
	if err := json.Unmarshal([]byte(`{"name":"t","inputSchema":"object"}`), &tool); err == nil {
		t.Fatal("a string inputSchema decoded")
	}
	if _, err := json.Marshal(&mcp.Tool{Name: "t"}); err == nil {
		t.Fatal("a tool without inputSchema encoded")
	}
	if _, err := json.Marshal(&mcp.Tool{Name: "t", InputSchema: json.RawMessage(`[]`)}); err == nil {
		t.Fatal("an array inputSchema encoded")
	}
}

// TestOneMetaShape: every _meta is a struct value with typed reserved keys
// and Get/Set for the others, the same for requests, results,
// notifications and plain objects.
func TestOneMetaShape(t *testing.T) {
	var c mcp.TextContent
	if err := json.Unmarshal([]byte(`{"type":"text","text":"a","_meta":{"com.example/k":1}}`), &c); err != nil {
		t.Fatal(err)
	}
	if v, ok := c.GetMeta().Get("com.example/k"); !ok || string(v) != "1" {
		t.Fatalf("content _meta key: %s %v", v, ok)
	}
	r := mcp.ListToolsResult{CacheScope: "public"}
	if err := r.GetMeta().Set("com.example/k", true); err != nil {
		t.Fatal(err)
	}
	r.Meta.ServerInfo = &mcp.Implementation{Name: "s", Version: "1"}
	b, err := json.Marshal(&r)
	if err != nil || !strings.Contains(string(b), `"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"},"com.example/k":true}`) {
		t.Fatalf("result _meta encoded as %s (%v)", b, err)
	}
}

// TestCompletedFillsDefaults: one call completes any result, without
// touching the handler's value.
func TestCompletedFillsDefaults(t *testing.T) {
	info := &mcp.Implementation{Name: "srv", Version: "1"}
	d := &mcp.ResultDefaults{Meta: mcp.ResultMetaObject{ServerInfo: info}, TTLMs: 30, CacheScope: "private"}
	orig := &mcp.ListToolsResult{}
	got := mcp.ResultCompleter(orig).Completed(d).(*mcp.ListToolsResult)
	if got.Meta.ServerInfo != info || got.TTLMs != 30 || got.CacheScope != "private" {
		t.Fatalf("completed %+v", got)
	}
	if orig.Meta.ServerInfo != nil || orig.CacheScope != "" {
		t.Fatalf("the handler's value changed: %+v", orig)
	}
	set := &mcp.ListToolsResult{TTLMs: 5, CacheScope: "public"}
	if got := set.Completed(d).(*mcp.ListToolsResult); got.TTLMs != 5 || got.CacheScope != "public" {
		t.Fatalf("a result's own cache policy was replaced: %+v", got)
	}
	rr := (&mcp.ReadResourceResult{}).Completed(d).(*mcp.ReadResourceResult)
	if rr.TTLMs == nil || *rr.TTLMs != 30 || rr.CacheScope != "private" {
		t.Fatalf("read resource result %+v", rr)
	}
	var nilResult *mcp.CallToolResult
	if nilResult.Completed(d) != nil {
		t.Fatal("a nil result completed to a value")
	}
	lr := (&mcp.SubscriptionsListenResult{}).Completed(d).(*mcp.SubscriptionsListenResult)
	if lr.Meta.ServerInfo != info {
		t.Fatalf("listen result _meta %+v", lr.Meta)
	}
}

// TestCompletedSetsTheTypesResultType: a result's resultType is its type's
// own, whatever the handler put there (ext-tasks: "Servers MUST NOT set
// resultType to "task" on result types other than CreateTaskResult").
func TestCompletedSetsTheTypesResultType(t *testing.T) {
	d := &mcp.ResultDefaults{}
	if got := (&mcp.CallToolResult{ResultType: "task"}).Completed(d).(*mcp.CallToolResult); got.ResultType != "complete" {
		t.Errorf("CallToolResult completed with resultType %q", got.ResultType)
	}
	if got := (&mcp.GetPromptResult{ResultType: "input_required"}).Completed(d).(*mcp.GetPromptResult); got.ResultType != "complete" {
		t.Errorf("GetPromptResult completed with resultType %q", got.ResultType)
	}
	if got := (&mcp.InputRequiredResult{ResultType: "complete"}).Completed(d).(*mcp.InputRequiredResult); got.ResultType != "input_required" {
		t.Errorf("InputRequiredResult completed with resultType %q", got.ResultType)
	}
}

// TestEncodeChecksLikeDecode: what a peer must refuse cannot go out.
func TestEncodeChecksLikeDecode(t *testing.T) {
	bad := map[string]any{
		"role not in the enum":     &mcp.PromptMessage{Role: "robot", Content: &mcp.TextContent{Text: "x"}},
		"priority above 1":         &mcp.Annotations{Priority: ptr(1.5)},
		"priority below 0":         &mcp.Annotations{Priority: ptr(-0.1)},
		"cacheScope not allowed":   &mcp.ListToolsResult{CacheScope: "everyone"},
		"negative ttlMs":           &mcp.ListToolsResult{CacheScope: "public", TTLMs: -1},
		"required role left unset": &mcp.SamplingMessage{Content: &mcp.TextContent{Text: "x"}},
	}
	for name, v := range bad {
		if out, err := json.Marshal(v); err == nil {
			t.Errorf("%s: encoded as %s", name, out)
		}
	}
	for name, in := range map[string]string{
		"role not in the enum": `{"role":"robot","content":{"type":"text","text":"x"}}`,
	} {
		var m mcp.PromptMessage
		if err := json.Unmarshal([]byte(in), &m); err == nil {
			t.Errorf("%s: decoded", name)
		}
	}
	var a mcp.Annotations
	if err := json.Unmarshal([]byte(`{"priority":2}`), &a); err == nil || !strings.Contains(err.Error(), "maximum") {
		t.Errorf("priority 2 decoded (%v)", err)
	}
	if out, err := json.Marshal(&mcp.Annotations{Priority: ptr(0.5)}); err != nil || string(out) != `{"priority":0.5}` {
		t.Errorf("priority 0.5: %s %v", out, err)
	}
}

func ptr[T any](v T) *T { return &v }

// The method table is read through LookupMethod only: what it returns is a
// copy, so no importer can change what the runtime sees.
func TestLookupMethod(t *testing.T) {
	info, ok := mcp.LookupMethod(mcp.MethodToolsCall)
	if !ok || info.Name != mcp.MethodToolsCall || info.Notification || !info.FromClient ||
		info.Params != reflect.TypeFor[mcp.CallToolRequestParams]() || info.Result == nil {
		t.Fatalf("LookupMethod(tools/call) = %+v, %v", info, ok)
	}
	info.Name = "changed"
	if again, _ := mcp.LookupMethod(mcp.MethodToolsCall); again.Name != mcp.MethodToolsCall {
		t.Fatalf("a caller changed the table: %q", again.Name)
	}
	if n, ok := mcp.LookupMethod(mcp.MethodNotificationsProgress); !ok || !n.Notification || n.Result != nil {
		t.Fatalf("LookupMethod(notifications/progress) = %+v, %v", n, ok)
	}
	for _, gone := range []string{"initialize", "ping", "Tools/Call", ""} {
		if _, ok := mcp.LookupMethod(gone); ok {
			t.Errorf("LookupMethod(%q) found a method 2026-07-28 does not have", gone)
		}
	}
}
