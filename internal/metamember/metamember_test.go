package metamember

import (
	"encoding/json"
	"testing"
)

func TestAdd(t *testing.T) {
	tp := []Member{{"traceparent", "00-01-02-01"}, {"tracestate", "a=b"}}
	const m = `"traceparent":"00-01-02-01","tracestate":"a=b"`
	for _, c := range []struct{ in, want string }{
		{`{"a":1}`, `{"_meta":{` + m + `},"a":1}`},
		{`{}`, `{"_meta":{` + m + `}}`},
		{` { } `, ` {"_meta":{` + m + `} } `},
		{`{"a":1,"_meta":{"x":2}}`, `{"a":1,"_meta":{` + m + `,"x":2}}`},
		{`{"_meta":{}}`, `{"_meta":{` + m + `}}`},
		{`{"_meta":{ }}`, `{"_meta":{` + m + ` }}`},
		{`{"_meta":{"tracestate":"keep"}}`, `{"_meta":{"tracestate":"keep"}}`},
		{`{"_meta":5}`, `{"_meta":5}`},
		{`[1]`, `[1]`},
		{`{"a":`, `{"a":`},
	} {
		got := string(Add([]byte(c.in), tp))
		if got != c.want {
			t.Errorf("Add(%s) = %s, want %s", c.in, got, c.want)
		}
		if json.Valid([]byte(c.in)) && !json.Valid([]byte(got)) {
			t.Errorf("Add(%s): invalid %s", c.in, got)
		}
	}
	if got := string(Add([]byte(`{}`), []Member{{`q"uote`, "\n"}})); got != `{"_meta":{"q\"uote":"\n"}}` {
		t.Errorf("escaping: %s", got)
	}
}

func TestAddToMember(t *testing.T) {
	tp := []Member{{"traceparent", "x"}}
	for _, c := range []struct{ in, want string }{
		{`{"jsonrpc":"2.0","id":1,"method":"roots/list","params":{}}`, `{"jsonrpc":"2.0","id":1,"method":"roots/list","params":{"_meta":{"traceparent":"x"}}}`},
		{`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":[1],"_meta":{"k":"v"}},"z":0}`, `{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":[1],"_meta":{"traceparent":"x","k":"v"}},"z":0}`},
		{`{"jsonrpc":"2.0","method":"m"}`, `{"jsonrpc":"2.0","method":"m"}`},
		{`{"jsonrpc":"2.0","method":"m","params":[1]}`, `{"jsonrpc":"2.0","method":"m","params":[1]}`},
	} {
		if got := string(AddToMember([]byte(c.in), "params", tp)); got != c.want {
			t.Errorf("AddToMember(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}

func FuzzAdd(f *testing.F) {
	for _, s := range []string{`{}`, `{"_meta":{}}`, `{"a":{"_meta":1},"_meta":{"b":[]}}`, `[]`, `{"_meta":{"traceparent":1}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := Add([]byte(in), []Member{{"traceparent", "v"}})
		if json.Valid([]byte(in)) && !json.Valid(out) {
			t.Fatalf("Add(%s) = %s", in, out)
		}
		msg := AddToMember([]byte(`{"params":`+in+`}`), "params", []Member{{"traceparent", "v"}})
		if json.Valid([]byte(in)) && !json.Valid(msg) {
			t.Fatalf("AddToMember(%s) = %s", in, msg)
		}
	})
}
