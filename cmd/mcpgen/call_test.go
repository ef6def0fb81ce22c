package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/server"
)

type scaleArgs struct {
	Value  int    `json:"value" jsonschema:"required"`
	Factor int    `json:"factor" jsonschema:"required"`
	Label  string `json:"label,omitempty"`
	Strict bool   `json:"strict,omitempty"`
}

type scaled struct {
	Result int    `json:"result"`
	Label  string `json:"label"`
}

func (s scaled) String() string { return s.Label + " = " + jsonNumber(s.Result) }

func jsonNumber(n int) string { b, _ := json.Marshal(n); return string(b) }

// callServer serves a small mcpgen server over Streamable HTTP.
func callServer(t *testing.T) string {
	t.Helper()
	srv, err := server.New(server.Options{
		Name: "call-test", Version: "1.0.0",
		Tools: []server.Tool{
			server.NewTool(server.ToolInfo{Name: "scale", Description: "Multiplies a value.\nMore text."},
				func(ctx context.Context, in scaleArgs) (scaled, error) {
					return scaled{Result: in.Value * in.Factor, Label: in.Label}, nil
				}),
			server.NewTool(server.ToolInfo{Name: "fail"}, func(ctx context.Context, in struct{}) (string, error) {
				return "", errors.New("it broke")
			}),
			server.NewTool(server.ToolInfo{Name: "ask"}, func(ctx context.Context, in struct{}) (string, error) {
				resp, err := server.Ask(ctx, "q", &mcp.ElicitRequest{Params: &mcp.ElicitRequestFormParams{
					Message: "name?",
					RequestedSchema: mcp.ElicitRequestFormParamsRequestedSchema{
						Properties: map[string]mcp.PrimitiveSchemaDefinition{"name": &mcp.StringSchema{}},
					},
				}})
				if err != nil {
					return "", err
				}
				return "answer: " + resp.(*mcp.ElicitResult).Action, nil
			}),
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.HTTPHandler(server.HTTPOptions{}))
	t.Cleanup(hs.Close)
	return hs.URL
}

func TestCallListsAndCalls(t *testing.T) {
	url := callServer(t)
	code, out, errOut := cli(t, "call", "--server", url)
	if code != exitOK || !strings.Contains(out, "scale(factor: integer, label?: string, strict?: boolean, value: integer)") ||
		!strings.Contains(out, "Multiplies a value.") || strings.Contains(out, "More text") {
		t.Fatalf("list: code %d\n%s\n%s", code, out, errOut)
	}
	code, out, errOut = cli(t, "call", "--server", url, "scale", "value=6", "factor=7", "label=answer", "strict=true")
	if code != exitOK || !strings.Contains(out, "answer = 42") || !strings.Contains(out, `"result": 42`) {
		t.Fatalf("key=value call: code %d\n%s\n%s", code, out, errOut)
	}
	code, out, _ = cli(t, "call", "--server", url, "scale", `{"value":2,"factor":3,"label":"x"}`, "--json")
	var res struct {
		StructuredContent scaled `json:"structuredContent"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &res) != nil || res.StructuredContent.Result != 6 {
		t.Fatalf("JSON call: code %d\n%s", code, out)
	}
}

func TestCallErrors(t *testing.T) {
	url := callServer(t)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"scale", "value=six", "factor=1"}, exitUsage, "argument value=six: want integer"},
		{[]string{"scale", "value"}, exitUsage, `argument "value" is not key=value`},
		{[]string{"nope"}, exitUsage, `the server has no tool "nope" (it has: scale, fail, ask)`},
		{[]string{"scale", "value=1"}, exitFail, "factor"},
		{[]string{"fail"}, exitFail, "it broke"},
		{[]string{"ask"}, exitOK, "stdin is not a terminal: declined"},
	} {
		code, out, errOut := cli(t, append([]string{"call", "--server", url}, tc.args...)...)
		if code != tc.code || !strings.Contains(out+errOut, tc.want) {
			t.Errorf("call %v: code %d (want %d)\nstdout: %s\nstderr: %s\nwant %q", tc.args, code, tc.code, out, errOut, tc.want)
		}
	}
	if code, _, errOut := cli(t, "call", "scale"); code != exitUsage || !strings.Contains(errOut, "--server is required") {
		t.Errorf("no --server: %d %s", code, errOut)
	}
	if code, _, errOut := cli(t, "call", "--server", "/nonexistent/server"); code != exitFail || !strings.Contains(errOut, "/nonexistent/server") {
		t.Errorf("missing command: %d %s", code, errOut)
	}
}

// TestCallArgumentsAreWholeJSONValues: key=value values are read as JSON by
// the property's type, and "1]" or "{}}" is not one JSON value: for a
// number or object property it is the usage error "argument n=1]: want
// number" (exit 2), not a json.Marshal failure at call time (exit 1); for a
// key without a declared type it is the string "2]" ("as JSON when it
// parses, else as a string").
func TestCallArgumentsAreWholeJSONValues(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"n":{"type":"number"},"o":{"type":"object"},"u":{}}}`)
	for _, arg := range []string{"n=1]", "o={}}"} {
		raw, err := toolArguments(schema, []string{arg})
		var ae *argError
		if !errors.As(err, &ae) {
			t.Errorf("toolArguments(%q) = %s, %v; want a usage error (*argError)", arg, raw, err)
		}
	}
	// A key without a declared type is "JSON when it parses, else a string".
	if raw, err := toolArguments(schema, []string{"u=2]"}); err != nil || string(raw) != `{"u":"2]"}` {
		t.Errorf(`toolArguments("u=2]") = %s, %v; want {"u":"2]"}`, raw, err)
	}
	if raw, err := toolArguments(schema, []string{"u= [1, 2] ", "n=3"}); err != nil || string(raw) != `{"n":3,"u":[1,2]}` {
		t.Errorf(`toolArguments("u= [1, 2] ", "n=3") = %s, %v; want {"n":3,"u":[1,2]}`, raw, err)
	}
}

// TestCallTimeoutBoundsConnecting: `mcpgen call --help`: "--timeout
// duration  time limit for each request". Against a command that never
// answers, `--timeout 1s` gives up after about a second per request of
// connecting (server/discover, then initialize) and the server's shutdown,
// not after the client's default 10 s probe per request (about 20 s).
func TestCallTimeoutBoundsConnecting(t *testing.T) {
	if _, err := exec.LookPath("sleep"); err != nil {
		t.Skip("no sleep command")
	}
	done := make(chan int, 1)
	start := time.Now()
	go func() {
		var out, errOut bytes.Buffer
		done <- run([]string{"call", "--server", "sleep 12", "--timeout", "1s"}, &out, &errOut)
	}()
	select {
	case code := <-done:
		if code == exitOK {
			t.Errorf("call against a silent server: exit 0")
		}
		t.Logf("gave up after %s", time.Since(start).Round(time.Millisecond))
	case <-time.After(6 * time.Second):
		t.Errorf("mcpgen call --timeout 1s against a server that never answers has not given up after %s (two requests of at most 1 s each)", time.Since(start).Round(time.Second))
	}
}
