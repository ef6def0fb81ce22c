package mcpgopeer

import (
	"context"
	"encoding/json"
)

// InProcess is mcp-go's in-memory path: MCPServer.HandleMessage on the raw
// request, then json.Marshal of the reply (as its stdio transport does).
type InProcess struct{}

// Name describes the path.
func (InProcess) Name() string { return "mcp-go MCPServer.HandleMessage + json.Marshal" }

// Setup builds a fresh server.
func (InProcess) Setup() (func([]byte) ([]byte, error), func(), error) {
	s := New()
	ctx := context.Background()
	call := func(req []byte) ([]byte, error) {
		return json.Marshal(s.HandleMessage(ctx, req))
	}
	return call, func() {}, nil
}

// Start builds the server with tools tools (the start-up rows).
func (InProcess) Start(tools int) error {
	NewWithTools(tools)
	return nil
}
