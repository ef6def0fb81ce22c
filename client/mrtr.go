package client

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/internal/jsonscan"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// inputRequired reports whether a result is an InputRequiredResult (an
// absent resultType means complete, basic/patterns/mrtr.mdx).
func inputRequired(result json.RawMessage) (*mcp.InputRequiredResult, bool, error) {
	if jsonscan.Kind(result) != '{' {
		return nil, false, fmt.Errorf("the result is not a JSON object")
	}
	if rt, ok := jsonscan.String(memberValue(result, "resultType")); !ok || rt != "input_required" {
		return nil, false, nil
	}
	var ir mcp.InputRequiredResult
	if err := json.Unmarshal(result, &ir); err != nil {
		return nil, false, fmt.Errorf("decoding the InputRequiredResult: %w", err)
	}
	if len(ir.InputRequests) == 0 && ir.RequestState == nil {
		return nil, false, fmt.Errorf("the InputRequiredResult has neither inputRequests nor requestState")
	}
	return &ir, true, nil
}

// MaxInputRequests bounds the input requests of one multi round-trip
// round: a server that asks for more (each may prompt a user, and each
// answer is sent back) gets an error instead.
const MaxInputRequests = 64

// answerRound answers every input request of ir with the registered
// handlers and sets the retry's inputResponses and requestState in members
// (requestState echoed exactly, omitted when the server sent none).
func (c *Client) answerRound(ctx context.Context, method string, ir *mcp.InputRequiredResult, members map[string]json.RawMessage) error {
	if n := len(ir.InputRequests); n > MaxInputRequests {
		return fmt.Errorf("client: %s asks for %d input requests in one round, more than %d (MaxInputRequests)", method, n, MaxInputRequests)
	}
	keys := make([]string, 0, len(ir.InputRequests))
	for k := range ir.InputRequests {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	responses := mcp.InputResponses{}
	for _, k := range keys {
		res, err := c.answer(ctx, ir.InputRequests[k])
		if err != nil {
			return fmt.Errorf("client: %s input request %q: %w", method, k, err)
		}
		responses[k] = res
	}
	delete(members, "inputResponses")
	if len(responses) > 0 {
		raw, err := json.Marshal(responses)
		if err != nil {
			return fmt.Errorf("client: encoding inputResponses: %w", err)
		}
		members["inputResponses"] = raw
	}
	delete(members, "requestState")
	if ir.RequestState != nil { // "" too: an opaque state is echoed exactly
		members["requestState"] = mustJSON(*ir.RequestState)
	}
	return nil
}

// answer runs the handler for one input request.
func (c *Client) answer(ctx context.Context, req mcp.InputRequest) (mcp.InputResponse, error) {
	switch r := req.(type) {
	case *mcp.ElicitRequest:
		if c.opts.Elicit == nil {
			return nil, noHandler("elicitation/create", "Elicit")
		}
		res, err := c.opts.Elicit(ctx, r)
		if err == nil && res == nil {
			err = fmt.Errorf("the Elicit handler returned no result")
		}
		return res, err
	case *mcp.CreateMessageRequest:
		if c.opts.Sample == nil {
			return nil, noHandler("sampling/createMessage", "Sample")
		}
		res, err := c.opts.Sample(ctx, r)
		if err == nil && res == nil {
			err = fmt.Errorf("the Sample handler returned no result")
		}
		return res, err
	case *mcp.ListRootsRequest:
		if c.opts.Roots == nil {
			return nil, noHandler("roots/list", "Roots")
		}
		res, err := c.opts.Roots(ctx, r)
		if err == nil && res == nil {
			err = fmt.Errorf("the Roots handler returned no result")
		}
		return res, err
	}
	return nil, fmt.Errorf("unsupported input request %T", req)
}

func noHandler(method, option string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound,
		Message: fmt.Sprintf("the server asked for %s but the client has no Options.%s handler", method, option)}
}

// memberValue returns the raw value of one member of a JSON object, or nil.
func memberValue(data []byte, name string) []byte {
	var out []byte
	jsonscan.EachMember(data, func(k, v []byte) {
		if out == nil && jsonscan.KeyEquals(k, name) {
			out = v
		}
	})
	return out
}
