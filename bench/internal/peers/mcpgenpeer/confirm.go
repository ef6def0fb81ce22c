package mcpgenpeer

import (
	"context"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/server"

	"github.com/mcpgen/mcpgen/bench/internal/payload"
)

// ConfirmNested is the multi round-trip row's tool: the first round stores
// its state and asks the client to confirm (elicitation); the second,
// carrying the answer and the sealed state, counts the items.
//
//mcp:tool name=confirm_nested
func (t *Tools) ConfirmNested(ctx context.Context, in NestedArgs) (string, error) {
	if err := confirmRound(ctx); err != nil {
		return "", err
	}
	return payload.ItemsText(len(in.Items)), nil
}

// confirmRound is the multi round-trip row's exchange: the first round
// stores its state and asks the client to confirm, returning
// server.Ask's error (the input_required answer); the second, carrying
// the answer and the sealed state, returns nil.
func confirmRound(ctx context.Context) error {
	if server.State(ctx) == nil {
		if err := server.SetState(ctx, []byte(`{"step":1}`)); err != nil {
			return err
		}
	}
	_, err := server.Ask(ctx, payload.ConfirmKey, &mcp.ElicitRequest{Params: &mcp.ElicitRequestFormParams{
		Message: payload.ConfirmMessage,
		RequestedSchema: mcp.ElicitRequestFormParamsRequestedSchema{
			Properties: map[string]mcp.PrimitiveSchemaDefinition{"ok": &mcp.BooleanSchema{}},
		},
	}})
	return err
}
