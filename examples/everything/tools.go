package main

import (
	"context"
	"errors"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// SimpleText returns a simple text response.
//
//mcp:tool name=test_simple_text readOnly
func (e *Everything) SimpleText(ctx context.Context) (string, error) {
	return "This is a simple text response for testing.", nil
}

// ImageContent returns a small PNG image.
//
//mcp:tool name=test_image_content readOnly
func (e *Everything) ImageContent(ctx context.Context) ([]mcp.ContentBlock, error) {
	return []mcp.ContentBlock{&mcp.ImageContent{Data: pngBytes, MIMEType: "image/png"}}, nil
}

// AudioContent returns a short silent WAV clip.
//
//mcp:tool name=test_audio_content readOnly
func (e *Everything) AudioContent(ctx context.Context) ([]mcp.ContentBlock, error) {
	return []mcp.ContentBlock{&mcp.AudioContent{Data: wavBytes, MIMEType: "audio/wav"}}, nil
}

// EmbeddedResource returns a text resource embedded in the result.
//
//mcp:tool name=test_embedded_resource readOnly
func (e *Everything) EmbeddedResource(ctx context.Context) ([]mcp.ContentBlock, error) {
	return []mcp.ContentBlock{&mcp.EmbeddedResource{Resource: &mcp.TextResourceContents{
		URI:      "test://embedded-resource",
		MIMEType: "text/plain",
		Text:     "This is an embedded resource content.",
	}}}, nil
}

// MultipleContentTypes returns text, an image and an embedded resource in one result.
//
//mcp:tool name=test_multiple_content_types readOnly
func (e *Everything) MultipleContentTypes(ctx context.Context) ([]mcp.ContentBlock, error) {
	return []mcp.ContentBlock{
		&mcp.TextContent{Text: "Multiple content types test:"},
		&mcp.ImageContent{Data: pngBytes, MIMEType: "image/png"},
		&mcp.EmbeddedResource{Resource: &mcp.TextResourceContents{
			URI:      "test://mixed-content-resource",
			MIMEType: "application/json",
			Text:     `{"test":"data","value":123}`,
		}},
	}, nil
}

// errIntentional is the tool error test_error_handling reports.
//
//lint:ignore ST1005 the conformance fixture's text, verbatim
var errIntentional = errors.New("This tool intentionally returns an error for testing")

// ErrorHandling always fails: the error becomes a result with isError set.
//
//mcp:tool name=test_error_handling readOnly
func (e *Everything) ErrorHandling(ctx context.Context) (string, error) {
	return "", errIntentional
}
