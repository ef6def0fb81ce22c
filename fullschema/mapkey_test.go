package fullschema_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	_ "github.com/mcpgen/mcpgen/fullschema"
	"github.com/mcpgen/mcpgen/server"
)

// TestIntMapKeysThatCollideAreRefused: README "Arguments a tool receives
// are exactly the ones validated". A map[int]string field whose schema
// accepts any digits as a member name (the pattern mcpgen tools derived
// before it became the canonical `^(0|-?[1-9][0-9]*)$`; a hand-written
// schema may still say it) accepts {"1":"b","01":"c"}: two members, both
// valid, that would fill one map key, 1, one value silently dropped. The
// decoder refuses the call instead, naming /x/01.
func TestIntMapKeysThatCollideAreRefused(t *testing.T) {
	type Args struct {
		X map[int]string `json:"x"`
	}
	var got map[int]string
	tool := server.BindTool(server.ToolInfo{
		Name: "foo",
		InputSchema: json.RawMessage(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",
			"properties":{"x":{"type":"object","patternProperties":{"^[0-9]+$":{"type":"string"}},"additionalProperties":false}}}`),
	}, (*Args)(nil), (*string)(nil), func(ctx context.Context, in any) (any, error) {
		got = in.(*Args).X
		return fmt.Sprint(got), nil
	})
	srv, err := server.New(server.Options{Name: "t", Version: "1", Tools: []server.Tool{tool}})
	if err != nil {
		t.Fatal(err)
	}
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	resp := srv.HandleBytes(t.Context(), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"foo","arguments":{"x":{"1":"b","01":"c"}},`+meta+`}}`), nil)
	body := string(resp.Body)
	if got != nil && len(got) < 2 && !strings.Contains(body, `"isError":true`) && !strings.Contains(body, `"error"`) {
		t.Errorf("two validated members of x became one map entry %v, and the call succeeded:\n%s", got, body)
	}
	if !strings.Contains(body, "/x/01") {
		t.Errorf("the refusal does not name the member /x/01:\n%s", body)
	}
}
