package httpwire

import (
	"errors"
	"testing"
)

func TestFactsFromBody(t *testing.T) {
	tests := []struct {
		name string
		body string
		want BodyFacts
		err  bool
	}{
		// Example tools/call request of "Standard Request Headers".
		{"tools/call", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather","arguments":{"location":"Seattle, WA"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`,
			BodyFacts{Kind: KindRequest, Method: "tools/call", Name: "get_weather", HasName: true, ProtocolVersion: "2026-07-28", Arguments: []byte(`{"location":"Seattle, WA"}`)}, false},
		// Example resources/read request: Mcp-Name mirrors params.uri.
		{"resources/read", `{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"file:///a.json","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`,
			BodyFacts{Kind: KindRequest, Method: "resources/read", Name: "file:///a.json", HasName: true, ProtocolVersion: "2026-07-28"}, false},
		{"prompts/get", `{"jsonrpc":"2.0","id":"x","method":"prompts/get","params":{"name":"p"}}`,
			BodyFacts{Kind: KindRequest, Method: "prompts/get", Name: "p", HasName: true}, false},
		{"name on tools/list ignored", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"name":"p"}}`,
			BodyFacts{Kind: KindRequest, Method: "tools/list"}, false},
		{"notification", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`,
			BodyFacts{Kind: KindNotification, Method: "notifications/cancelled"}, false},
		{"response", `{"jsonrpc":"2.0","id":1,"result":{}}`, BodyFacts{Kind: KindResponse}, false},
		{"wrong types are absent", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":5,"_meta":{"io.modelcontextprotocol/protocolVersion":20260728}}}`,
			BodyFacts{Kind: KindRequest, Method: "tools/call"}, false},
		{"params not an object", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":[1]}`, BodyFacts{Kind: KindRequest, Method: "tools/call"}, false},
		{"batch", `[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]`, BodyFacts{}, true},
		{"bare value", `42`, BodyFacts{}, true},
		{"truncated", `{"jsonrpc":"2.0","id":1,"method":`, BodyFacts{}, true},
		{"empty", ``, BodyFacts{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := FactsFromBody([]byte(tt.body))
			if tt.err {
				if !errors.Is(err, ErrNotAMessage) {
					t.Fatalf("err = %v, want ErrNotAMessage", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Kind != tt.want.Kind || got.Method != tt.want.Method || got.Name != tt.want.Name || got.HasName != tt.want.HasName ||
				got.ProtocolVersion != tt.want.ProtocolVersion || string(got.Arguments) != string(tt.want.Arguments) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}
