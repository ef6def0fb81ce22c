// Package mcp fakes the generated protocol types for bind tests.
package mcp

type ContentBlock interface{ isContentBlock() }

type CallToolResult struct{ Content []ContentBlock }

type GetPromptResult struct{ Messages []PromptMessage }

type PromptMessage struct{ Role string }

type ReadResourceResult struct{}
