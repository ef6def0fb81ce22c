package mcpgenpeer

import (
	"context"

	"github.com/mcpgen/mcpgen/server"

	"github.com/mcpgen/mcpgen/bench/internal/payload"
)

// ResultArgs are blob_result's arguments.
type ResultArgs struct {
	Size int `json:"size" jsonschema:"required,minimum=0,maximum=67108864" jsonschema_description:"bytes of text to return"`
}

// StringArgs are echo_string's arguments.
type StringArgs struct {
	Data string `json:"data" jsonschema:"required" jsonschema_description:"any text"`
}

// NestedArgs are echo_nested's arguments.
type NestedArgs struct {
	Items []Item `json:"items" jsonschema:"required"`
}

// Item is one element of NestedArgs.
type Item struct {
	Name  string   `json:"name" jsonschema:"required"`
	Value int      `json:"value" jsonschema:"required"`
	Tags  []string `json:"tags" jsonschema:"required"`
}

// BlobResult returns size bytes of text.
//
//mcp:tool name=blob_result
func (t *Tools) BlobResult(_ context.Context, in ResultArgs) (string, error) {
	return payload.Text(in.Size), nil
}

// EchoString reports the length of its argument.
//
//mcp:tool name=echo_string
func (t *Tools) EchoString(_ context.Context, in StringArgs) (string, error) {
	return payload.LenText(len(in.Data)), nil
}

// EchoNested reports how many items it got.
//
//mcp:tool name=echo_nested
func (t *Tools) EchoNested(_ context.Context, in NestedArgs) (string, error) {
	return payload.ItemsText(len(in.Items)), nil
}

// blobResources are the bench://blob/<size> resources, one per payload size.
// Each blob is made on its first read (payload.Blob caches it), as in every
// peer, so start-up and cold start measure the server, not the fixture.
func blobResources() []server.Resource {
	var rs []server.Resource
	for _, n := range payload.Sizes {
		rs = append(rs, server.NewResource(server.ResourceInfo{URI: payload.BlobURI(n), Name: "blob-" + payload.Label(n),
			MIMEType: "application/octet-stream"}, func(context.Context) ([]byte, error) { return payload.Blob(n), nil }))
	}
	return rs
}
