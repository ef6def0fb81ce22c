package goclient

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/client"
)

// tsPeers are the TypeScript SDK v2 server (clients/servers/ts-v2-server.mjs)
// on the Node 22 clients/run.sh installs, over stdio and HTTP. Without the
// npm install they fail and say how to get it.
func tsPeers() []peer {
	return []peer{
		{name: "ts-sdk-v2/stdio", transport: func(t *testing.T) client.Transport {
			node, script := tsServer(t)
			return &client.CommandTransport{Cmd: exec.Command(node, script)}
		}},
		{name: "ts-sdk-v2/http", transport: func(t *testing.T) client.Transport {
			node, script := tsServer(t)
			cmd := exec.Command(node, script, "--http")
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			cmd.Stderr = os.Stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
			lines := make(chan string, 1)
			go func() {
				s := bufio.NewScanner(out)
				for s.Scan() {
					if url, ok := strings.CutPrefix(s.Text(), "listening "); ok {
						lines <- url
					}
				}
			}()
			select {
			case url := <-lines:
				return client.HTTP(url)
			case <-time.After(15 * time.Second):
				t.Fatal("the TS SDK v2 server did not print its URL within 15 s")
			}
			return nil
		}},
	}
}

// tsServer returns the Node 22 binary and the server script.
func tsServer(t *testing.T) (node, script string) {
	t.Helper()
	clients := filepath.Join(repoRoot(t), "clients")
	node = filepath.Join(clients, "node_modules", "node", "bin", "node")
	script = filepath.Join(clients, "servers", "ts-v2-server.mjs")
	if _, err := os.Stat(filepath.Join(clients, "node_modules", "@modelcontextprotocol", "server", "package.json")); err != nil {
		t.Fatalf("the TS SDK v2 server is not installed (run clients/run.sh, or npm ci in clients/): %v", err)
	}
	return node, script
}
