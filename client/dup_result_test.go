package client_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/client"
	"github.com/mcpgen/mcpgen/generated/mcp"
)

// A result that names a member twice is refused, not read by its last
// occurrence (which a proxy or another reader may see differently).
func TestResultWithDuplicateMember(t *testing.T) {
	for _, result := range []string{
		`{"content":[],"content":[{"type":"text","text":"second"}]}`,
		`{"resultType":"input_required","resultType":"complete","content":[]}`,
		`{"content":[{"type":"text","text":"a","text":"b"}]}`,
		`{"content":[],"x-extra":1,"x-extra":2}`,
	} {
		t.Run(result, func(t *testing.T) {
			tr := fakeHTTP(t, func(req wireRequest, w http.ResponseWriter) {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, result)
			})
			res, err := connect(t, tr, nil).CallTool(context.Background(), &mcp.CallToolRequestParams{Name: "x"})
			if err == nil {
				t.Fatalf("accepted as %+v", res)
			}
			wantErr(t, err, "duplicate member")
		})
	}
}

// README (The Go client): "results with a repeated member refused" — at
// any depth, also inside the members the typed decoders leave to
// encoding/json (structuredContent, _meta), which read a repeated member
// by its last occurrence: {"approved":false,"approved":true} was read as
// approved:true.
func TestNestedDuplicateMemberIsRefused(t *testing.T) {
	for _, result := range []string{
		`{"content":[],"structuredContent":{"approved":false,"approved":true}}`,
		`{"content":[],"structuredContent":{"a":[{"b":{"c":1,"c":2}}]}}`,
		`{"content":[],"_meta":{"x/y":{"k":1,"k":2}}}`,
	} {
		t.Run(result, func(t *testing.T) {
			tr := fakeHTTP(t, func(req wireRequest, w http.ResponseWriter) {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, result)
			})
			res, err := connect(t, tr, nil).CallTool(context.Background(), &mcp.CallToolRequestParams{Name: "x"})
			if err == nil {
				t.Fatalf("accepted %s as %+v", result, res)
			}
			wantErr(t, err, "duplicate member")
		})
	}
}

// legacyStdio is a scripted legacy stdio server: initialize is answered
// with initResult, tools/list with toolsResult.
func legacyStdio(t *testing.T, initResult, toolsResult string) client.Transport {
	tr, _ := fakeStdio(t, func(req wireRequest, w io.Writer) {
		switch req.Method {
		case "initialize":
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", req.ID, initResult)
		case "tools/list":
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", req.ID, toolsResult)
		}
	})
	return tr
}

const legacyInit = `{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}`

// The same in a legacy session, whose results the client completes with
// the members 2026-07-28 requires before they are decoded: the completed
// result must not be the last occurrence of a repeated member alone.
func TestLegacyResultWithDuplicateMember(t *testing.T) {
	tr := legacyStdio(t, legacyInit,
		`{"tools":[{"name":"safe","inputSchema":{"type":"object"}}],"tools":[{"name":"evil","inputSchema":{"type":"object"}}]}`)
	res, err := connect(t, tr, &client.Options{Era: client.EraLegacy}).ListTools(context.Background(), &mcp.PaginatedRequestParams{})
	if err == nil {
		t.Fatalf("accepted as %+v", res)
	}
	wantErr(t, err, `duplicate member "tools"`)
}

// On HTTP a tools/list result from which a tool with an invalid
// x-mcp-header is dropped is written anew: a repeated member, or one
// repeated in the tool dropped (which no later decoder sees), is refused
// rather than collapsed into its last occurrence.
func TestToolsListDuplicateMemberWithDroppedTool(t *testing.T) {
	const (
		head    = `{"resultType":"complete","ttlMs":0,"cacheScope":"private","tools":`
		safe    = `{"name":"safe","inputSchema":{"type":"object"}}`
		badSpec = `"inputSchema":{"type":"object","properties":{"a":{"type":"string","x-mcp-header":""}}}}`
	)
	for result, dup := range map[string]string{
		head + `[` + safe + `],"tools":[{"name":"bad",` + badSpec + `]}`:     `"tools"`,
		head + `[` + safe + `,{"name":"bad","name":"safe",` + badSpec + `]}`: `"name"`,
	} {
		t.Run(dup, func(t *testing.T) {
			tr := fakeHTTP(t, func(req wireRequest, w http.ResponseWriter) {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, result)
			})
			res, err := connect(t, tr, nil).ListTools(context.Background(), &mcp.PaginatedRequestParams{})
			if err == nil {
				t.Fatalf("accepted as %+v", res)
			}
			wantErr(t, err, "duplicate member "+dup)
		})
	}
}

// An initialize result that names a member twice, at any depth the client
// reads (the version, the capabilities Listen and logging/setLevel go by),
// fails Connect.
func TestLegacyInitializeWithDuplicateMember(t *testing.T) {
	for _, tc := range []struct{ result, dup string }{
		{`{"protocolVersion":"2025-03-26","protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"s","version":"1"}}`, `"protocolVersion"`},
		{`{"protocolVersion":"2025-06-18","capabilities":{},"capabilities":{"logging":{}},"serverInfo":{"name":"s","version":"1"}}`, `"capabilities"`},
		{`{"protocolVersion":"2025-06-18","capabilities":{"tools":{"listChanged":false,"listChanged":true}},"serverInfo":{"name":"s","version":"1"}}`, `"listChanged"`},
	} {
		t.Run(tc.dup, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			c, err := client.Connect(ctx, legacyStdio(t, tc.result, `{"tools":[]}`), &client.Options{Era: client.EraLegacy})
			if err == nil {
				c.Close()
				t.Fatalf("Connect accepted it; session version %s", c.ProtocolVersion())
			}
			wantErr(t, err, "duplicate member", tc.dup)
		})
	}
}
