package goclient

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	mcpgoserver "github.com/mark3labs/mcp-go/server"

	"github.com/mcpgen/mcpgen/client"
	"github.com/mcpgen/mcpgen/generated/mcp"
)

func TestMain(m *testing.M) {
	if peer := os.Getenv("MCPGEN_PEER"); peer != "" {
		if err := servePeerStdio(peer); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// peer is one server to test against.
type peer struct {
	name      string
	transport func(t *testing.T) client.Transport
	// legacyOnly: the server speaks only initialize sessions, so every era
	// option ends in one.
	legacyOnly bool
}

// selfCommand starts this test binary as the stdio peer name.
func selfCommand(name string) func(t *testing.T) client.Transport {
	return func(t *testing.T) client.Transport {
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), "MCPGEN_PEER="+name)
		return &client.CommandTransport{Cmd: cmd}
	}
}

func peers() []peer {
	ps := []peer{
		{name: "go-sdk/stdio", transport: selfCommand("gosdk")},
		{name: "go-sdk/http", transport: func(t *testing.T) client.Transport {
			hs := httptest.NewServer(goSDKHandler(true))
			t.Cleanup(hs.Close)
			return client.HTTP(hs.URL)
		}},
		{name: "mcp-go/stdio", transport: selfCommand("mcpgo")},
		{name: "mcp-go/http", transport: func(t *testing.T) client.Transport {
			hs := httptest.NewServer(mcpgoserver.NewStreamableHTTPServer(mcpGoServer()))
			t.Cleanup(hs.Close)
			return client.HTTP(hs.URL + "/mcp")
		}},
		// mcp-go's SSEServer speaks only the deprecated HTTP+SSE transport
		// of 2024-11-05: POST /sse is 405, so the client GETs it, reads the
		// endpoint event and posts to /message.
		{name: "mcp-go/http+sse", legacyOnly: true, transport: func(t *testing.T) client.Transport {
			sse := mcpgoserver.NewSSEServer(mcpGoServer())
			var streams, posts atomic.Int32
			hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				switch {
				case r.Method == http.MethodGet && r.URL.Path == "/sse":
					streams.Add(1)
				case r.Method == http.MethodPost && r.URL.Path == "/message":
					posts.Add(1)
				}
				sse.ServeHTTP(w, r)
			}))
			t.Cleanup(func() {
				if streams.Load() != 1 || posts.Load() < 4 { // initialize, initialized, tools/list, tools/call
					t.Errorf("the HTTP+SSE server saw %d GET streams and %d message POSTs, want 1 and at least 4", streams.Load(), posts.Load())
				}
			})
			t.Cleanup(hs.Close)
			return client.HTTP(hs.URL + "/sse")
		}},
	}
	return append(ps, tsPeers()...)
}

func TestRealServers(t *testing.T) {
	for _, p := range peers() {
		for _, era := range []struct {
			name   string
			era    client.Era
			legacy bool
		}{{"modern", client.EraAuto, false}, {"legacy", client.EraLegacy, true}} {
			if p.legacyOnly {
				era.legacy = true
			}
			t.Run(p.name+"/"+era.name, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				c, err := client.Connect(ctx, p.transport(t), &client.Options{
					ClientInfo: mcp.Implementation{Name: "mcpgen-interop", Version: "1.0.0"},
					Era:        era.era,
				})
				if err != nil {
					t.Fatalf("Connect: %v", err)
				}
				defer c.Close()
				if c.Legacy() != era.legacy {
					t.Fatalf("Legacy() = %v at %s, want %v", c.Legacy(), c.ProtocolVersion(), era.legacy)
				}
				tools, err := c.AllTools(ctx)
				if err != nil {
					t.Fatalf("tools/list: %v", err)
				}
				if len(tools) != 1 || tools[0].Name != "weather_current" {
					t.Fatalf("tools = %+v", tools)
				}
				out, res, err := client.CallToolAs[weatherOut](ctx, c, "weather_current", map[string]string{"location": "Paris", "units": "kelvin"})
				if err != nil {
					t.Fatalf("CallToolAs: %v", err)
				}
				if out.Location != "Paris" || out.Units != "kelvin" || out.Temperature != 294.65 {
					t.Fatalf("structuredContent = %+v", out)
				}
				text, _ := res.Content[0].(*mcp.TextContent)
				if text == nil || text.Text != "Paris: 294.65 (kelvin)" {
					t.Fatalf("content = %+v", res.Content)
				}
				if c.Legacy() != era.legacy {
					t.Fatalf("after the calls Legacy() = %v at %s, want %v", c.Legacy(), c.ProtocolVersion(), era.legacy)
				}
			})
		}
	}
}

// repoRoot is the mcpgen checkout this module sits in.
func repoRoot(t *testing.T) string {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Clean(filepath.Join(wd, "..", ".."))
}
