// Package mcpgopeer builds the weather server with github.com/mark3labs/mcp-go,
// shared by the stdio/HTTP binary and the in-process benchmark.
package mcpgopeer

import (
	"context"
	"net/http"
	"os"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpgen/mcpgen/bench/internal/weather"
)

// Args are the weather_current arguments.
type Args struct {
	Location string `json:"location"`
	Units    string `json:"units,omitempty"`
}

// Out is the structured result, the same shape go-sdk returns.
type Out struct {
	Location    string  `json:"location"`
	Units       string  `json:"units"`
	Temperature float64 `json:"temperature"`
}

func handle(_ context.Context, _ mcp.CallToolRequest, in Args) (*mcp.CallToolResult, error) {
	if in.Units == "" { // mcp-go does not apply schema defaults
		in.Units = weather.DefaultUnits
	}
	out := Out{Location: in.Location, Units: in.Units, Temperature: weather.Temperature(in.Units)}
	return mcp.NewToolResultStructured(out, weather.Text(in.Location, in.Units)), nil
}

// New returns an mcp-go server with the weather_current tool, the payload
// tools and the blob resources, input schema validation switched on (go-sdk
// validates by default).
func New() *server.MCPServer { return NewWithTools(1) }

// NewWithTools is New with tools-1 more copies of weather_current, added
// with one AddTools.
func NewWithTools(tools int) *server.MCPServer {
	s := server.NewMCPServer("mcpgo-weather", "0.1.0",
		server.WithToolCapabilities(true), server.WithResourceCapabilities(false, false), server.WithInputSchemaValidation())
	s.AddTool(weatherTool(weather.ToolName), mcp.NewTypedToolHandler(handle))
	addPayload(s)
	addTouch(s)
	addConfirm(s)
	if tools > 1 {
		s.AddTools(extraTools(tools - 1)...)
	}
	return s
}

func weatherTool(name string) mcp.Tool {
	return mcp.NewTool(name,
		mcp.WithDescription("Current weather for a location"),
		mcp.WithString("location", mcp.Required(), mcp.Description("city name, e.g. Paris")),
		mcp.WithString("units", mcp.Enum(weather.Units...), mcp.DefaultString(weather.DefaultUnits),
			mcp.Description("unit system")),
		mcp.WithOutputSchema[Out](),
	)
}

// Handler returns a stateless Streamable HTTP handler for s.
func Handler(s *server.MCPServer) http.Handler {
	return server.NewStreamableHTTPServer(s, server.WithStateLess(true))
}

// ServeStdio serves s on stdin/stdout until EOF or ctx is done.
func ServeStdio(ctx context.Context, s *server.MCPServer) error {
	return server.NewStdioServer(s).Listen(ctx, os.Stdin, os.Stdout)
}
