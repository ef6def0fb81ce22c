package mcpgopeer

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

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

// addPayload registers the payload tools and the blob resources. mcp-go's
// BlobResourceContents takes base64 text, so the handler encodes the blob
// on every read, as a user of that API must.
func addPayload(s *server.MCPServer) {
	s.AddTool(mcp.NewTool(payload.ResultTool, mcp.WithDescription("size bytes of text"), mcp.WithInputSchema[ResultArgs]()),
		mcp.NewTypedToolHandler(func(_ context.Context, _ mcp.CallToolRequest, in ResultArgs) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(payload.Text(in.Size)), nil
		}))
	s.AddTool(mcp.NewTool(payload.StringTool, mcp.WithDescription("length of data"), mcp.WithInputSchema[StringArgs]()),
		mcp.NewTypedToolHandler(func(_ context.Context, _ mcp.CallToolRequest, in StringArgs) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(payload.LenText(len(in.Data))), nil
		}))
	s.AddTool(mcp.NewTool(payload.NestedTool, mcp.WithDescription("count of items"), mcp.WithInputSchema[NestedArgs]()),
		mcp.NewTypedToolHandler(func(_ context.Context, _ mcp.CallToolRequest, in NestedArgs) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(payload.ItemsText(len(in.Items))), nil
		}))
	for _, n := range payload.Sizes { // each blob made on its first read, as in every peer
		uri := payload.BlobURI(n)
		s.AddResource(mcp.NewResource(uri, "blob-"+payload.Label(n), mcp.WithMIMEType("application/octet-stream")),
			func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
				return []mcp.ResourceContents{mcp.BlobResourceContents{URI: uri, MIMEType: "application/octet-stream", Blob: payload.Base64(payload.Blob(n))}}, nil
			})
	}
}

// extraTools returns n copies of weather_current (weather_00001, …) for AddTools.
func extraTools(n int) []server.ServerTool {
	tools := make([]server.ServerTool, 0, max(n, 0))
	for i := 1; i <= n; i++ {
		tools = append(tools, server.ServerTool{Tool: weatherTool(fmt.Sprintf("weather_%05d", i)), Handler: mcp.NewTypedToolHandler(handle)})
	}
	return tools
}

// addTouch registers touch_tools, which adds a tool to s.
func addTouch(s *server.MCPServer) {
	var n atomic.Int64
	s.AddTool(mcp.NewTool(payload.TouchTool, mcp.WithDescription("Add a tool (list_changed to every listener).")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			s.AddTool(mcp.NewTool(fmt.Sprintf("touched_%d", n.Add(1))),
				func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					return mcp.NewToolResultText(""), nil
				})
			return mcp.NewToolResultText(payload.TouchedText), nil
		})
}

// addConfirm registers confirm_nested, the multi round-trip row's tool:
// without an answer it returns an input-required result (an elicitation
// and a request state, built with InputRequestBuilder); with one it counts
// the items.
func addConfirm(s *server.MCPServer) {
	s.AddTool(mcp.NewTool(payload.ConfirmTool, mcp.WithDescription("confirm, then count the items"), mcp.WithInputSchema[NestedArgs]()),
		mcp.NewTypedToolHandler(func(_ context.Context, req mcp.CallToolRequest, in NestedArgs) (*mcp.CallToolResult, error) {
			if _, ok := req.Params.InputResponses[payload.ConfirmKey]; !ok || req.Params.RequestState != payload.ConfirmState {
				return server.NewInputRequestBuilder(payload.ConfirmState).Elicit(payload.ConfirmKey, mcp.ElicitationParams{
					Message:         payload.ConfirmMessage,
					RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"ok": map[string]any{"type": "boolean"}}},
				}).ToolResult(), nil
			}
			return mcp.NewToolResultText(payload.ItemsText(len(in.Items))), nil
		}))
}
