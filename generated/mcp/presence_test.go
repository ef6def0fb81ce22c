package mcp_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// TestEmptyStringsThatMeanSomething: the optional strings whose empty
// value the spec gives a meaning keep an explicit "" through a decode and
// an encode, and stay absent when absent — an empty cursor is a cursor
// (pagination.mdx), an empty requestState is a state to echo, and alone
// it makes an InputRequiredResult valid (mrtr.mdx).
func TestEmptyStringsThatMeanSomething(t *testing.T) {
	const meta = `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	cases := []struct {
		name     string
		present  string
		absent   string
		decode   func([]byte) (any, *string, error)
		contains string
	}{
		{"requestState", `{"resultType":"input_required","requestState":""}`, `{"resultType":"input_required","inputRequests":{}}`,
			func(b []byte) (any, *string, error) {
				var v mcp.InputRequiredResult
				err := json.Unmarshal(b, &v)
				return &v, v.RequestState, err
			}, `"requestState":""`},
		{"retried requestState", `{"_meta":` + meta + `,"name":"t","requestState":""}`, `{"_meta":` + meta + `,"name":"t"}`,
			func(b []byte) (any, *string, error) {
				var v mcp.CallToolRequestParams
				err := json.Unmarshal(b, &v)
				return &v, v.RequestState, err
			}, `"requestState":""`},
		{"cursor", `{"_meta":` + meta + `,"cursor":""}`, `{"_meta":` + meta + `}`,
			func(b []byte) (any, *string, error) {
				var v mcp.PaginatedRequestParams
				err := json.Unmarshal(b, &v)
				return &v, v.Cursor, err
			}, `"cursor":""`},
		{"nextCursor", `{"tools":[],"nextCursor":"","ttlMs":0,"cacheScope":"public"}`, `{"tools":[],"ttlMs":0,"cacheScope":"public"}`,
			func(b []byte) (any, *string, error) {
				var v mcp.ListToolsResult
				err := json.Unmarshal(b, &v)
				return &v, v.NextCursor, err
			}, `"nextCursor":""`},
	}
	for _, c := range cases {
		v, s, err := c.decode([]byte(c.present))
		if err != nil || s == nil || *s != "" {
			t.Errorf("%s: decoding %s: %v, value %v", c.name, c.present, err, s)
			continue
		}
		out, err := json.Marshal(v)
		if err != nil || !contains(out, c.contains) {
			t.Errorf("%s: re-encoded as %s (%v), want %s in it", c.name, out, err, c.contains)
		}
		v, s, err = c.decode([]byte(c.absent))
		if err != nil || s != nil {
			t.Errorf("%s: decoding %s: %v, value %v, want absent", c.name, c.absent, err, s)
			continue
		}
		if out, err := json.Marshal(v); err != nil || contains(out, c.contains) {
			t.Errorf("%s: absent re-encoded as %s (%v)", c.name, out, err)
		}
	}
}

func contains(b []byte, s string) bool {
	return json.Valid(b) && strings.Contains(string(b), s)
}
