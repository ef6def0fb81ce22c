package server

import (
	"context"
	"encoding/json"
	"testing"
)

// TestInterceptorKnowsMethodsNamesAndVersions: Request.KnownMethod,
// KnownName and ProtocolVersion tell an interceptor which of the strings
// a client chose the server has (a method it answers, a registered tool or
// prompt, a version it speaks), so that what it records where cardinality
// matters stays bounded.
func TestInterceptorKnowsMethodsNamesAndVersions(t *testing.T) {
	type known struct {
		method, name bool
		version      string
	}
	var got []known
	look := func(next Handler) Handler {
		return func(ctx context.Context, req *Request) (json.RawMessage, error) {
			res, err := next(ctx, req)
			got = append(got, known{req.KnownMethod(), req.KnownName(), req.ProtocolVersion()})
			return res, err
		}
	}
	f := newFixture(t, func(o *Options) { o.Interceptors = []Interceptor{look} })
	modern := metaFor("2026-07-28")
	for _, params := range []struct{ method, params string }{
		{"tools/call", `{"name":"echo","arguments":{"text":"hi"},"_meta":` + modern + `}`},
		{"tools/call", `{"name":"no-such-tool","_meta":` + modern + `}`},
		{"prompts/get", `{"name":"simple","_meta":` + modern + `}`},
		{"prompts/get", `{"name":"no-such-prompt","_meta":` + modern + `}`},
		{"resources/read", `{"uri":"test://static-text","_meta":` + modern + `}`},
		{"tasks/get", `{"taskId":"t1","_meta":` + modern + `}`},
		{"x/unknown", `{"_meta":` + modern + `}`},
		{"tools/list", `{"_meta":` + metaFor("1999-01-01") + `}`},
		{"tools/list", `{"_meta":` + metaFor("2025-06-18") + `}`},
	} {
		f.s.HandleBytes(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"`+params.method+`","params":`+params.params+`}`), nil)
	}
	want := []known{
		{true, true, "2026-07-28"},
		{true, false, "2026-07-28"},
		{true, true, "2026-07-28"},
		{true, false, "2026-07-28"},
		{true, false, "2026-07-28"}, // resource URIs are never "known": they have no bound
		{true, false, "2026-07-28"},
		{false, false, "2026-07-28"},
		{true, false, ""}, // refused -32022: the client's string is not a version the server speaks
		{true, false, "2025-06-18"},
	}
	if len(got) != len(want) {
		t.Fatalf("saw %d requests: %+v", len(got), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("request %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}
