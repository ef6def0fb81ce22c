package main

import (
	"context"
	"fmt"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// SimplePrompt is a prompt without arguments.
//
//mcp:prompt name=test_simple_prompt title="Simple Test Prompt"
func (e *Everything) SimplePrompt(ctx context.Context) (string, error) {
	return "This is a simple prompt for testing.", nil
}

// PromptArgs are the two arguments of test_prompt_with_arguments; their
// values complete from a fixed list (see CompletePromptArgs in completion.go).
type PromptArgs struct {
	Arg1 string `json:"arg1" jsonschema:"required,description=First test argument"`
	Arg2 string `json:"arg2" jsonschema:"required,description=Second test argument"`
}

// PromptWithArguments is a prompt with two required arguments.
//
//mcp:prompt name=test_prompt_with_arguments title="Prompt With Arguments" complete=CompletePromptArgs
func (e *Everything) PromptWithArguments(ctx context.Context, in PromptArgs) (string, error) {
	return fmt.Sprintf("Prompt with arguments: arg1='%s', arg2='%s'", in.Arg1, in.Arg2), nil
}

// EmbeddedResourceArgs name the resource test_prompt_with_embedded_resource embeds.
type EmbeddedResourceArgs struct {
	ResourceURI string `json:"resourceUri" jsonschema:"required,description=URI of the resource to embed"`
}

// PromptWithEmbeddedResource is a prompt that embeds a resource.
//
//mcp:prompt name=test_prompt_with_embedded_resource title="Prompt With Embedded Resource"
func (e *Everything) PromptWithEmbeddedResource(ctx context.Context, in EmbeddedResourceArgs) ([]mcp.PromptMessage, error) {
	return []mcp.PromptMessage{
		{Role: "user", Content: &mcp.EmbeddedResource{Resource: &mcp.TextResourceContents{
			URI:      in.ResourceURI,
			MIMEType: "text/plain",
			Text:     "Embedded resource content for testing.",
		}}},
		{Role: "user", Content: &mcp.TextContent{Text: "Please process the embedded resource above."}},
	}, nil
}

// PromptWithImage is a prompt that contains an image.
//
//mcp:prompt name=test_prompt_with_image title="Prompt With Image"
func (e *Everything) PromptWithImage(ctx context.Context) ([]mcp.PromptMessage, error) {
	return []mcp.PromptMessage{
		{Role: "user", Content: &mcp.ImageContent{Data: pngBytes, MIMEType: "image/png"}},
		{Role: "user", Content: &mcp.TextContent{Text: "Please analyze the image above."}},
	}, nil
}

// InputRequiredPrompt asks the user for context by elicitation (multi
// round-trip) before it builds its message.
//
//mcp:prompt name=test_input_required_result_prompt title="Prompt Needing Input"
func (e *Everything) InputRequiredPrompt(ctx context.Context) (string, error) {
	req := elicit("What context should the prompt use?", "context", &mcp.StringSchema{})
	text, err := askString(ctx, "user_context", req, "context")
	if err != nil {
		return "", err
	}
	return "Context: " + text, nil
}
