package gosdkpeer

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/bench/internal/payload"
)

// ResultArgs are blob_result's arguments.
type ResultArgs struct {
	Size int `json:"size"`
}

// StringArgs are echo_string's arguments.
type StringArgs struct {
	Data string `json:"data"`
}

// NestedArgs are echo_nested's arguments.
type NestedArgs struct {
	Items []payload.Item `json:"items"`
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

// addPayload registers the payload tools and the blob resources.
func addPayload(s *mcp.Server) {
	mcp.AddTool(s, &mcp.Tool{Name: payload.ResultTool, Description: "size bytes of text"},
		func(_ context.Context, _ *mcp.CallToolRequest, in ResultArgs) (*mcp.CallToolResult, any, error) {
			return text(payload.Text(in.Size)), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: payload.StringTool, Description: "length of data"},
		func(_ context.Context, _ *mcp.CallToolRequest, in StringArgs) (*mcp.CallToolResult, any, error) {
			return text(payload.LenText(len(in.Data))), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: payload.NestedTool, Description: "count of items"},
		func(_ context.Context, _ *mcp.CallToolRequest, in NestedArgs) (*mcp.CallToolResult, any, error) {
			return text(payload.ItemsText(len(in.Items))), nil, nil
		})
	for _, n := range payload.Sizes { // each blob made on its first read, as in every peer
		uri := payload.BlobURI(n)
		s.AddResource(&mcp.Resource{URI: uri, Name: "blob-" + payload.Label(n), MIMEType: "application/octet-stream"},
			func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "application/octet-stream", Blob: payload.Blob(n)}}}, nil
			})
	}
}

// addExtraTools adds n copies of weather_current (weather_00001, …).
func addExtraTools(s *mcp.Server, in *jsonschema.Schema, n int) {
	for i := 1; i <= n; i++ {
		mcp.AddTool(s, &mcp.Tool{Name: fmt.Sprintf("weather_%05d", i), Description: "Current weather for a location", InputSchema: in}, handle)
	}
}

// addTouch registers touch_tools, which adds a tool to s.
func addTouch(s *mcp.Server) {
	var n atomic.Int64
	mcp.AddTool(s, &mcp.Tool{Name: payload.TouchTool, Description: "Add a tool (list_changed to every listener)."},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			mcp.AddTool(s, &mcp.Tool{Name: fmt.Sprintf("touched_%d", n.Add(1))},
				func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
					return text(""), nil, nil
				})
			return text(payload.TouchedText), nil, nil
		})
}

// addConfirm registers confirm_nested, the multi round-trip row's tool:
// without an answer it returns an input-required result (an elicitation
// and a request state); with one it counts the items.
func addConfirm(s *mcp.Server) {
	mcp.AddTool(s, &mcp.Tool{Name: payload.ConfirmTool, Description: "confirm, then count the items"},
		func(_ context.Context, req *mcp.CallToolRequest, in NestedArgs) (*mcp.CallToolResult, any, error) {
			if _, ok := req.Params.InputResponses[payload.ConfirmKey]; !ok || req.Params.RequestState != payload.ConfirmState {
				return &mcp.CallToolResult{
					InputRequests: mcp.InputRequestMap{payload.ConfirmKey: &mcp.ElicitParams{Mode: "form", Message: payload.ConfirmMessage,
						RequestedSchema: json.RawMessage(`{"type":"object","properties":{"ok":{"type":"boolean"}}}`)}},
					RequestState: payload.ConfirmState,
				}, nil, nil
			}
			return text(payload.ItemsText(len(in.Items))), nil, nil
		})
}
