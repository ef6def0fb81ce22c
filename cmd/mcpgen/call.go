package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/client"
	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/internal/version"
)

func callCommand() *command {
	return &command{
		name:    "call",
		summary: "talk to an MCP server by hand: list what it offers, call a tool",
		usage: `
Usage:
  mcpgen call --server <url|command> [--json]                       list tools, prompts, resources
  mcpgen call --server <url|command> <tool> [key=value ...|'{json}']
  mcpgen call --server <url|command> --prompt <name> [key=value ...]
  mcpgen call --server <url|command> --resource <uri>

Call connects to an MCP server with the mcpgen Go client — a Streamable HTTP
endpoint when --server is an http(s) URL, else a command it starts and talks
to over stdio (split at spaces; its stderr is passed through) — and lists
what the server offers, or calls one tool, gets one prompt or reads one
resource and prints the result. Arguments are key=value pairs, each value
read by the type the tool's inputSchema gives the key (numbers, booleans,
JSON objects and arrays; strings as they are), or one JSON object. When the
server asks for input (elicitation) and stdin is a terminal, the questions
are asked there; otherwise the request is declined. Modern (2026-07-28) and
legacy (initialize) servers are both understood.

Exit status: 0 success, 1 a failed call (a tool result with isError
included), 2 bad arguments.

Examples:
  mcpgen call --server ./weather
  mcpgen call --server "go run ./examples/weather" weather_current location=Paris units=metric
  mcpgen call --server http://127.0.0.1:8931/mcp weather_current '{"location":"Paris"}' --json
  mcpgen call --server ./everything --resource test://static-text
`,
		run: runCall,
	}
}

type callFlags struct {
	server, prompt, resource string
	json                     bool
	timeout                  time.Duration
}

func runCall(e *env, c *command, args []string) int {
	var f callFlags
	fs := newFlags(c)
	fs.StringVar(&f.server, "server", "", "the server: an http(s) URL or a command")
	fs.StringVar(&f.prompt, "prompt", "", "get this prompt instead of calling a tool")
	fs.StringVar(&f.resource, "resource", "", "read the resource at this URI")
	fs.BoolVar(&f.json, "json", false, "print the raw JSON results")
	fs.DurationVar(&f.timeout, "timeout", 60*time.Second, "time limit for each request")
	pos, code, done := e.parse(c, fs, args)
	if done {
		return code
	}
	if f.server == "" {
		return e.usageError(c, "--server is required")
	}
	if f.prompt != "" && f.resource != "" {
		return e.usageError(c, "--prompt and --resource exclude each other")
	}
	if f.resource != "" && len(pos) > 0 {
		return e.usageError(c, "--resource takes no arguments, got %q", pos[0])
	}
	ctx, stop := signalContext()
	defer stop()
	t, err := callTransport(f.server, e.stderr)
	if err != nil {
		return e.usageError(c, "%v", err)
	}
	opts := &client.Options{
		ClientInfo:     mcp.Implementation{Name: "mcpgen-call", Version: version.String()},
		RequestTimeout: f.timeout,
		Logger:         slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
		Elicit:         terminalElicit(os.Stdin, e.stderr),
		Roots:          workingDirRoot,
		OnLog: func(p mcp.LoggingMessageNotificationParams) {
			fmt.Fprintf(e.stderr, "[%s] %v\n", p.Level, p.Data)
		},
	}
	cl, err := client.Connect(ctx, t, opts)
	if err != nil {
		e.errorf("%v", err)
		t.Close()
		return exitFail
	}
	defer cl.Close()
	p := &printer{w: e.stdout, json: f.json}
	switch {
	case f.resource != "":
		err = readResource(ctx, cl, p, f.resource)
	case f.prompt != "":
		err = getPrompt(ctx, cl, p, f.prompt, pos)
	case len(pos) > 0:
		err = callTool(ctx, cl, p, pos[0], pos[1:])
	default:
		err = listAll(ctx, cl, p)
	}
	var usage *argError
	switch {
	case errors.As(err, &usage):
		return e.usageError(c, "%v", err)
	case errors.Is(err, errToolFailed):
		return exitFail
	case err != nil:
		e.errorf("%v", err)
		return exitFail
	}
	return exitOK
}

// callTransport makes the transport for --server.
func callTransport(server string, stderr io.Writer) (client.Transport, error) {
	if strings.HasPrefix(server, "http://") || strings.HasPrefix(server, "https://") {
		return client.HTTP(server), nil
	}
	fields := strings.Fields(server)
	if len(fields) == 0 {
		return nil, errors.New("--server is empty")
	}
	t := &client.CommandTransport{Cmd: exec.Command(fields[0], fields[1:]...), Stderr: stderr}
	return t, nil
}

func workingDirRoot(ctx context.Context, _ *mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	dir, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	return &mcp.ListRootsResult{Roots: []mcp.Root{{URI: "file://" + dir, Name: "working directory"}}}, nil
}

// argError is a mistake in the call's arguments (exit status 2).
type argError struct{ msg string }

func (e *argError) Error() string { return e.msg }

var errToolFailed = errors.New("the tool reported an error")

func listAll(ctx context.Context, cl *client.Client, p *printer) error {
	tools, err := cl.AllTools(ctx)
	if err != nil {
		return fmt.Errorf("tools/list: %w", err)
	}
	out := map[string]any{"tools": tools}
	var prompts []mcp.Prompt
	if res, err := cl.ListPrompts(ctx, &mcp.PaginatedRequestParams{}); err == nil {
		prompts = res.Prompts
		out["prompts"] = prompts
	}
	var resources []mcp.Resource
	if res, err := cl.ListResources(ctx, &mcp.PaginatedRequestParams{}); err == nil {
		resources = res.Resources
		out["resources"] = resources
	}
	var templates []mcp.ResourceTemplate
	if res, err := cl.ListResourceTemplates(ctx, &mcp.PaginatedRequestParams{}); err == nil {
		templates = res.ResourceTemplates
		out["resourceTemplates"] = templates
	}
	if p.json {
		return p.printJSON(out)
	}
	p.listing(cl, tools, prompts, resources, templates)
	return nil
}

func callTool(ctx context.Context, cl *client.Client, p *printer, name string, args []string) error {
	tools, err := cl.AllTools(ctx)
	if err != nil {
		return fmt.Errorf("tools/list: %w", err)
	}
	var schema json.RawMessage
	found := false
	for _, t := range tools {
		if t.Name == name {
			schema, found = t.InputSchema, true
		}
	}
	if !found {
		names := make([]string, 0, len(tools))
		for _, t := range tools {
			names = append(names, t.Name)
		}
		return &argError{fmt.Sprintf("the server has no tool %q (it has: %s)", name, strings.Join(names, ", "))}
	}
	raw, err := toolArguments(schema, args)
	if err != nil {
		return err
	}
	result, err := cl.Call(ctx, mcp.MethodToolsCall, &mcp.CallToolRequestParams{Name: name, Arguments: raw})
	if err != nil {
		return fmt.Errorf("tools/call %s: %w", name, err)
	}
	out, err := mcp.DecodeCallToolOutcome(result)
	if err != nil {
		return fmt.Errorf("tools/call %s: the result does not decode: %w", name, err)
	}
	res, ok := out.(*mcp.CallToolResult)
	if !ok {
		return fmt.Errorf("tools/call %s: unexpected %T", name, out)
	}
	if p.json {
		if err := p.printRaw(result); err != nil {
			return err
		}
	} else {
		p.toolResult(res, result)
	}
	if res.IsError != nil && *res.IsError {
		return errToolFailed
	}
	return nil
}

func getPrompt(ctx context.Context, cl *client.Client, p *printer, name string, args []string) error {
	values := map[string]string{}
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		if !ok || k == "" {
			return &argError{fmt.Sprintf("prompt argument %q is not key=value", a)}
		}
		values[k] = v
	}
	result, err := cl.Call(ctx, mcp.MethodPromptsGet, &mcp.GetPromptRequestParams{Name: name, Arguments: values})
	if err != nil {
		return fmt.Errorf("prompts/get %s: %w", name, err)
	}
	if p.json {
		return p.printRaw(result)
	}
	var res mcp.GetPromptResult
	if err := json.Unmarshal(result, &res); err != nil {
		return fmt.Errorf("prompts/get %s: the result does not decode: %w", name, err)
	}
	p.promptResult(&res)
	return nil
}

func readResource(ctx context.Context, cl *client.Client, p *printer, uri string) error {
	result, err := cl.Call(ctx, mcp.MethodResourcesRead, &mcp.ReadResourceRequestParams{URI: uri})
	if err != nil {
		return fmt.Errorf("resources/read %s: %w", uri, err)
	}
	if p.json {
		return p.printRaw(result)
	}
	var res mcp.ReadResourceResult
	if err := json.Unmarshal(result, &res); err != nil {
		return fmt.Errorf("resources/read %s: the result does not decode: %w", uri, err)
	}
	p.resourceResult(&res)
	return nil
}
