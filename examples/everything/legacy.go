package main

// Fixtures of the --requirements 2025-11-25 run (legacy sessions). On a
// 2026-07-28 request the same tools work through multi round-trip
// (InputRequiredResult); on a legacy session the runtime sends the requests
// to the client.

import (
	"context"
	"fmt"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/server"
)

// ToolWithLogging logs three info messages about 50 ms apart.
//
//mcp:tool name=test_tool_with_logging readOnly
func (e *Everything) ToolWithLogging(ctx context.Context) (string, error) {
	for i, msg := range []string{"Tool execution started", "Tool processing data", "Tool execution completed"} {
		if i > 0 {
			if err := sleep(ctx, 50*time.Millisecond); err != nil {
				return "", err
			}
		}
		server.Log(ctx, "info", "everything", msg)
	}
	return "Tool with logging executed successfully", nil
}

// SamplingArgs are the arguments of test_sampling.
type SamplingArgs struct {
	Prompt string `json:"prompt" jsonschema:"required,description=The prompt to send to the client's model"`
}

// Sampling asks the client's model to answer prompt.
//
//mcp:tool name=test_sampling
func (e *Everything) Sampling(ctx context.Context, in SamplingArgs) (string, error) {
	text, err := askSample(ctx, "sampling", sample(in.Prompt, 100))
	if err != nil {
		return "", err
	}
	return "LLM response: " + text, nil
}

// ElicitationArgs are the arguments of test_elicitation.
type ElicitationArgs struct {
	Message string `json:"message" jsonschema:"required,description=The message to show the user"`
}

// Elicitation asks the user for a username and an email address.
//
//mcp:tool name=test_elicitation
func (e *Everything) Elicitation(ctx context.Context, in ElicitationArgs) (string, error) {
	req := &mcp.ElicitRequest{Params: &mcp.ElicitRequestFormParams{
		Message: in.Message,
		RequestedSchema: mcp.ElicitRequestFormParamsRequestedSchema{
			Properties: map[string]mcp.PrimitiveSchemaDefinition{
				"username": &mcp.StringSchema{Description: "User's response"},
				"email":    &mcp.StringSchema{Description: "User's email address"},
			},
			Required: []string{"username", "email"},
		},
	}}
	return elicitSummary(ctx, "elicitation", req)
}

// ElicitationDefaults asks for a form whose fields all have defaults (SEP-1034).
//
//mcp:tool name=test_elicitation_sep1034_defaults
func (e *Everything) ElicitationDefaults(ctx context.Context) (string, error) {
	age, score, verified := 30.0, 95.5, true
	req := &mcp.ElicitRequest{Params: &mcp.ElicitRequestFormParams{
		Message: "Please review and update the form fields with defaults",
		RequestedSchema: mcp.ElicitRequestFormParamsRequestedSchema{
			Properties: map[string]mcp.PrimitiveSchemaDefinition{
				"name":     &mcp.StringSchema{Description: "User name", Default: "John Doe"},
				"age":      &mcp.NumberSchema{Type: "integer", Description: "User age", Default: &age},
				"score":    &mcp.NumberSchema{Type: "number", Description: "User score", Default: &score},
				"status":   &mcp.UntitledSingleSelectEnumSchema{Description: "User status", Enum: []string{"active", "inactive", "pending"}, Default: "active"},
				"verified": &mcp.BooleanSchema{Description: "Verification status", Default: &verified},
			},
		},
	}}
	return elicitSummary(ctx, "defaults", req)
}

// ElicitationEnums asks for a form with every enum style (SEP-1330).
//
//mcp:tool name=test_elicitation_sep1330_enums
func (e *Everything) ElicitationEnums(ctx context.Context) (string, error) {
	titled := []mcp.TitledSingleSelectEnumSchemaOneOfItem{
		{Const: "value1", Title: "First Option"},
		{Const: "value2", Title: "Second Option"},
		{Const: "value3", Title: "Third Option"},
	}
	titledMulti := make([]mcp.TitledMultiSelectEnumSchemaItemsAnyOfItem, len(titled))
	for i, o := range titled {
		titledMulti[i] = mcp.TitledMultiSelectEnumSchemaItemsAnyOfItem{Const: o.Const, Title: o.Title}
	}
	req := &mcp.ElicitRequest{Params: &mcp.ElicitRequestFormParams{
		Message: "Please select options from the enum fields",
		RequestedSchema: mcp.ElicitRequestFormParamsRequestedSchema{
			Properties: map[string]mcp.PrimitiveSchemaDefinition{
				"untitledSingle": &mcp.UntitledSingleSelectEnumSchema{Description: "Untitled single-select", Enum: []string{"option1", "option2", "option3"}},
				"titledSingle":   &mcp.TitledSingleSelectEnumSchema{Description: "Titled single-select", OneOf: titled},
				"legacyEnum": &mcp.LegacyTitledEnumSchema{Description: "Legacy titled enum",
					Enum: []string{"opt1", "opt2", "opt3"}, EnumNames: []string{"Option One", "Option Two", "Option Three"}},
				"untitledMulti": &mcp.UntitledMultiSelectEnumSchema{Description: "Untitled multi-select",
					Items: mcp.UntitledMultiSelectEnumSchemaItems{Enum: []string{"option1", "option2", "option3"}}},
				"titledMulti": &mcp.TitledMultiSelectEnumSchema{Description: "Titled multi-select",
					Items: mcp.TitledMultiSelectEnumSchemaItems{AnyOf: titledMulti}},
			},
		},
	}}
	return elicitSummary(ctx, "enums", req)
}

// elicitSummary asks req and describes the answer (any action).
func elicitSummary(ctx context.Context, key string, req mcp.InputRequest) (string, error) {
	resp, err := server.Ask(ctx, key, req)
	if err != nil {
		return "", err
	}
	r, ok := resp.(*mcp.ElicitResult)
	if !ok {
		return "", askAgain(key, req)
	}
	return fmt.Sprintf("User response: action=%s, content=%v", r.Action, r.Content), nil
}
