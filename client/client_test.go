package client_test

import (
	"context"
	"errors"
	"io"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/client"
	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/server"
)

type addArgs struct {
	A int `json:"a" jsonschema:"required"`
	B int `json:"b" jsonschema:"required"`
}

type sum struct {
	Sum int `json:"sum"`
}

type regionArgs struct {
	Region string `json:"region" jsonschema:"required" jsonschema_extras:"x-mcp-header=Region"`
}

// testServer is an mcpgen server with a structured tool, a tool that asks
// for input (multi round-trip), one that reports progress, and one that
// mirrors an argument into a header.
func testServer(t *testing.T) *server.Server {
	t.Helper()
	srv, err := server.New(server.Options{
		Name: "client-test", Version: "1.0.0",
		Tools: []server.Tool{
			server.NewTool(server.ToolInfo{Name: "add"}, func(ctx context.Context, in addArgs) (sum, error) {
				return sum{in.A + in.B}, nil
			}),
			server.NewTool(server.ToolInfo{Name: "greet"}, func(ctx context.Context, in struct{}) (string, error) {
				resp, err := server.Ask(ctx, "who", &mcp.ElicitRequest{Params: &mcp.ElicitRequestFormParams{
					Message: "name?",
					RequestedSchema: mcp.ElicitRequestFormParamsRequestedSchema{
						Properties: map[string]mcp.PrimitiveSchemaDefinition{"name": &mcp.StringSchema{}},
					},
				}})
				if err != nil {
					return "", err
				}
				r, ok := resp.(*mcp.ElicitResult)
				if !ok {
					return "", errors.New("not an elicit result")
				}
				name, _ := r.Content["name"].(string)
				return "Hello, " + name, nil
			}),
			server.NewTool(server.ToolInfo{Name: "slow"}, func(ctx context.Context, in struct{}) (string, error) {
				for i := 1; i <= 3; i++ {
					server.Progress(ctx, float64(i), 3, "step")
				}
				return "done", nil
			}),
			server.NewTool(server.ToolInfo{Name: "regional"}, func(ctx context.Context, in regionArgs) (string, error) {
				return "region " + in.Region, nil
			}),
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// transports returns a fresh transport of every kind to srv.
func transports(t *testing.T, srv *server.Server) map[string]func() client.Transport {
	return map[string]func() client.Transport{
		"inmemory": func() client.Transport { return client.InMemory(srv) },
		"stdio": func() client.Transport {
			cr, sw := io.Pipe()
			sr, cw := io.Pipe()
			ctx, cancel := context.WithCancel(context.Background())
			var wg sync.WaitGroup
			wg.Add(1)
			go func() { defer wg.Done(); _ = srv.ServeStdio(ctx, sr, sw); sw.Close() }()
			t.Cleanup(func() { cw.Close(); cancel(); wg.Wait() })
			return client.NewStreamTransport(cr, cw, 0)
		},
		"http": func() client.Transport {
			hs := httptest.NewServer(srv.HTTPHandler(server.HTTPOptions{}))
			t.Cleanup(hs.Close)
			return client.HTTP(hs.URL)
		},
	}
}

func connect(t *testing.T, tr client.Transport, opts *client.Options) *client.Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := client.Connect(ctx, tr, opts)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestClientOverEveryTransport(t *testing.T) {
	srv := testServer(t)
	for name, mk := range transports(t, srv) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			asked := 0
			c := connect(t, mk(), &client.Options{
				ClientInfo: mcp.Implementation{Name: "test-host", Version: "0.1"},
				Elicit: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					asked++
					return &mcp.ElicitResult{Action: "accept", Content: map[string]mcp.ElicitResultContentValue{"name": "Ada"}}, nil
				},
			})
			if c.Legacy() || c.ProtocolVersion() != "2026-07-28" {
				t.Fatalf("era: legacy=%v version=%s", c.Legacy(), c.ProtocolVersion())
			}
			if info := c.ServerInfo(); info == nil || len(info.SupportedVersions) == 0 {
				t.Fatalf("discover result: %+v", info)
			}
			tools, err := c.AllTools(ctx)
			if err != nil || len(tools) != 4 {
				t.Fatalf("AllTools: %d tools, %v", len(tools), err)
			}
			got, res, err := client.CallToolAs[sum](ctx, c, "add", addArgs{A: 2, B: 3})
			if err != nil || got.Sum != 5 || res == nil {
				t.Fatalf("CallToolAs add = %+v, %v", got, err)
			}
			out, err := c.CallTool(ctx, &mcp.CallToolRequestParams{Name: "greet"})
			if err != nil {
				t.Fatalf("greet: %v", err)
			}
			if text := firstText(t, out); text != "Hello, Ada" || asked != 1 {
				t.Fatalf("greet = %q after %d elicitations", text, asked)
			}
			var steps []float64
			pctx := client.WithProgress(ctx, func(p mcp.ProgressNotificationParams) { steps = append(steps, p.Progress) })
			if _, err := c.CallTool(pctx, &mcp.CallToolRequestParams{Name: "slow"}); err != nil {
				t.Fatalf("slow: %v", err)
			}
			if len(steps) != 3 || steps[2] != 3 {
				t.Fatalf("progress = %v, want 1 2 3", steps)
			}
			out, err = c.CallTool(ctx, &mcp.CallToolRequestParams{Name: "regional", Arguments: []byte(`{"region":"Zürich "}`)})
			if err != nil {
				t.Fatalf("regional (a header value that needs base64): %v", err)
			}
			if text := firstText(t, out); text != "region Zürich " {
				t.Fatalf("regional = %q", text)
			}
		})
	}
}

func firstText(t *testing.T, out mcp.CallToolOutcome) string {
	t.Helper()
	res, ok := out.(*mcp.CallToolResult)
	if !ok || len(res.Content) == 0 {
		t.Fatalf("outcome %T %+v", out, out)
	}
	text, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("content %T", res.Content[0])
	}
	return text.Text
}
