// Package gosdkpeer builds the weather server with
// github.com/modelcontextprotocol/go-sdk, shared by the stdio/HTTP binary and
// the in-process benchmark.
package gosdkpeer

import (
	"context"
	"net/http"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/bench/internal/weather"
)

// Args are the weather_current arguments.
type Args struct {
	Location string `json:"location" jsonschema:"city name, e.g. Paris"`
	Units    string `json:"units,omitempty" jsonschema:"unit system"`
}

// Out is the structured result.
type Out struct {
	Location    string  `json:"location"`
	Units       string  `json:"units"`
	Temperature float64 `json:"temperature"`
}

func handle(_ context.Context, _ *mcp.CallToolRequest, in Args) (*mcp.CallToolResult, Out, error) {
	if in.Units == "" { // go-sdk applies the schema default; this is a safety net
		in.Units = weather.DefaultUnits
	}
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: weather.Text(in.Location, in.Units)}}}
	return res, Out{Location: in.Location, Units: in.Units, Temperature: weather.Temperature(in.Units)}, nil
}

// New returns a go-sdk server with the weather_current tool, the payload
// tools and the blob resources.
func New() (*mcp.Server, error) { return NewWithTools(1) }

// NewWithTools is New with tools-1 more copies of weather_current.
func NewWithTools(tools int) (*mcp.Server, error) {
	in, err := jsonschema.For[Args](nil)
	if err != nil {
		return nil, err
	}
	units := in.Properties["units"]
	for _, u := range weather.Units {
		units.Enum = append(units.Enum, u)
	}
	units.Default = []byte(`"` + weather.DefaultUnits + `"`)
	s := mcp.NewServer(&mcp.Implementation{Name: "gosdk-weather", Version: "0.1.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: weather.ToolName, Description: "Current weather for a location", InputSchema: in}, handle)
	addPayload(s)
	addTouch(s)
	addConfirm(s)
	addExtraTools(s, in, tools-1)
	return s, nil
}

// MaxBodyBytes lets the payload rows' 10 MB requests through (every peer is
// given the same limit).
const MaxBodyBytes = 64 << 20

// Handler returns a stateless Streamable HTTP handler for s (go-sdk defaults otherwise).
func Handler(s *mcp.Server) http.Handler {
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{Stateless: true, MaxRequestBodyBytes: MaxBodyBytes})
}

// ServeStdio serves s on stdin/stdout until EOF or ctx is done.
func ServeStdio(ctx context.Context, s *mcp.Server) error {
	return s.Run(ctx, &mcp.StdioTransport{})
}
