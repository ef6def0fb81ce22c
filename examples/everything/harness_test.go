package main

import (
	"context"
	"encoding/json"
	"maps"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/jsonrpc"
	"github.com/mcpgen/mcpgen/server"
)

// The tests drive the server in process, the way the conformance suite
// drives it over HTTP: raw JSON-RPC requests through Server.Handle (exact
// wire output, notifications) and the typed client over Server.Caller.

// testServer builds a fresh everything server.
func testServer(t *testing.T) *server.Server {
	t.Helper()
	srv, err := newServer(deployment{})
	if err != nil {
		t.Fatalf("newServer: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	})
	return srv
}

// allCaps are the client capabilities the suite declares by default.
var allCaps = mcp.ClientCapabilities{
	Sampling:    &mcp.ClientCapabilitiesSampling{},
	Elicitation: &mcp.ClientCapabilitiesElicitation{},
	Roots:       &mcp.ClientCapabilitiesRoots{},
}

// testClient is a typed client of srv declaring caps.
func testClient(srv *server.Server, caps mcp.ClientCapabilities) *mcp.Client {
	return mcp.NewClient(srv.Caller(server.CallerOptions{
		ClientInfo:         mcp.Implementation{Name: "everything-test", Version: "1.0.0"},
		ClientCapabilities: caps,
	}))
}

// notification is one notification a handler sent.
type notification struct {
	Method string
	Params map[string]any
}

// recorder is a server.MessageWriter that keeps what it is sent.
type recorder struct {
	mu    sync.Mutex
	notes []notification
	sent  chan struct{} // gets a value per notification (buffered)
}

func newRecorder() *recorder { return &recorder{sent: make(chan struct{}, 64)} }

func (r *recorder) Notify(method string, params any) error {
	b, err := json.Marshal(params)
	if err != nil {
		return err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	r.mu.Lock()
	r.notes = append(r.notes, notification{Method: method, Params: m})
	r.mu.Unlock()
	select {
	case r.sent <- struct{}{}:
	default:
	}
	return nil
}

func (r *recorder) list() []notification {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]notification(nil), r.notes...)
}

// rpcResponse is a decoded JSON-RPC response.
type rpcResponse struct {
	ID     json.RawMessage `json:"id"`
	Result map[string]any  `json:"result"`
	Error  *struct {
		Code    int64          `json:"code"`
		Message string         `json:"message"`
		Data    map[string]any `json:"data"`
	} `json:"error"`
}

// defaultMeta is the _meta the conformance suite sends, with caps.
func defaultMeta(caps any) map[string]any {
	return map[string]any{
		"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
		"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "conformance-test-client", "version": "1.0.0"},
		"io.modelcontextprotocol/clientCapabilities": caps,
	}
}

// suiteCaps is the suite's default clientCapabilities, as JSON.
var suiteCaps = map[string]any{"sampling": map[string]any{}, "elicitation": map[string]any{}, "roots": map[string]any{"listChanged": true}}

// rawCall sends one request through Handle; params get the suite's default
// _meta merged with metaOver. It returns the decoded response and the
// notifications sent while handling it.
func rawCall(t *testing.T, srv *server.Server, method string, params map[string]any, metaOver map[string]any) (rpcResponse, []notification) {
	t.Helper()
	rec := newRecorder()
	resp := handle(t, context.Background(), srv, method, params, metaOver, rec)
	return resp, rec.list()
}

var nextID = struct {
	sync.Mutex
	n int
}{n: 1}

func handle(t *testing.T, ctx context.Context, srv *server.Server, method string, params, metaOver map[string]any, w server.MessageWriter) rpcResponse {
	t.Helper()
	id, res := handleRaw(t, ctx, srv, method, params, metaOver, w)
	var out rpcResponse
	if err := json.Unmarshal(res.Body, &out); err != nil {
		t.Fatalf("%s: response %q: %v", method, res.Body, err)
	}
	if string(out.ID) != jsonText(t, id) {
		t.Errorf("%s: response id %s, want %d", method, out.ID, id)
	}
	if out.Error != nil && res.Code != out.Error.Code {
		t.Errorf("%s: Response.Code %d, body error code %d", method, res.Code, out.Error.Code)
	}
	return out
}

// handleRaw sends one request through Handle and returns its id and the
// undecoded response (empty when ctx was cancelled).
func handleRaw(t *testing.T, ctx context.Context, srv *server.Server, method string, params, metaOver map[string]any, w server.MessageWriter) (int, server.Response) {
	p := maps.Clone(params)
	if p == nil {
		p = map[string]any{}
	}
	meta := defaultMeta(suiteCaps)
	maps.Copy(meta, metaOver)
	p["_meta"] = meta
	nextID.Lock()
	id := nextID.n
	nextID.n++
	nextID.Unlock()
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": p})
	if err != nil {
		panic(err) // a test literal that does not encode
	}
	msg, rerr := jsonrpc.Decode(body)
	if rerr != nil {
		panic(rerr)
	}
	return id, srv.Handle(ctx, msg, w)
}

// mustResult fails unless resp is a result and returns it.
func mustResult(t *testing.T, what string, resp rpcResponse) map[string]any {
	t.Helper()
	if resp.Error != nil {
		t.Fatalf("%s: JSON-RPC error %d %q (data %v)", what, resp.Error.Code, resp.Error.Message, resp.Error.Data)
	}
	if resp.Result == nil {
		t.Fatalf("%s: no result", what)
	}
	return resp.Result
}

// callTool calls a tool with the suite's default _meta; args nil means no
// "arguments" key at all.
func callTool(t *testing.T, srv *server.Server, name string, args map[string]any) rpcResponse {
	t.Helper()
	params := map[string]any{"name": name}
	if args != nil {
		params["arguments"] = args
	}
	resp, _ := rawCall(t, srv, "tools/call", params, nil)
	return resp
}

// jsonText is v encoded as JSON.
func jsonText(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// asJSON converts v (e.g. a literal) to its generic JSON form for comparison.
func asJSON(t *testing.T, v any) any {
	t.Helper()
	var out any
	var b []byte
	switch v := v.(type) {
	case string:
		b = []byte(v)
	default:
		b = []byte(jsonText(t, v))
	}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("asJSON(%s): %v", b, err)
	}
	return out
}

// equalJSON fails unless got and want are the same JSON value.
func equalJSON(t *testing.T, what string, got, want any) {
	t.Helper()
	g, w := asJSON(t, got), asJSON(t, want)
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s:\n got %s\nwant %s", what, jsonText(t, g), jsonText(t, w))
	}
}
