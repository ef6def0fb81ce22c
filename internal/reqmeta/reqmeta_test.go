package reqmeta

import (
	"encoding/json"
	"testing"
)

func TestFill(t *testing.T) {
	members, err := Params(json.RawMessage(`{"name":"x","_meta":{"io.modelcontextprotocol/protocolVersion":"","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"debug","progressToken":7,"gone":null}}`))
	if err != nil {
		t.Fatal(err)
	}
	meta, err := Split(members["_meta"])
	if err != nil {
		t.Fatal(err)
	}
	Fill(meta, Defaults{ProtocolVersion: json.RawMessage(`"2026-07-28"`), ClientCapabilities: json.RawMessage(`{"roots":{}}`), LogLevel: json.RawMessage(`"info"`)})
	got := string(Join(meta))
	want := `{"io.modelcontextprotocol/clientCapabilities":{"roots":{}},"io.modelcontextprotocol/logLevel":"debug","io.modelcontextprotocol/protocolVersion":"2026-07-28","progressToken":7}`
	if got != want {
		t.Fatalf("modern:\n got %s\nwant %s", got, want)
	}
	Fill(meta, Defaults{Legacy: true})
	if got := string(Join(meta)); got != `{"progressToken":7}` {
		t.Fatalf("legacy: %s", got)
	}
	if _, err := Params(json.RawMessage(`{"a":1,"a":2}`)); err == nil {
		t.Fatal("a repeated member was accepted")
	}
	if _, err := Params(json.RawMessage(`{"a":`)); err == nil {
		t.Fatal("invalid JSON was accepted")
	}
}
