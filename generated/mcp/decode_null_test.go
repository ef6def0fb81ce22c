package mcp

import (
	"encoding/json"
	"strings"
	"testing"
)

// null is not a string: an array element or map value the schema types
// as a string refuses it, naming the element (it was read as ""; an
// integer element already refused null).
func TestNullStringElementRefused(t *testing.T) {
	cases := []struct {
		v    any
		in   string
		path string
	}{
		{new(CreateMessageRequestParams), `{"maxTokens":1,"messages":[],"stopSequences":["a",null]}`, "stopSequences[1]"},
		{new(ElicitRequestFormParamsRequestedSchema), `{"type":"object","properties":{},"required":[null]}`, "required[0]"},
		{new(CompleteRequestParamsContext), `{"arguments":{"a":null}}`, "arguments.a"},
		{new(Icon), `{"src":"https://example.com/i.png","sizes":[null]}`, "sizes[0]"},
	}
	for _, c := range cases {
		err := json.Unmarshal([]byte(c.in), c.v)
		if err == nil || !strings.Contains(err.Error(), c.path) {
			t.Errorf("%s: err = %v, want an error naming %s (null is not a string); decoded %+v", c.in, err, c.path, c.v)
		}
	}
}
