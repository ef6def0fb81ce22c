package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// Test fixtures of the core: a server with tools, prompts and resources that
// exercise every runtime path, and helpers that drive Handle directly.

type weatherArgs struct {
	Location string `json:"location" jsonschema:"required,description=City name"`
	Units    string `json:"units,omitempty" jsonschema:"enum=metric,enum=imperial,enum=kelvin,default=metric"`
}

type weatherReport struct {
	Location    string  `json:"location"`
	Units       string  `json:"units"`
	Temperature float64 `json:"temperature"`
}

type noArgs struct{}

type greetArgs struct {
	Name string `json:"name" jsonschema:"required,description=Who to greet"`
	Tone string `json:"tone,omitempty"`
}

func (greetArgs) Complete(ctx context.Context, argument, value string, context map[string]string) ([]string, error) {
	var out []string
	for _, n := range []string{"alice", "albert", "bob"} {
		if argument == "name" && strings.HasPrefix(n, value) {
			out = append(out, n)
		}
	}
	return out, nil
}

type itemVars struct {
	ID string `json:"id"`
}

// gate lets a test hold a tool call until it is released or cancelled.
type gate struct {
	started   chan string
	release   chan struct{}
	cancelled chan string
}

func newGate() *gate {
	return &gate{started: make(chan string, 100), release: make(chan struct{}), cancelled: make(chan string, 100)}
}

type fixture struct {
	s    *Server
	gate *gate
}

func weatherTool() Tool {
	return NewTool(ToolInfo{Name: "weather_current", Description: "Current weather"},
		func(ctx context.Context, in weatherArgs) (weatherReport, error) {
			t := 21.5
			if in.Units == "imperial" {
				t = t*9/5 + 32
			}
			return weatherReport{Location: in.Location, Units: in.Units, Temperature: t}, nil
		})
}

func fixtureTools(g *gate) []Tool {
	return []Tool{
		weatherTool(),
		NewTool(ToolInfo{Name: "echo", Description: "Echo text"}, func(ctx context.Context, in struct {
			Text string `json:"text" jsonschema:"required"`
		}) (string, error) {
			return in.Text, nil
		}),
		NewTool(ToolInfo{Name: "fail", Description: "Always fails"}, func(ctx context.Context, in noArgs) (string, error) {
			return "", errors.New("this tool intentionally fails")
		}),
		NewTool(ToolInfo{Name: "boom", Description: "Panics"}, func(ctx context.Context, in noArgs) (string, error) {
			panic("kaboom")
		}),
		NewTool(ToolInfo{Name: "needs_sampling", Description: "Needs sampling"}, func(ctx context.Context, in noArgs) (string, error) {
			if err := RequireCapabilities(ctx, mcp.ClientCapabilities{Sampling: &mcp.ClientCapabilitiesSampling{}}); err != nil {
				return "", err
			}
			return "sampling available", nil
		}),
		NewTool(ToolInfo{Name: "progress", Description: "Reports progress"}, func(ctx context.Context, in noArgs) (string, error) {
			for i := 0; i <= 2; i++ {
				Progress(ctx, float64(i*50), 100, fmt.Sprintf("step %d", i))
			}
			return "done", nil
		}),
		NewTool(ToolInfo{Name: "logs", Description: "Logs at several levels"}, func(ctx context.Context, in noArgs) (string, error) {
			Log(ctx, mcp.LoggingLevelDebug, "fixture", "debug detail")
			Log(ctx, mcp.LoggingLevelInfo, "fixture", "info message")
			Log(ctx, mcp.LoggingLevelError, "fixture", map[string]any{"error": "bad"})
			return "logged", nil
		}),
		NewTool(ToolInfo{Name: "content", Description: "Returns content blocks"}, func(ctx context.Context, in noArgs) ([]mcp.ContentBlock, error) {
			return []mcp.ContentBlock{&mcp.TextContent{Text: "a"}, &mcp.ImageContent{Data: []byte("\x89PNG\r\n\x1a\n"), MIMEType: "image/png"}}, nil
		}),
		NewTool(ToolInfo{Name: "slow", Description: "Blocks until released or cancelled"}, func(ctx context.Context, in struct {
			Tag string `json:"tag"`
		}) (string, error) {
			g.started <- in.Tag
			select {
			case <-g.release:
				return "released " + in.Tag, nil
			case <-ctx.Done():
				g.cancelled <- in.Tag
				return "", ctx.Err()
			}
		}),
		NewTool(ToolInfo{Name: "sleep", Description: "Sleeps ms milliseconds"}, func(ctx context.Context, in struct {
			MS int `json:"ms"`
		}) (string, error) {
			time.Sleep(time.Duration(in.MS) * time.Millisecond)
			return fmt.Sprintf("slept %d", in.MS), nil
		}),
		NewTool(ToolInfo{Name: "ask_name", Description: "Elicits a name"}, func(ctx context.Context, in noArgs) (string, error) {
			resp, err := Ask(ctx, "user_name", elicitName("What is your name?"))
			if err != nil {
				return "", err
			}
			name, _ := resp.(*mcp.ElicitResult).Content["name"].(string)
			if name == "" {
				return "", errors.New("no name given")
			}
			return "Hello, " + name + "!", nil
		}),
		NewTool(ToolInfo{Name: "multi_round", Description: "Two rounds with state"}, multiRound),
		NewTool(ToolInfo{Name: "multi_input", Description: "Asks three things at once"}, func(ctx context.Context, in noArgs) (string, error) {
			r1, e1 := Ask(ctx, "user_name", elicitName("Name?"))
			r2, e2 := Ask(ctx, "greeting", &mcp.CreateMessageRequest{Params: mcp.CreateMessageRequestParams{MaxTokens: 50,
				Messages: []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: &mcp.TextContent{Text: "Generate a greeting"}}}}})
			r3, e3 := Ask(ctx, "client_roots", &mcp.ListRootsRequest{})
			if err := errors.Join(e1, e2, e3); err != nil {
				return "", err
			}
			greeting := r2.(*mcp.CreateMessageResult).Content.(*mcp.TextContent).Text
			return fmt.Sprintf("%s %s — %d root(s)", greeting, r1.(*mcp.ElicitResult).Content["name"], len(r3.(*mcp.ListRootsResult).Roots)), nil
		}),
		NewTool(ToolInfo{Name: "schema_verbatim", Description: "Explicit schema",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}},"additionalProperties":false}`)},
			func(ctx context.Context, in json.RawMessage) (string, error) { return string(in), nil }),
	}
}

func elicitName(msg string) *mcp.ElicitRequest {
	return &mcp.ElicitRequest{Params: &mcp.ElicitRequestFormParams{Message: msg,
		RequestedSchema: mcp.ElicitRequestFormParamsRequestedSchema{Properties: map[string]mcp.PrimitiveSchemaDefinition{"name": &mcp.StringSchema{}}, Required: []string{"name"}}}}
}

// multiRound asks for a name, then (with the name in its state) a color.
func multiRound(ctx context.Context, in noArgs) (string, error) {
	var st struct{ Name string }
	if raw := State(ctx); raw != nil {
		if err := json.Unmarshal(raw, &st); err != nil {
			return "", err
		}
	}
	if st.Name == "" {
		resp, err := Ask(ctx, "step1", elicitName("Step 1: What is your name?"))
		if err != nil {
			SetState(ctx, json.RawMessage(`{"round":1}`))
			return "", err
		}
		st.Name, _ = resp.(*mcp.ElicitResult).Content["name"].(string)
	}
	resp, err := Ask(ctx, "step2", elicitName("Step 2: What is your favorite color?"))
	if err != nil {
		b, _ := json.Marshal(st)
		SetState(ctx, b)
		return "", err
	}
	color, _ := resp.(*mcp.ElicitResult).Content["name"].(string)
	return fmt.Sprintf("%s likes %s", st.Name, color), nil
}

func fixturePrompts() []Prompt {
	return []Prompt{
		NewPrompt(PromptInfo{Name: "simple", Description: "A simple prompt"}, func(ctx context.Context, in noArgs) (string, error) {
			return "This is a simple prompt.", nil
		}),
		NewPrompt(PromptInfo{Name: "greet", Description: "Greets someone"}, func(ctx context.Context, in greetArgs) ([]mcp.PromptMessage, error) {
			return []mcp.PromptMessage{{Role: mcp.RoleUser, Content: &mcp.TextContent{Text: "Greet " + in.Name + " " + in.Tone}}}, nil
		}),
		NewPrompt(PromptInfo{Name: "ask_context", Description: "Needs context"}, func(ctx context.Context, in noArgs) (string, error) {
			resp, err := Ask(ctx, "user_context", elicitName("What context?"))
			if err != nil {
				return "", err
			}
			return fmt.Sprintf("Context: %v", resp.(*mcp.ElicitResult).Content["name"]), nil
		}),
	}
}

func fixtureResources() ([]Resource, []ResourceTemplate) {
	return []Resource{
			NewResource(ResourceInfo{URI: "test://static-text", Name: "static-text", MIMEType: "text/plain"}, func(ctx context.Context) (string, error) {
				return "static text", nil
			}),
			NewResource(ResourceInfo{URI: "test://static-binary", Name: "static-binary", MIMEType: "image/png"}, func(ctx context.Context) ([]byte, error) {
				return []byte{0x89, 'P', 'N', 'G'}, nil
			}),
		}, []ResourceTemplate{
			NewResourceTemplate(ResourceTemplateInfo{URITemplate: "test://items/{id}/data", Name: "item", MIMEType: "application/json"},
				func(ctx context.Context, v itemVars) (map[string]string, error) {
					return map[string]string{"id": v.ID}, nil
				}),
		}
}

func newFixture(t testing.TB, mod ...func(*Options)) *fixture {
	t.Helper()
	g := newGate()
	res, tmpls := fixtureResources()
	opts := Options{
		Name: "fixture", Version: "1.2.3", Instructions: "test server",
		Tools: fixtureTools(g), Prompts: fixturePrompts(), Resources: res, ResourceTemplates: tmpls,
		StateKey: []byte("0123456789abcdef0123456789abcdef"),
		Logger:   slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	for _, m := range mod {
		m(&opts)
	}
	s, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return &fixture{s: s, gate: g}
}

// recorder is a MessageWriter that keeps every notification.
type recorder struct {
	mu    sync.Mutex
	notes []note
	ch    chan note
}

type note struct {
	Method string
	Params json.RawMessage
}

func newRecorder() *recorder { return &recorder{ch: make(chan note, 100)} }

func (r *recorder) Notify(method string, params any) error {
	raw, err := notifyParams(params)
	if err != nil {
		return err
	}
	n := note{method, append(json.RawMessage(nil), raw...)}
	r.mu.Lock()
	r.notes = append(r.notes, n)
	r.mu.Unlock()
	select {
	case r.ch <- n:
	default:
	}
	return nil
}

func (r *recorder) all() []note {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]note(nil), r.notes...)
}

// reply is a decoded JSON-RPC response.
type reply struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int64           `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

func (r reply) field(t testing.TB, path ...string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(r.Result, &v); err != nil {
		t.Fatalf("result %s: %v", r.Result, err)
	}
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("result %s: %q is not inside an object", r.Result, p)
		}
		v = m[p]
	}
	return v
}

// fullCapsMeta declares elicitation, sampling and roots.
const fullCapsMeta = `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{},"sampling":{},"roots":{}}}`

const defaultMeta = `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"test","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`

// withMeta returns params (a JSON object without _meta) with meta added.
func withMeta(params, meta string) string {
	if params == "" || params == "{}" {
		return `{"_meta":` + meta + `}`
	}
	return `{"_meta":` + meta + `,` + params[1:]
}

// rawRPC sends one raw message through HandleBytes.
func rawRPC(t testing.TB, s *Server, msg string, w MessageWriter) (reply, Response) {
	t.Helper()
	resp := s.HandleBytes(context.Background(), []byte(msg), w)
	var r reply
	if resp.Body != nil {
		if err := json.Unmarshal(resp.Body, &r); err != nil {
			t.Fatalf("response %s: %v", resp.Body, err)
		}
	}
	return r, resp
}

// rpc sends a request with the default _meta merged into params.
func rpc(t testing.TB, s *Server, method, params string) reply {
	t.Helper()
	r, _ := rpcMeta(t, s, method, params, defaultMeta, nil)
	return r
}

func rpcMeta(t testing.TB, s *Server, method, params, meta string, w MessageWriter) (reply, Response) {
	t.Helper()
	msg := `{"jsonrpc":"2.0","id":7,"method":"` + method + `","params":` + withMeta(params, meta) + `}`
	return rawRPC(t, s, msg, w)
}

func wantError(t testing.TB, r reply, code int64) {
	t.Helper()
	if r.Error == nil {
		t.Fatalf("want error %d, got result %s", code, r.Result)
	}
	if r.Error.Code != code {
		t.Fatalf("want error %d, got %d %q", code, r.Error.Code, r.Error.Message)
	}
}

func wantResult(t testing.TB, r reply) {
	t.Helper()
	if r.Error != nil {
		t.Fatalf("want a result, got error %d %q %s", r.Error.Code, r.Error.Message, r.Error.Data)
	}
}

// toolText returns content[0].text and isError of a tools/call result.
func callText(t testing.TB, r reply) (string, bool) {
	t.Helper()
	wantResult(t, r)
	var res struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		IsError bool `json:"isError"`
	}
	if err := json.Unmarshal(r.Result, &res); err != nil || len(res.Content) == 0 {
		t.Fatalf("tools/call result %s: %v", r.Result, err)
	}
	return res.Content[0].Text, res.IsError
}

var _ = jsonrpc.IntID
