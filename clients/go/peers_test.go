package goclient

import (
	"context"
	"fmt"
	"net/http"
	"os"

	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"

	mcpgomcp "github.com/mark3labs/mcp-go/mcp"
	mcpgoserver "github.com/mark3labs/mcp-go/server"
)

// The peers serve one tool, weather_current, with structured output.

type weatherArgs struct {
	Location string `json:"location" jsonschema:"city name"`
	Units    string `json:"units,omitempty" jsonschema:"unit system"`
}

type weatherOut struct {
	Location    string  `json:"location"`
	Units       string  `json:"units"`
	Temperature float64 `json:"temperature"`
}

func temperature(units string) float64 {
	switch units {
	case "imperial":
		return 21.5*9/5 + 32
	case "kelvin":
		return 21.5 + 273.15
	}
	return 21.5
}

func weatherText(in weatherArgs) string {
	return fmt.Sprintf("%s: %.2f (%s)", in.Location, temperature(in.Units), in.Units)
}

// goSDKServer is a go-sdk v1.8.0 server with weather_current and ask (an
// elicitation through the session).
func goSDKServer() *gosdk.Server {
	s := gosdk.NewServer(&gosdk.Implementation{Name: "gosdk-peer", Version: "0.1.0"}, nil)
	gosdk.AddTool(s, &gosdk.Tool{Name: "weather_current", Description: "Current weather"},
		func(ctx context.Context, req *gosdk.CallToolRequest, in weatherArgs) (*gosdk.CallToolResult, weatherOut, error) {
			if in.Units == "" {
				in.Units = "metric"
			}
			return &gosdk.CallToolResult{Content: []gosdk.Content{&gosdk.TextContent{Text: weatherText(in)}}},
				weatherOut{in.Location, in.Units, temperature(in.Units)}, nil
		})
	return s
}

func goSDKHandler(stateless bool) http.Handler {
	s := goSDKServer()
	return gosdk.NewStreamableHTTPHandler(func(*http.Request) *gosdk.Server { return s },
		&gosdk.StreamableHTTPOptions{Stateless: stateless})
}

// mcpGoServer is an mcp-go v1.2.1 server with weather_current.
func mcpGoServer() *mcpgoserver.MCPServer {
	s := mcpgoserver.NewMCPServer("mcpgo-peer", "0.1.0", mcpgoserver.WithToolCapabilities(false))
	s.AddTool(mcpgomcp.NewTool("weather_current",
		mcpgomcp.WithDescription("Current weather"),
		mcpgomcp.WithString("location", mcpgomcp.Required()),
		mcpgomcp.WithString("units", mcpgomcp.Enum("metric", "imperial", "kelvin")),
		mcpgomcp.WithOutputSchema[weatherOut](),
	), mcpgomcp.NewTypedToolHandler(func(_ context.Context, _ mcpgomcp.CallToolRequest, in weatherArgs) (*mcpgomcp.CallToolResult, error) {
		if in.Units == "" {
			in.Units = "metric"
		}
		return mcpgomcp.NewToolResultStructured(weatherOut{in.Location, in.Units, temperature(in.Units)}, weatherText(in)), nil
	}))
	return s
}

// servePeerStdio runs the peer named by MCPGEN_PEER on stdin/stdout when
// the test binary is started as a server (see TestMain).
func servePeerStdio(name string) error {
	ctx := context.Background()
	switch name {
	case "gosdk":
		return goSDKServer().Run(ctx, &gosdk.StdioTransport{})
	case "mcpgo":
		return mcpgoserver.NewStdioServer(mcpGoServer()).Listen(ctx, os.Stdin, os.Stdout)
	}
	return fmt.Errorf("unknown peer %q", name)
}
