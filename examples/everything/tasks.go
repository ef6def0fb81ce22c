package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/jsonrpc"
	"github.com/mcpgen/mcpgen/server"
)

// The tasks extension fixtures (io.modelcontextprotocol/tasks, SEP-2663;
// conformance/FIXTURES.md §6). Task support is declared with the
// directive's taskSupport= key. A client that declares the extension gets a
// task for every tool here but greet; without it, optional tools answer
// inline and required ones are -32021. test_tool_with_task is bound by hand
// (taskTools) because its BeforeTask hook has no directive key.

// taskTools returns the tasks fixtures bound by hand.
func (e *Everything) taskTools() []server.Tool {
	return []server.Tool{
		server.NewTool(server.ToolInfo{
			Name: "test_tool_with_task",
			Description: "Asks the user's name inline (multi round-trip), then greets them from a task. " +
				"Runs only as a task.",
			TaskSupport: server.TaskSupportRequired,
			BeforeTask: func(ctx context.Context) error {
				_, err := askString(ctx, "user_name", userNameRequest(), "name")
				return err
			},
		}, func(ctx context.Context, _ struct{}) (string, error) { return e.ToolWithTask(ctx) }),
	}
}

// GreetArgs are the arguments of greet.
type GreetArgs struct {
	Name string `json:"name" jsonschema:"required,description=Who to greet"`
}

// Greet greets name. Synchronous only: never runs as a task.
//
//mcp:tool name=greet
func (e *Everything) Greet(ctx context.Context, in GreetArgs) (string, error) {
	return "Hello, " + in.Name + "!", nil
}

// SlowComputeArgs are the arguments of slow_compute.
type SlowComputeArgs struct {
	Seconds float64 `json:"seconds,omitempty" jsonschema:"minimum=0,maximum=3600,description=How long to work (0 answers at once)"`
	Label   string  `json:"label,omitempty" jsonschema:"description=Echoed in the result"`
}

// SlowCompute sleeps for seconds, then reports label. Runs as a task when the client declares the tasks extension.
//
//mcp:tool name=slow_compute taskSupport=optional
func (e *Everything) SlowCompute(ctx context.Context, in SlowComputeArgs) (string, error) {
	if in.Seconds <= 0 {
		return fmt.Sprintf("Computed %q in 0s", in.Label), nil
	}
	if err := sleep(ctx, time.Duration(in.Seconds*float64(time.Second))); err != nil {
		return "", err
	}
	return fmt.Sprintf("Computed %q in %gs", in.Label, in.Seconds), nil
}

// errFailingJob is the tool error failing_job reports.
var errFailingJob = errors.New("failing_job failed on purpose (a tool execution error)")

// FailingJob works for about a second, then fails with a tool error. Runs only as a task.
//
//mcp:tool name=failing_job taskSupport=required
func (e *Everything) FailingJob(ctx context.Context) (string, error) {
	if err := sleep(ctx, time.Second); err != nil {
		return "", err
	}
	return "", errFailingJob
}

// ProtocolErrorJob fails with a JSON-RPC internal error (a protocol error, not a tool error).
//
//mcp:tool name=protocol_error_job taskSupport=optional
func (e *Everything) ProtocolErrorJob(ctx context.Context) (string, error) {
	return "", &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "Internal error: protocol_error_job fails on purpose"}
}

// ConfirmDeleteArgs are the arguments of confirm_delete.
type ConfirmDeleteArgs struct {
	Filename string `json:"filename" jsonschema:"required,description=The file to delete"`
}

// confirmDeleteRequest asks whether to delete filename.
func confirmDeleteRequest(filename string) mcp.InputRequest {
	return elicit(fmt.Sprintf("Delete %s?", filename), "confirm", &mcp.BooleanSchema{})
}

// ConfirmDelete asks the user to confirm deleting filename (one elicitation), then reports the decision.
//
//mcp:tool name=confirm_delete taskSupport=optional
func (e *Everything) ConfirmDelete(ctx context.Context, in ConfirmDeleteArgs) (string, error) {
	content, err := askAccepted(ctx, "confirm", confirmDeleteRequest(in.Filename))
	if err != nil {
		return "", err
	}
	if ok, _ := content["confirm"].(bool); !ok {
		return "Kept " + in.Filename, nil
	}
	return "Deleted " + in.Filename, nil
}

// MultiInput asks for a name and a confirmation at once (two elicitations), then reports both.
//
//mcp:tool name=multi_input taskSupport=optional
func (e *Everything) MultiInput(ctx context.Context) (string, error) {
	var missing inputNeeds
	name, err := askAccepted(ctx, "name", elicit("What is your name?", "name", &mcp.StringSchema{}))
	missing.add(err)
	confirm, err := askAccepted(ctx, "confirm", elicit("Proceed?", "confirm", &mcp.BooleanSchema{}))
	missing.add(err)
	if err := missing.err(); err != nil {
		return "", err
	}
	return fmt.Sprintf("name=%v confirm=%v", name["name"], confirm["confirm"]), nil
}

// ToolWithTask greets the user whose name BeforeTask gathered inline.
func (e *Everything) ToolWithTask(ctx context.Context) (string, error) {
	name, err := askString(ctx, "user_name", userNameRequest(), "name")
	if err != nil {
		return "", err
	}
	return "Hello, " + name + "! (answered from a task)", nil
}
