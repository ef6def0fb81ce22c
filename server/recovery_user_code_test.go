package server

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
)

// wrapErr is an ordinary wrapping error type (Error and Unwrap read the
// wrapped error). A nil *wrapErr returned through the error interface is
// the typed-nil mistake the fix of toRPCError meant to survive: errorText
// guards Error, but errors.As/errors.Is call Unwrap first, and Unwrap on a
// nil receiver dereferences nil outside any recovery.
type wrapErr struct{ err error }

func (e *wrapErr) Error() string { return "wrapped: " + e.err.Error() }
func (e *wrapErr) Unwrap() error { return e.err }

// childStdioLines serves opts on stdio in the child, sends each line and
// reports, for each, the id and error code of its answer.
func childStdioLines(t *testing.T, opts Options, lines ...string) {
	opts.Name, opts.Version = "rg", "1"
	opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	f := startFaultStdio(t, s, 0)
	var out []string
	for _, l := range lines {
		f.send(l)
		m := f.reply()
		out = append(out, idOf(m)+"/"+strconv.Itoa(errorCode(m)))
	}
	os.Stdout.WriteString("CHILD-OUTPUT " + strings.Join(out, " ") + "\n")
}

func listLine(id string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/list","params":` + withMeta(`{}`, defaultMeta) + `}`
}

// TestTypedNilWrappingErrorFromPromptIsInternalError: README "Middleware
// and observability", Panics: "tool, prompt and resource functions and
// handlers are always recovered (-32603, logged) ... a nil *jsonrpc.Error
// returned as a non-nil error is -32603 saying so". A prompt function that
// returns a nil pointer of its own wrapping error type (Unwrap reads a
// field) makes handle.go's errors.As(err, &ire) and toRPCError's
// errors.As call Unwrap on nil after s.call's recovery: the process dies.
// Want: -32603 for the prompts/get, and the server answering the next
// request.
func TestTypedNilWrappingErrorFromPromptIsInternalError(t *testing.T) {
	if os.Getenv("MCPGEN_CHILD_SCENARIO") == "1" {
		p := NewPrompt(PromptInfo{Name: "p"}, func(ctx context.Context, in map[string]string) (string, error) {
			var e *wrapErr // set only on failure
			return "", e
		})
		childStdioLines(t, Options{Prompts: []Prompt{p}, Tools: []Tool{okTool()}},
			`{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":`+withMeta(`{"name":"p"}`, defaultMeta)+`}`,
			listLine("2"))
		return
	}
	out := runChildScenario(t, "TestTypedNilWrappingErrorFromPromptIsInternalError")
	if !strings.Contains(out, "1/-32603") || !strings.Contains(out, "2/") {
		t.Fatalf("%s: want 1 answered -32603 and 2 answered", out)
	}
}

// TestTypedNilWrappingErrorFromInterceptorIsInternalError: the same
// from an interceptor (README: "the interceptor chain as a whole" is
// recovered; runChain's toRPCError runs after that recovery).
func TestTypedNilWrappingErrorFromInterceptorIsInternalError(t *testing.T) {
	if os.Getenv("MCPGEN_CHILD_SCENARIO") == "1" {
		ic := func(next Handler) Handler {
			return func(ctx context.Context, req *Request) (json.RawMessage, error) {
				var deny *wrapErr
				if req.Method == "tools/call" {
					return nil, deny
				}
				return next(ctx, req)
			}
		}
		childStdioLines(t, Options{Tools: []Tool{okTool()}, Interceptors: []Interceptor{ic}},
			faultCall("1", "tn", `{}`, defaultMeta), listLine("2"))
		return
	}
	out := runChildScenario(t, "TestTypedNilWrappingErrorFromInterceptorIsInternalError")
	if !strings.Contains(out, "1/-32603") || !strings.Contains(out, "2/") {
		t.Fatalf("%s: want 1 answered -32603 and 2 answered", out)
	}
}

// TestTypedNilWrappingErrorFromPromptOverHTTPIsInternalError: the same over
// Streamable HTTP: the handler runs on a worker goroutine of serveLimited
// (handlerWorkers), which net/http's per-connection recovery does not
// cover, so one prompts/get POST takes down the whole HTTP server.
func TestTypedNilWrappingErrorFromPromptOverHTTPIsInternalError(t *testing.T) {
	if os.Getenv("MCPGEN_CHILD_SCENARIO") == "1" {
		p := NewPrompt(PromptInfo{Name: "p"}, func(ctx context.Context, in map[string]string) (string, error) {
			var e *wrapErr // set only on failure
			return "", e
		})
		s, err := New(Options{Name: "rg", Version: "1", Prompts: []Prompt{p}, Tools: []Tool{okTool()},
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		if err != nil {
			t.Fatal(err)
		}
		h := startLimitedHTTP(t, s)
		post := func(id, method, name, params string) string {
			hdrs := []string{"Content-Type", "application/json", "Accept", "application/json, text/event-stream",
				"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", method}
			if name != "" {
				hdrs = append(hdrs, "Mcp-Name", name)
			}
			body := `{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `","params":` + withMeta(params, defaultMeta) + `}`
			resp := httpPost(t, context.Background(), http.DefaultClient, h.url, body, hdrs)
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			var m map[string]any
			_ = json.Unmarshal(b, &m)
			return idOf(m) + "/" + strconv.Itoa(errorCode(m))
		}
		a := post("2", "prompts/get", "p", `{"name":"p"}`)
		b := post("3", "tools/list", "", `{}`)
		os.Stdout.WriteString("CHILD-OUTPUT " + a + " " + b + "\n")
		return
	}
	out := runChildScenario(t, "TestTypedNilWrappingErrorFromPromptOverHTTPIsInternalError")
	if !strings.Contains(out, "2/-32603") || !strings.Contains(out, "3/") {
		t.Fatalf("%s: want 2 answered -32603 and 3 answered", out)
	}
}

// TestRateKeyPanicOnStdioFallsBackToTheConnection: Limits.Rate.Key is user code the
// stdio read loop calls (admitRate) for every request, outside any
// recovery; on HTTP net/http's recovery at least keeps the process. A Key
// that panics for one request (a nil map, a missing context value) kills a
// stdio server; the brief of c09b108 ("Recover user code that ran outside
// any recovery") and README "the server keeps serving" want the request
// answered (-32603, or admitted under a fallback key) and the next one
// served.
func TestRateKeyPanicOnStdioFallsBackToTheConnection(t *testing.T) {
	if os.Getenv("MCPGEN_CHILD_SCENARIO") == "1" {
		var n int
		key := func(ctx context.Context) string {
			n++
			if n == 1 {
				var m map[string]*string
				return *m["tenant"] // a bug for one request
			}
			return ""
		}
		childStdioLines(t, Options{Tools: []Tool{okTool()}, Limits: Limits{Rate: RateLimit{PerSecond: 100, Key: key}}},
			listLine("1"), listLine("2"))
		return
	}
	out := runChildScenario(t, "TestRateKeyPanicOnStdioFallsBackToTheConnection")
	if !strings.Contains(out, "1/") || !strings.Contains(out, "2/0") {
		t.Fatalf("%s: want 1 answered (-32603, or admitted under another key) and 2 answered", out)
	}
}

// TestClientIDPanicOnStdioFallsBackToTheConnection: Limits.ClientID is user code
// (README: "that is where an authenticated principal plugs in"), asked on
// the stdio read loop for a subscriptions/listen (serveLimitedIn, the
// per-client stream limit) outside any recovery. A ClientID written for
// the HTTP deployment that panics on stdio for want of a principal kills
// the process; want the listen answered (-32603 or served) and the next
// request served.
func TestClientIDPanicOnStdioFallsBackToTheConnection(t *testing.T) {
	if os.Getenv("MCPGEN_CHILD_SCENARIO") == "1" {
		clientID := func(ctx context.Context) string {
			return Principal(ctx).Subject // written for HTTPOptions.Auth: no principal on stdio
		}
		s, err := New(Options{Name: "rg", Version: "1", Tools: []Tool{okTool()}, Limits: Limits{ClientID: clientID},
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		if err != nil {
			t.Fatal(err)
		}
		f := startFaultStdio(t, s, 0)
		f.send(`{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":` + withMeta(`{"notifications":{"toolsListChanged":true}}`, defaultMeta) + `}`)
		f.send(listLine("2"))
		for range 3 {
			if m := f.reply(); idOf(m) == "2" {
				os.Stdout.WriteString("CHILD-OUTPUT 2/\n")
				return
			}
		}
		t.Fatal("no answer to 2")
	}
	out := runChildScenario(t, "TestClientIDPanicOnStdioFallsBackToTheConnection")
	if !strings.Contains(out, "2/") {
		t.Fatalf("%s: want 2 answered", out)
	}
}
