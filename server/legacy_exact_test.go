package server

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// A legacy session reads members as the core does: exact names, a repeated
// name rejected, at the top of params and in its _meta.
func TestLegacyExactMembers(t *testing.T) {
	f := newFixture(t)
	p := startLegacyStdio(t, f.s)
	p.call("0", "initialize", `{"ProtocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"1"}}`)
	if m, line := p.response("0"); errorCode(m) != -32602 || !strings.Contains(line, "protocolVersion") {
		t.Fatalf("initialize with ProtocolVersion: %s", line)
	}
	p.initialize("2025-03-26", `{}`)
	for _, c := range []struct{ method, params, want string }{
		{"logging/setLevel", `{"Level":"debug"}`, "level"},
		{"logging/setLevel", `{"level":"debug","level":"error"}`, `duplicate member \"level\"`},
		{"tools/call", `{"NAME":"echo","arguments":{"text":"hi"}}`, "name"},
		{"tools/call", `{"name":"echo","arguments":{"text":"hi"},"_meta":{"a":1,"a":2}}`, `params._meta: duplicate member \"a\"`},
		{"tools/call", `{"name":"echo","arguments":{"text":"hi"},"_meta":{"":1,"":2}}`, `params._meta: duplicate member \"\"`},
		{"tools/call", `{"name":"echo","arguments":{"text":"hi"},"_meta":[]}`, "params._meta must be an object"},
	} {
		p.call("1", c.method, c.params)
		m, line := p.response("1")
		if errorCode(m) != -32602 || !strings.Contains(line, c.want) {
			t.Errorf("%s %s: %s, want -32602 mentioning %s", c.method, c.params, line, c.want)
		}
	}
	p.call("2", "tools/call", `{"name":"echo","arguments":{"text":"hi"},"_meta":{"progressToken":"p"}}`)
	if m, line := p.response("2"); !strings.Contains(line, `"text":"hi"`) {
		t.Fatalf("tools/call: %v", m)
	}
}

// TestRepeatedNameIsLinearInNesting: the check that a legacy result
// repeats no member name reads a result nested 200 000 deep (arrays or
// objects) in one pass; skipping every nested value again at each level
// took minutes (quadratic in the depth), a hang of the session's answer.
func TestRepeatedNameIsLinearInNesting(t *testing.T) {
	const d = 200000
	arrays := []byte(deepValue(d))
	objects := []byte(strings.Repeat(`{"a":`, d) + `{"b":1,"b":2}` + strings.Repeat(`}`, d))
	done := make(chan string, 1)
	go func() {
		_, found := repeatedName(arrays)
		name, dup := repeatedName(objects)
		if found || !dup || name != "b" {
			done <- fmt.Sprintf("arrays: %v; objects: %q %v, want no repetition, then \"b\"", found, name, dup)
			return
		}
		done <- ""
	}()
	select {
	case msg := <-done:
		if msg != "" {
			t.Error(msg)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("repeatedName on a value nested 200 000 deep still running after 3 s")
	}
}
