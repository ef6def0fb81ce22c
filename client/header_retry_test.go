package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"

	"github.com/mcpgen/mcpgen/client"
	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// headerServer is a scripted 2026-07-28 server whose tool "regional"
// mirrors its region argument into the header named by header; a
// tools/call without that Mcp-Param-* header is -32020. It records the
// methods and the Mcp-Param-* headers it received.
type headerServer struct {
	mu      sync.Mutex
	header  string // the x-mcp-header of the current tool definition
	methods []string
	params  []string // per tools/call: the Mcp-Param-* header names sent
}

func (s *headerServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req wireRequest
	_ = json.NewDecoder(r.Body).Decode(&req)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.methods = append(s.methods, req.Method)
	w.Header().Set("Content-Type", "application/json")
	switch req.Method {
	case "server/discover":
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, discoverResult)
	case "tools/list":
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"resultType":"complete","ttlMs":0,"cacheScope":"private","tools":[`+
			`{"name":"regional","inputSchema":{"type":"object","properties":{"region":{"type":"string","x-mcp-header":%q}},"required":["region"]}}]}}`,
			req.ID, s.header)
	case "tools/call":
		var sent []string
		for k := range r.Header {
			if len(k) > len("Mcp-Param-") && http.CanonicalHeaderKey(k)[:len("Mcp-Param-")] == "Mcp-Param-" {
				sent = append(sent, http.CanonicalHeaderKey(k))
			}
		}
		slices.Sort(sent)
		s.params = append(s.params, fmt.Sprint(sent))
		if r.Header.Get("Mcp-Param-"+s.header) != "eu-west" {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32020,"message":"Header mismatch: Mcp-Param-%s"}}`, req.ID, s.header)
			return
		}
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"resultType":"complete","content":[{"type":"text","text":"ok"}]}}`, req.ID)
	default:
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}`, req.ID)
	}
}

func (s *headerServer) set(header string) { s.mu.Lock(); s.header = header; s.mu.Unlock() }

func (s *headerServer) log() ([]string, []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.methods), slices.Clone(s.params)
}

func regionalCall(ctx context.Context, c *client.Client) (mcp.CallToolOutcome, error) {
	return c.CallTool(ctx, &mcp.CallToolRequestParams{Name: "regional", Arguments: json.RawMessage(`{"region":"eu-west"}`)})
}

func TestHeaderMismatchRelistsToolsAndResendsOnce(t *testing.T) {
	ctx := context.Background()
	hsrv := &headerServer{header: "Region"}
	hs := httptest.NewServer(hsrv)
	t.Cleanup(hs.Close)
	c := connect(t, client.HTTP(hs.URL), nil)
	if _, err := c.ListTools(ctx, &mcp.PaginatedRequestParams{}); err != nil {
		t.Fatal(err)
	}
	hsrv.set("Zone") // the tool's x-mcp-header annotation changes on the server
	out, err := regionalCall(ctx, c)
	if err != nil {
		t.Fatalf("tools/call after the annotation changed: %v", err)
	}
	if text := firstText(t, out); text != "ok" {
		t.Fatalf("result %q", text)
	}
	methods, params := hsrv.log()
	want := []string{"server/discover", "tools/list", "tools/call", "tools/list", "tools/call"}
	if !slices.Equal(methods, want) {
		t.Fatalf("methods %v, want %v", methods, want)
	}
	if !slices.Equal(params, []string{"[Mcp-Param-Region]", "[Mcp-Param-Zone]"}) {
		t.Fatalf("Mcp-Param-* headers per call %v: the resend must carry the new annotation's header", params)
	}

	// A server that rejects every call: one resend, then the -32020 error.
	hsrv.set("Never")
	before := len(methods)
	_, err = c.CallTool(ctx, &mcp.CallToolRequestParams{Name: "regional", Arguments: json.RawMessage(`{"region":"x"}`)})
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != -32020 {
		t.Fatalf("err = %v, want the server's -32020", err)
	}
	methods, _ = hsrv.log()
	if got := methods[before:]; !slices.Equal(got, []string{"tools/call", "tools/list", "tools/call"}) {
		t.Fatalf("after a second mismatch the client sent %v, want one relist and one resend", got)
	}
}
