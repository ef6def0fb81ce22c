package server

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"testing"
)

// README ("How a request flows"): parseRequest reads params with "exact
// member names …, a repeated member is … -32602 in params or _meta", and
// the arguments of a tool are "parsed once (a member name repeated in an
// object is rejected)"; "Prompt arguments and template variables are
// matched by exact name the same way". tools/call refuses
// {"code":"safe","code":"evil"}, and so does completion/complete for the
// same map of strings in params.context.arguments (-32602 "duplicate
// member"). prompts/get decodes params.arguments with encoding/json into a
// map, so the last "code" silently wins and the prompt is rendered with
// "evil", while any reader that takes the first member (an interceptor
// auditing params, a gateway) sees "safe": two parsers disagree about one
// message. Both eras.
func TestPromptArgumentRepeatedIsInvalidParams(t *testing.T) {
	s, err := New(Options{Name: "t", Version: "1", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Prompts: []Prompt{NewPrompt(PromptInfo{Name: "p", Arguments: []PromptArgument{{Name: "code", Required: true}}},
			func(ctx context.Context, in map[string]string) (string, error) { return in["code"], nil })},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, version := range []string{"2026-07-28", "2025-11-25"} {
		t.Run(version, func(t *testing.T) {
			msg := `{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"` + version +
				`","io.modelcontextprotocol/clientCapabilities":{}},"name":"p","arguments":{"code":"safe","code":"evil"}}}`
			resp := s.HandleBytes(context.Background(), []byte(msg), nil)
			var r struct {
				Error *struct {
					Code int64 `json:"code"`
				} `json:"error"`
			}
			if err := json.Unmarshal(resp.Body, &r); err != nil {
				t.Fatalf("%s: %v", resp.Body, err)
			}
			if r.Error == nil || r.Error.Code != -32602 {
				t.Errorf("prompts/get with \"code\" repeated in params.arguments: %s; want -32602", resp.Body)
			}
		})
	}
}
