package main

import (
	"context"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/server"
)

// progressStep is the pause between the progress notifications of
// test_tool_with_progress.
const progressStep = 50 * time.Millisecond

// ToolWithProgress reports progress 0, 50 and 100 of 100, about 50 ms apart,
// when the request carries a progress token.
//
//mcp:tool name=test_tool_with_progress readOnly
func (e *Everything) ToolWithProgress(ctx context.Context) (string, error) {
	for i, p := range []float64{0, 50, 100} {
		if i > 0 {
			if err := sleep(ctx, progressStep); err != nil {
				return "", err
			}
		}
		server.Progress(ctx, p, 100, "")
	}
	return "Progress reported: 0, 50 and 100 of 100.", nil
}

// LoggingTool logs one info message (sent only when the request asked for
// logs at info level or below) and returns.
//
//mcp:tool name=test_logging_tool readOnly
func (e *Everything) LoggingTool(ctx context.Context) (string, error) {
	server.Log(ctx, "info", "everything", "test_logging_tool executed")
	return "Logging tool executed.", nil
}

// MissingCapability needs the client's sampling capability; without it the
// call fails with MissingRequiredClientCapability (-32021).
//
//mcp:tool name=test_missing_capability readOnly
func (e *Everything) MissingCapability(ctx context.Context) (string, error) {
	if err := server.RequireCapabilities(ctx, mcp.ClientCapabilities{Sampling: &mcp.ClientCapabilitiesSampling{}}); err != nil {
		return "", err
	}
	return "The client declared the sampling capability.", nil
}

// StreamingElicitation answers at once with text; it never sends a request
// to the client on the response stream.
//
//mcp:tool name=test_streaming_elicitation readOnly
func (e *Everything) StreamingElicitation(ctx context.Context) (string, error) {
	return "No elicitation was needed: the server answers without sending requests on the response stream.", nil
}

// transientToolName is the tool test_trigger_tool_change (re-)registers.
const transientToolName = "__transient_tool_for_list_changed"

// transientPromptName is the prompt test_trigger_prompt_change (re-)registers.
const transientPromptName = "__transient_prompt_for_list_changed"

// TriggerToolChange (re-)registers a transient tool, which notifies every
// subscriptions/listen stream that asked for toolsListChanged.
//
//mcp:tool name=test_trigger_tool_change idempotent
func (e *Everything) TriggerToolChange(ctx context.Context) (string, error) {
	if err := e.srv.AddTools(transientTool()); err != nil {
		return "", err
	}
	return "tools_list_changed published", nil
}

// TriggerPromptChange (re-)registers a transient prompt, which notifies every
// subscriptions/listen stream that asked for promptsListChanged.
//
//mcp:tool name=test_trigger_prompt_change idempotent
func (e *Everything) TriggerPromptChange(ctx context.Context) (string, error) {
	if err := e.srv.AddPrompts(transientPrompt()); err != nil {
		return "", err
	}
	return "prompts_list_changed published", nil
}

// transientTool is the tool registered at run time by test_trigger_tool_change.
func transientTool() server.Tool {
	return server.NewTool(server.ToolInfo{
		Name:        transientToolName,
		Description: "A transient tool registered by test_trigger_tool_change.",
	}, func(ctx context.Context, _ struct{}) ([]mcp.ContentBlock, error) {
		return []mcp.ContentBlock{}, nil
	})
}

// transientPrompt is the prompt registered at run time by test_trigger_prompt_change.
func transientPrompt() server.Prompt {
	return server.NewPrompt(server.PromptInfo{
		Name:        transientPromptName,
		Description: "A transient prompt registered by test_trigger_prompt_change.",
	}, func(ctx context.Context, _ struct{}) (string, error) {
		return "This prompt was registered at run time.", nil
	})
}

// sleep waits for d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
