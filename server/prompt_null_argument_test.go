package server

import (
	"testing"
)

// A prompt argument that is null is no string: -32602, not the prompt run
// with "" for a required argument (arguments: {} is refused as missing).
func TestPromptNullArgumentRefused(t *testing.T) {
	f := newFixture(t)
	r := rpc(t, f.s, "prompts/get", `{"name":"greet","arguments":{"name":null,"tone":"warmly"}}`)
	if r.Error == nil || r.Error.Code != -32602 {
		t.Fatalf("prompts/get with arguments.name null: result %s, error %+v; want -32602 naming arguments.name", r.Result, r.Error)
	}
}
