package server

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// panicJSON is a value of the tool's whose MarshalJSON panics (a nil map
// or pointer it reads, say).
type panicJSON struct{}

func (panicJSON) MarshalJSON() ([]byte, error) { panic("MarshalJSON bug") }

// TestResultEncodePanicIsInternalError: README "Middleware and
// observability": "tool, prompt and resource functions and handlers are
// always recovered (-32603, logged)" and the server keeps serving. A tool
// returning *mcp.CallToolResult (README: "whatever a returned
// *mcp.CallToolResult ... holds") is encoded by encodeResult after
// s.call's recovery has ended, so a panic in the tool's own MarshalJSON
// there kills the server process on stdio (the HTTP worker alike). The
// same MarshalJSON in a typed tool's output (encoded inside the tool's
// run) is answered -32603.
func TestResultEncodePanicIsInternalError(t *testing.T) {
	if os.Getenv("MCPGEN_CHILD_SCENARIO") == "1" {
		childStdioCall(t, Options{Tools: []Tool{NewTool(ToolInfo{Name: "tn"}, func(ctx context.Context, in json.RawMessage) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{}, StructuredContent: map[string]any{"a": panicJSON{}}}, nil
		})}})
		return
	}
	checkChildServes(t, "TestResultEncodePanicIsInternalError")
}
