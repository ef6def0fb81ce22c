package server

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// BenchmarkPromptMRTR: the second round of a prompts/get with about 1 MiB
// of arguments (one long string), its requestState sealed for them: the
// identity's reading (mrtr_prompt.go) with the prompt's own.
func BenchmarkPromptMRTR(b *testing.B) {
	s, err := New(Options{Name: "t", Version: "1", Prompts: []Prompt{NewPrompt(
		PromptInfo{Name: "p", Arguments: []PromptArgument{{Name: "a", Required: true}}},
		func(ctx context.Context, in map[string]string) (string, error) { return "ok", nil })}})
	if err != nil {
		b.Fatal(err)
	}
	args := []byte(`{"a":"x","text":"` + strings.Repeat("words and <tags> é ", 1<<20/20) + `"}`)
	state := s.seal([]byte(`{"step":1}`), wantDigest(mcp.MethodPromptsGet, "p", args, ""))
	msg := []byte(`{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"p","arguments":` + string(args) +
		`,"requestState":"` + state + `",` + testMeta + `}}`)
	buf := make([]byte, len(msg))
	copy(buf, msg)
	if resp := s.HandleBytes(context.Background(), buf, nil); !strings.Contains(string(resp.Body), `"text":"ok"`) {
		b.Fatalf("%.300s", resp.Body)
	}
	b.ReportAllocs()
	for b.Loop() {
		copy(buf, msg)
		s.HandleBytes(context.Background(), buf, nil)
	}
}
