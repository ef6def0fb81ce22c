package server

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestInterceptorNameIsTheTarget: Request.Name is the member the method's
// handler acts on (params.name of tools/call and prompts/get, params.uri of
// resources/read, params.taskId of tasks/*), not whichever of name, uri and
// taskId the params happen to hold first: an interceptor that allows
// resources/read by Name must not see "echo" while the handler reads
// "test://static-text", in the stateless core and in a legacy session.
func TestInterceptorNameIsTheTarget(t *testing.T) {
	var rec seen
	f := newFixture(t, func(o *Options) { o.Interceptors = []Interceptor{rec.interceptor()} })
	meta := `,"_meta":` + metaFor("2026-07-28")
	cases := []struct{ method, params, want string }{
		{"resources/read", `{"name":"echo","uri":"test://static-text"`, "test://static-text"},
		{"resources/read", `{"taskId":"t1","uri":"test://static-text"`, "test://static-text"},
		{"tools/call", `{"uri":"test://static-text","name":"echo","arguments":{"text":"x"}`, "echo"},
		{"tools/call", `{"taskId":"t1","name":"echo","arguments":{"text":"x"}`, "echo"},
		{"prompts/get", `{"uri":"test://static-text","name":"simple"`, "simple"},
		{"tasks/get", `{"name":"echo","taskId":"t1"`, "t1"},
		{"tasks/cancel", `{"uri":"test://static-text","taskId":"t1"`, "t1"},
	}
	for _, c := range cases {
		rec.take()
		f.s.HandleBytes(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"`+c.method+`","params":`+c.params+meta+`}}`), nil)
		if got := rec.take(); len(got) != 1 || got[0].Name != c.want {
			t.Errorf("stateless %s %s}: the chain saw %+v, want Name %q", c.method, c.params, got, c.want)
		}
	}

	peer := startStdio(t, f.s, 0)
	peer.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"old","version":"1"}}}`)
	peer.next()
	peer.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for _, c := range cases {
		if c.method == "tasks/get" || c.method == "tasks/cancel" {
			continue // not a method of that revision
		}
		rec.take()
		peer.send(`{"jsonrpc":"2.0","id":2,"method":"` + c.method + `","params":` + c.params + `}}`)
		peer.next()
		got := rec.take()
		if len(got) == 2 && got[0].Method == "initialize" {
			got = got[1:]
		}
		if len(got) != 1 || got[0].Name != c.want {
			t.Errorf("legacy %s %s}: the chain saw %+v, want Name %q", c.method, c.params, got, c.want)
		}
	}
}

// FuzzInterceptorTarget checks the interceptor chain's Request.Name
// against an independent reading of the same body (encoding/json's
// tokenizer, refMembers): for every request the chain sees whose envelope
// and params repeat no name, Name is the string value of the member the
// method acts on (params.name of tools/call and prompts/get, params.uri of
// resources/read|subscribe|unsubscribe, params.taskId of tasks/*), "" when
// that member is absent or not a string, whatever other members the params
// hold, however their names are escaped.
func FuzzInterceptorTarget(f *testing.F) {
	meta := `"_meta":` + metaFor("2026-07-28")
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"name":"echo","uri":"test://static-text",` + meta + `}}`,
		`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"n\u0061me":"echo","\u0075ri":"test://static-text",` + meta + `}}`,
		`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"name":"echo","uri":1,` + meta + `}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"uri":"test://static-text","name":"echo","arguments":{"text":"x"},` + meta + `}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"taskId":"t","NAME":"x","name":"ec\u0068o","arguments":{"text":"x"},` + meta + `}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"uri":"u",` + meta + `}}`,
		`{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"uri":"test://static-text","name":"simple",` + meta + `}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"name":"echo","taskId":"t1",` + meta + `}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tasks/result","params":{"uri":"u","taskId":"t\u0031",` + meta + `}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tool\u0073/call","params":{"uri":"u","name":"echo","arguments":{"text":"x"},` + meta + `}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"name":"n","uri":"u",` + meta + `}}`,
	} {
		f.Add([]byte(s))
	}
	for _, s := range oneParseSeeds {
		f.Add([]byte(s))
	}
	var rec seen
	fx := newFixture(f, func(o *Options) {
		o.Tools = slices.DeleteFunc(o.Tools, func(t Tool) bool { return t.Name() == "slow" || t.Name() == "sleep" })
		o.Interceptors = []Interceptor{rec.interceptor()}
	})
	f.Fuzz(func(t *testing.T, data []byte) {
		rec.take()
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		fx.s.HandleBytes(ctx, data, nil)
		got := rec.take()
		if len(got) == 0 {
			return
		}
		if len(got) != 1 {
			t.Fatalf("%q: the chain saw %d requests", data, len(got))
		}
		env, dup, ok := refMembers(data)
		if !ok {
			t.Fatalf("%q: the chain saw a body encoding/json does not read as an object", data)
		}
		params, pdup, _ := refMembers(env["params"])
		if dup || pdup {
			return
		}
		method, _ := refString(env["method"])
		if got[0].Method != method {
			t.Fatalf("%q: the chain saw method %q, encoding/json reads %q", data, got[0].Method, method)
		}
		var field string
		switch {
		case method == "tools/call" || method == "prompts/get":
			field = "name"
		case method == "resources/read" || method == "resources/subscribe" || method == "resources/unsubscribe":
			field = "uri"
		case strings.HasPrefix(method, "tasks/"):
			field = "taskId"
		default:
			return
		}
		want, _ := refString(params[field])
		if got[0].Name != want {
			t.Fatalf("%q: the chain saw Name %q, the %s's params.%s is %q", data, got[0].Name, method, field, want)
		}
	})
}

type uriParams struct {
	URI string `json:"uri"`
}

type nameURIParams struct {
	Name string `json:"name"`
	URI  string `json:"uri"`
}

type uriResult struct {
	Read string `json:"read"`
}

// TestInterceptorNameOfExtensionMethodIsWhatItReads: an extension method's
// Request.Name is the member its handler acts on, in the stateless core and
// in a legacy session alike. notes/get decodes params.uri only, so with
// {"uri":"secret://x","name":"harmless"} the legacy session reported
// "secret://x" while the stateless core reported "harmless" (it preferred
// name whatever the order), and an interceptor refusing by Name let the
// read of secret://x through. The member is now the one MethodInfo.Target
// names, else the one of name, uri and taskId that Params declares, in
// whatever order the params hold them; for a method whose Params says
// neither (json.RawMessage, or both name and uri) it is the first of them
// the params hold as a string, in both eras.
func TestInterceptorNameOfExtensionMethodIsWhatItReads(t *testing.T) {
	var rec seen
	read := func(ctx context.Context, p uriParams) (*uriResult, error) { return &uriResult{Read: p.URI}, nil }
	methods := []ExtensionMethod{
		NewMethod(MethodInfo{Name: "notes/get"}, read),
		NewMethod(MethodInfo{Name: "notes/raw"}, func(ctx context.Context, p json.RawMessage) (*uriResult, error) {
			return &uriResult{Read: string(p)}, nil
		}),
		NewMethod(MethodInfo{Name: "notes/both"}, func(ctx context.Context, p nameURIParams) (*uriResult, error) {
			return &uriResult{Read: p.URI}, nil
		}),
		NewMethod(MethodInfo{Name: "notes/declared", Target: "uri"}, func(ctx context.Context, p nameURIParams) (*uriResult, error) {
			return &uriResult{Read: p.URI}, nil
		}),
	}
	f := newFixture(t, func(o *Options) {
		o.Interceptors = []Interceptor{rec.interceptor()}
		o.Extensions = append(o.Extensions, Extension{ID: "com.example/notes", Legacy: true, Methods: methods})
	})
	cases := []struct{ method, params, want string }{
		{"notes/get", `{"uri":"secret://x","name":"harmless"`, "secret://x"},
		{"notes/get", `{"name":"harmless","uri":"secret://x"`, "secret://x"},
		{"notes/get", `{"name":"harmless","uri":1`, ""},
		{"notes/declared", `{"name":"harmless","uri":"secret://x"`, "secret://x"},
		{"notes/raw", `{"uri":"secret://x","name":"harmless"`, "secret://x"},
		{"notes/raw", `{"name":"harmless","uri":"secret://x"`, "harmless"},
		{"notes/raw", `{"name":1,"taskId":"t1","uri":"secret://x"`, "t1"},
		{"notes/both", `{"uri":"secret://x","name":"harmless"`, "secret://x"},
	}
	stateless := make([]seenReq, len(cases))
	for i, c := range cases {
		rec.take()
		f.s.HandleBytes(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"`+c.method+`","params":`+c.params+`,"_meta":`+metaFor("2026-07-28")+`}}`), nil)
		got := rec.take()
		if len(got) != 1 {
			t.Fatalf("stateless %s %s}: the chain saw %+v", c.method, c.params, got)
		}
		stateless[i] = got[0]
	}

	peer := startStdio(t, f.s, 0)
	peer.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"old","version":"1"}}}`)
	peer.next()
	peer.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for i, c := range cases {
		rec.take()
		peer.send(`{"jsonrpc":"2.0","id":2,"method":"` + c.method + `","params":` + c.params + `}}`)
		peer.next()
		legacy := rec.take()
		if len(legacy) > 0 && legacy[0].Method == "initialize" {
			legacy = legacy[1:]
		}
		if len(legacy) != 1 {
			t.Fatalf("legacy %s %s}: the chain saw %+v", c.method, c.params, legacy)
		}
		if c.want != "" && (stateless[i].Result == "" || legacy[0].Result == "") {
			t.Fatalf("%s did not run: %+v / %+v", c.method, stateless[i], legacy[0])
		}
		if stateless[i].Name != c.want || legacy[0].Name != c.want {
			t.Errorf("Name of %s %s}: stateless %q, legacy %q; want %q (handler: %s)", c.method, c.params, stateless[i].Name, legacy[0].Name, c.want, stateless[i].Result)
		}
	}
}

// TestMethodTargetMustBeAMember: MethodInfo.Target names name, uri or
// taskId, or nothing; any other is refused at New.
func TestMethodTargetMustBeAMember(t *testing.T) {
	m := NewMethod(MethodInfo{Name: "notes/get", Target: "path"}, func(ctx context.Context, p uriParams) (*uriResult, error) { return nil, nil })
	_, err := New(Options{Name: "t", Version: "1", Extensions: []Extension{{ID: "com.example/notes", Methods: []ExtensionMethod{m}}}})
	if err == nil || !strings.Contains(err.Error(), `Target "path"`) {
		t.Errorf("New = %v, want the bad Target refused", err)
	}
}
