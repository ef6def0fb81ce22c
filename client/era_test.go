package client_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/client"
	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/server"
)

// TestMain lets the test binary be a stdio server (MCPGEN_TEST_SERVER set)
// for the CommandTransport tests.
func TestMain(m *testing.M) {
	switch os.Getenv("MCPGEN_TEST_SERVER") {
	case "":
		os.Exit(m.Run())
	case "serve":
		fmt.Fprintln(os.Stderr, "test server starting")
		srv, err := server.New(server.Options{Name: "child", Version: "1.0.0",
			Tools: []server.Tool{server.NewTool(server.ToolInfo{Name: "add"}, func(ctx context.Context, in addArgs) (sum, error) {
				return sum{in.A + in.B}, nil
			})}})
		if err != nil {
			os.Exit(1)
		}
		_ = srv.ServeStdio(context.Background(), os.Stdin, os.Stdout)
		os.Exit(0)
	case "crash":
		fmt.Fprintln(os.Stderr, "panic: the database is on fire")
		os.Exit(3)
	}
}

func childCommand(mode string) *client.CommandTransport {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "MCPGEN_TEST_SERVER="+mode)
	return &client.CommandTransport{Cmd: cmd}
}

func TestCommandTransport(t *testing.T) {
	ctx := context.Background()
	tr := childCommand("serve")
	tr.ShutdownTimeout = 5 * time.Second
	c := connect(t, tr, nil)
	got, _, err := client.CallToolAs[sum](ctx, c, "add", addArgs{A: 40, B: 2})
	if err != nil || got.Sum != 42 {
		t.Fatalf("add = %+v, %v", got, err)
	}
	if !strings.Contains(tr.StderrTail(), "test server starting") {
		t.Fatalf("stderr tail %q", tr.StderrTail())
	}
	start := time.Now()
	if err := c.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if d := time.Since(start); d > 4*time.Second {
		t.Fatalf("Close took %v: the server should exit when its stdin closes, before SIGTERM", d)
	}

	_, err = client.Connect(ctx, childCommand("crash"), nil)
	if err == nil {
		t.Fatal("Connect to a crashing server succeeded")
	}
	wantErr(t, err, "exit status 3", "the database is on fire")
}

func TestLegacySessionWithMcpgenServer(t *testing.T) {
	srv := testServer(t)
	for name, mk := range transports(t, srv) {
		if name == "inmemory" {
			continue // Handle has no server-to-client requests
		}
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			c := connect(t, mk(), &client.Options{
				Era: client.EraLegacy,
				Elicit: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					return &mcp.ElicitResult{Action: "accept", Content: map[string]mcp.ElicitResultContentValue{"name": "Grace"}}, nil
				},
			})
			if !c.Legacy() || c.ProtocolVersion() != "2025-11-25" {
				t.Fatalf("legacy=%v version=%s", c.Legacy(), c.ProtocolVersion())
			}
			got, _, err := client.CallToolAs[sum](ctx, c, "add", addArgs{A: 1, B: 2})
			if err != nil || got.Sum != 3 {
				t.Fatalf("add = %+v, %v", got, err)
			}
			out, err := c.CallTool(ctx, &mcp.CallToolRequestParams{Name: "greet"})
			if err != nil {
				t.Fatalf("greet (a server-to-client elicitation in the session): %v", err)
			}
			if text := firstText(t, out); text != "Hello, Grace" {
				t.Fatalf("greet = %q", text)
			}
		})
	}
}

func TestVersionRetry(t *testing.T) {
	rejected := 0
	tr := fakeHTTP(t, func(req wireRequest, w http.ResponseWriter) {
		var p struct {
			Meta map[string]json.RawMessage `json:"_meta"`
		}
		_ = json.Unmarshal(req.Params, &p)
		w.Header().Set("Content-Type", "application/json")
		if rejected == 0 {
			rejected++
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"],"requested":"2026-07-28"}}}`, req.ID)
			return
		}
		var v string
		_ = json.Unmarshal(p.Meta["io.modelcontextprotocol/protocolVersion"], &v)
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"v=%s"}]}}`, req.ID, v)
	})
	c := connect(t, tr, &client.Options{Era: client.EraModern})
	out, err := c.CallTool(context.Background(), &mcp.CallToolRequestParams{Name: "x"})
	if err != nil {
		t.Fatalf("after -32022: %v", err)
	}
	if text := firstText(t, out); text != "v=2026-07-28" || rejected != 1 {
		t.Fatalf("retry: %q after %d rejections", text, rejected)
	}
}

func TestListen(t *testing.T) {
	srv := testServer(t)
	for name, mk := range transports(t, srv) {
		t.Run(name, func(t *testing.T) {
			c := connect(t, mk(), nil)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			yes := true
			var methods []string
			for n, err := range c.Listen(ctx, mcp.SubscriptionFilter{ToolsListChanged: &yes}) {
				if err != nil {
					t.Fatalf("Listen: %v after %v", err, methods)
				}
				methods = append(methods, n.Method)
				if n.Method == "notifications/subscriptions/acknowledged" {
					if err := srv.AddTools(server.NewTool(server.ToolInfo{Name: "extra_" + name}, func(ctx context.Context, in struct{}) (string, error) { return "", nil })); err != nil {
						t.Fatal(err)
					}
				}
				if n.Method == mcp.MethodNotificationsToolsListChanged {
					break
				}
			}
			if len(methods) != 2 {
				t.Fatalf("notifications = %v", methods)
			}
		})
	}
}

func TestLegacyVersions(t *testing.T) {
	srv := testServer(t)
	for _, v := range []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"} {
		for name, mk := range transports(t, srv) {
			if name == "inmemory" {
				continue
			}
			t.Run(v+"/"+name, func(t *testing.T) {
				c := connect(t, mk(), &client.Options{ProtocolVersion: v})
				if !c.Legacy() || c.ProtocolVersion() != v {
					t.Fatalf("legacy=%v version=%s, want a %s session", c.Legacy(), c.ProtocolVersion(), v)
				}
				got, _, err := client.CallToolAs[sum](context.Background(), c, "add", addArgs{A: 5, B: 6})
				if err != nil || got.Sum != 11 {
					t.Fatalf("add = %+v, %v", got, err)
				}
			})
		}
	}
}
