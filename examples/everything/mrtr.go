package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strings"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/jsonrpc"
	"github.com/mcpgen/mcpgen/server"
)

// The multi round-trip (MRTR) fixtures. Each one asks the client for input
// with server.Ask; the runtime answers the first round with an
// InputRequiredResult and hands the client's inputResponses to the retry.
// Everything a later round needs travels in the sealed requestState
// (server.SetState / server.State): the server keeps no memory.

// userNameRequest asks for the user's name (key user_name).
func userNameRequest() mcp.InputRequest {
	return elicit("What is your name?", "name", &mcp.StringSchema{})
}

// InputRequiredElicitation asks the user's name by elicitation, then greets them.
//
//mcp:tool name=test_input_required_result_elicitation readOnly
func (e *Everything) InputRequiredElicitation(ctx context.Context) (string, error) {
	name, err := askString(ctx, "user_name", userNameRequest(), "name")
	if err != nil {
		return "", err
	}
	return "Hello, " + name + "!", nil
}

// InputRequiredSampling asks the client's model a question by sampling.
//
//mcp:tool name=test_input_required_result_sampling readOnly
func (e *Everything) InputRequiredSampling(ctx context.Context) (string, error) {
	text, err := askSample(ctx, "capital_question", sample("What is the capital of France?", 100))
	if err != nil {
		return "", err
	}
	return "Sampling response: " + text, nil
}

// InputRequiredListRoots asks the client for its roots.
//
//mcp:tool name=test_input_required_result_list_roots readOnly
func (e *Everything) InputRequiredListRoots(ctx context.Context) (string, error) {
	roots, err := askRoots(ctx, "client_roots")
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("Client exposed %d root(s): %s", len(roots), rootURIs(roots)), nil
}

// requestStateStep is what the request-state fixtures keep in requestState.
type requestStateStep struct {
	Step string `json:"step"`
}

// confirmRequest asks for a boolean confirmation (key confirm).
func confirmRequest() mcp.InputRequest {
	return elicit("Please confirm", "ok", &mcp.BooleanSchema{})
}

// InputRequiredRequestState asks for a confirmation and carries a
// requestState that the retry must echo.
//
//mcp:tool name=test_input_required_result_request_state readOnly
func (e *Everything) InputRequiredRequestState(ctx context.Context) (string, error) {
	if err := confirmWithState(ctx, "confirm"); err != nil {
		return "", err
	}
	return "state-ok: requestState received and confirmation accepted", nil
}

// InputRequiredTamperedState is like the request-state fixture; a retry with
// a requestState that fails its integrity check is a JSON-RPC error.
//
//mcp:tool name=test_input_required_result_tampered_state readOnly
func (e *Everything) InputRequiredTamperedState(ctx context.Context) (string, error) {
	if err := confirmWithState(ctx, "tamper-check"); err != nil {
		return "", err
	}
	return "state-ok: requestState verified and confirmation accepted", nil
}

// confirmWithState runs the two rounds of the request-state fixtures: round 1
// stores step in requestState and asks for confirm; round 2 needs that state
// back (else -32602) and an accepted confirmation.
func confirmWithState(ctx context.Context, step string) error {
	var st requestStateStep
	hasState, err := loadState(ctx, &st)
	if err != nil {
		return err
	}
	if !hasState {
		// A retry that answers confirm without a valid requestState lost or
		// altered the state: a protocol error, never a fresh round.
		if _, err := server.Ask(ctx, "confirm", confirmRequest()); err == nil {
			return invalidState("the retry carries no valid requestState")
		}
		if err := saveState(ctx, requestStateStep{Step: step}); err != nil {
			return err
		}
		return askAgain("confirm", confirmRequest())
	}
	if st.Step != step {
		return invalidState(fmt.Sprintf("requestState is for step %q, not %q", st.Step, step))
	}
	content, err := askAccepted(ctx, "confirm", confirmRequest())
	if err != nil {
		return err
	}
	if ok, _ := content["ok"].(bool); !ok {
		return errors.New("the confirmation was not given")
	}
	return nil
}

// InputRequiredMultipleInputs asks for a name, a greeting and the roots in one round.
//
//mcp:tool name=test_input_required_result_multiple_inputs readOnly
func (e *Everything) InputRequiredMultipleInputs(ctx context.Context) (string, error) {
	if err := saveState(ctx, requestStateStep{Step: "multiple-inputs"}); err != nil {
		return "", err
	}
	var missing inputNeeds
	name, err := askString(ctx, "user_name", userNameRequest(), "name")
	missing.add(err)
	greeting, err := askSample(ctx, "greeting", sample("Generate a greeting", 50))
	missing.add(err)
	roots, err := askRoots(ctx, "client_roots")
	missing.add(err)
	if err := missing.err(); err != nil {
		return "", err
	}
	return fmt.Sprintf("%s %s — %d root(s) visible", greeting, name, len(roots)), nil
}

// multiRoundState is the requestState of the multi-round fixture.
type multiRoundState struct {
	Round int    `json:"round"`
	Name  string `json:"name,omitempty"`
}

// InputRequiredMultiRound asks for a name, then (in a second round, with a
// new requestState) for a favourite colour.
//
//mcp:tool name=test_input_required_result_multi_round readOnly
func (e *Everything) InputRequiredMultiRound(ctx context.Context) (string, error) {
	var st multiRoundState
	if _, err := loadState(ctx, &st); err != nil {
		return "", err
	}
	if st.Round < 2 {
		if err := saveState(ctx, multiRoundState{Round: 1}); err != nil {
			return "", err
		}
		name, err := askString(ctx, "step1", elicit("Step 1: What is your name?", "name", &mcp.StringSchema{}), "name")
		if err != nil {
			return "", err
		}
		st = multiRoundState{Round: 2, Name: name}
		if err := saveState(ctx, st); err != nil {
			return "", err
		}
	}
	color, err := askString(ctx, "step2", elicit("Step 2: What is your favorite color?", "color", &mcp.StringSchema{}), "color")
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("Multi-round complete: %s likes %s", st.Name, color), nil
}

// InputRequiredCapabilities asks only for what this request's client
// capabilities allow (sampling, elicitation, roots) and completes once any
// of it is answered.
//
//mcp:tool name=test_input_required_result_capabilities readOnly
func (e *Everything) InputRequiredCapabilities(ctx context.Context) (string, error) {
	caps := server.ClientCapabilities(ctx)
	if caps == nil || (caps.Sampling == nil && caps.Elicitation == nil && caps.Roots == nil) {
		return "", server.RequireCapabilities(ctx, mcp.ClientCapabilities{Sampling: &mcp.ClientCapabilitiesSampling{}})
	}
	var missing inputNeeds
	var got []string
	if caps.Sampling != nil {
		text, err := askSample(ctx, "greeting", sample("Generate a short greeting", 50))
		if missing.add(err) {
			got = append(got, "sampling: "+text)
		}
	}
	if caps.Elicitation != nil {
		name, err := askString(ctx, "user_name", userNameRequest(), "name")
		if missing.add(err) {
			got = append(got, "elicitation: "+name)
		}
	}
	if caps.Roots != nil {
		roots, err := askRoots(ctx, "client_roots")
		if missing.add(err) {
			got = append(got, "roots: "+rootURIs(roots))
		}
	}
	if len(got) == 0 {
		return "", missing.err()
	}
	return "Capabilities respected; " + strings.Join(got, "; "), nil
}

// ---- helpers ----

// elicit builds a form elicitation for one required property.
func elicit(message, property string, schema mcp.PrimitiveSchemaDefinition) mcp.InputRequest {
	return &mcp.ElicitRequest{Params: &mcp.ElicitRequestFormParams{
		Message: message,
		RequestedSchema: mcp.ElicitRequestFormParamsRequestedSchema{
			Properties: map[string]mcp.PrimitiveSchemaDefinition{property: schema},
			Required:   []string{property},
		},
	}}
}

// sample builds a sampling request with one user text message.
func sample(text string, maxTokens int64) mcp.InputRequest {
	return &mcp.CreateMessageRequest{Params: mcp.CreateMessageRequestParams{
		Messages:  []mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: text}}},
		MaxTokens: maxTokens,
	}}
}

// rootsRequest builds a roots/list request.
func rootsRequest() mcp.InputRequest {
	return &mcp.ListRootsRequest{Params: &mcp.ListRootsRequestParams{}}
}

// askAgain is the answer to a missing or unusable input response: the same
// request again, as an InputRequiredResult.
func askAgain(key string, req mcp.InputRequest) error {
	return &server.InputRequiredError{Requests: map[string]mcp.InputRequest{key: req}}
}

// askAccepted asks an elicitation and returns the content of an accepted
// answer; any other answer (declined, cancelled, empty) is asked for again.
// server.Ask itself answers a response of the wrong kind with -32602.
func askAccepted(ctx context.Context, key string, req mcp.InputRequest) (map[string]any, error) {
	resp, err := server.Ask(ctx, key, req)
	if err != nil {
		return nil, err
	}
	r, ok := resp.(*mcp.ElicitResult)
	if !ok || r.Action != "accept" || r.Content == nil {
		return nil, askAgain(key, req)
	}
	return r.Content, nil
}

// askString asks an elicitation and returns the string property of its
// accepted content.
func askString(ctx context.Context, key string, req mcp.InputRequest, property string) (string, error) {
	content, err := askAccepted(ctx, key, req)
	if err != nil {
		return "", err
	}
	s, ok := content[property].(string)
	if !ok || s == "" {
		return "", askAgain(key, req)
	}
	return s, nil
}

// askSample asks a sampling request and returns the text of the answer.
func askSample(ctx context.Context, key string, req mcp.InputRequest) (string, error) {
	resp, err := server.Ask(ctx, key, req)
	if err != nil {
		return "", err
	}
	r, ok := resp.(*mcp.CreateMessageResult)
	if !ok {
		return "", askAgain(key, req)
	}
	t, ok := r.Content.(*mcp.TextContent)
	if !ok {
		return "", askAgain(key, req)
	}
	return t.Text, nil
}

// askRoots asks for the client's roots.
func askRoots(ctx context.Context, key string) ([]mcp.Root, error) {
	req := rootsRequest()
	resp, err := server.Ask(ctx, key, req)
	if err != nil {
		return nil, err
	}
	r, ok := resp.(*mcp.ListRootsResult)
	if !ok {
		return nil, askAgain(key, req)
	}
	return r.Roots, nil
}

// rootURIs lists the URIs of roots, comma-separated.
func rootURIs(roots []mcp.Root) string {
	uris := make([]string, len(roots))
	for i, r := range roots {
		uris[i] = r.URI
	}
	return strings.Join(uris, ", ")
}

// inputNeeds merges the input requests of several Ask calls, so that one
// round asks for everything still missing.
type inputNeeds struct {
	requests map[string]mcp.InputRequest
	other    error
}

// add records err and reports whether it was nil (the input is there).
func (n *inputNeeds) add(err error) bool {
	if err == nil {
		return true
	}
	var need *server.InputRequiredError
	if errors.As(err, &need) {
		if n.requests == nil {
			n.requests = map[string]mcp.InputRequest{}
		}
		maps.Copy(n.requests, need.Requests)
	} else if n.other == nil {
		n.other = err
	}
	return false
}

// err is the first non-input error, else the merged input requests, else nil.
func (n *inputNeeds) err() error {
	if n.other != nil {
		return n.other
	}
	if len(n.requests) > 0 {
		return &server.InputRequiredError{Requests: n.requests}
	}
	return nil
}

// loadState decodes this request's verified requestState into v and reports
// whether there was one.
func loadState(ctx context.Context, v any) (bool, error) {
	raw := server.State(ctx)
	if len(raw) == 0 {
		return false, nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return false, invalidState("requestState does not decode: " + err.Error())
	}
	return true, nil
}

// saveState stores v as the requestState of the next round.
func saveState(ctx context.Context, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return server.SetState(ctx, b)
}

// invalidState is the JSON-RPC error (-32602) for a missing, foreign or
// tampered requestState.
func invalidState(detail string) error {
	return jsonrpc.NewError(jsonrpc.CodeInvalidParams, "invalid requestState: "+detail, nil)
}
