package server_test

import (
	"context"
	"fmt"

	"github.com/mcpgen/mcpgen/server"
)

type SearchParams struct {
	Query string `json:"query"`
}

type SearchResult struct {
	Hits []string `json:"hits"`
}

// A user extension: one cacheable method with typed params and result,
// declared in capabilities.extensions with its settings, served only while
// the server offers resources.
func ExampleNewMethod() {
	notes := server.Extension{
		ID:       "com.example/notes",
		Settings: map[string]bool{"search": true},
		Requires: []string{"resources"},
		Methods: []server.ExtensionMethod{
			server.NewMethod(server.MethodInfo{Name: "notes/search", Cacheable: true},
				func(ctx context.Context, p SearchParams) (*SearchResult, error) {
					return &SearchResult{Hits: []string{"note about " + p.Query}}, nil
				}),
		},
	}
	readme := server.NewResource(server.ResourceInfo{URI: "notes://readme", Name: "readme"},
		func(ctx context.Context) (string, error) { return "notes", nil })
	srv, err := server.New(server.Options{Name: "notes", Version: "1.0.0", Extensions: []server.Extension{notes}, Resources: []server.Resource{readme}})
	if err != nil {
		panic(err)
	}
	resp := srv.HandleBytes(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"notes/search","params":{`+
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"query":"go"}}`), nil)
	fmt.Println(string(resp.Body))
	// Output:
	// {"jsonrpc":"2.0","id":1,"result":{"hits":["note about go"],"resultType":"complete","ttlMs":0,"cacheScope":"public","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"notes","version":"1.0.0"}}}}
}
