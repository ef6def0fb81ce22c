package mcpgenpeer

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/mcpgen/mcpgen/server"

	"github.com/mcpgen/mcpgen/bench/internal/payload"
)

// touchTool adds one tool to the server it is registered on (the listen
// rows' trigger of notifications/tools/list_changed); srv is set once the
// server exists.
func touchTool(srv *atomic.Pointer[server.Server]) server.Tool {
	var n atomic.Int64
	return server.NewTool(server.ToolInfo{Name: payload.TouchTool, Description: "Add a tool (list_changed to every listener)."},
		func(context.Context, struct{}) (string, error) {
			s := srv.Load()
			if s == nil {
				return "", fmt.Errorf("server not ready")
			}
			name := fmt.Sprintf("touched_%d", n.Add(1))
			if err := s.AddTools(server.NewTool(server.ToolInfo{Name: name}, func(context.Context, struct{}) (string, error) { return "", nil })); err != nil {
				return "", err
			}
			return payload.TouchedText, nil
		})
}
