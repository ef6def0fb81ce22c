package server

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// maxCompletions is the most values one completion result may carry.
const maxCompletions = 100

// complete answers completion/complete for prompts and resource templates
// whose argument type implements Completer.
func (s *Server) complete(ctx context.Context, r *request, _ *requestParams, params json.RawMessage) (any, error) {
	var p mcp.CompleteRequestParams
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, paramsError(err)
	}
	var fn func(ctx context.Context, arg, value string, context map[string]string) ([]string, error)
	switch ref := p.Ref.(type) {
	case *mcp.PromptReference:
		pr := s.prompts.catalog.get(ref.Name)
		if pr == nil || s.hidden(ctx, &pr.entry) {
			return nil, invalidParams(fmt.Sprintf("Unknown prompt: %q", ref.Name))
		}
		// Completing a prompt's arguments needs what getting it needs.
		if err := checkScopes(ctx, pr.scopes); err != nil {
			return nil, err
		}
		fn = pr.complete
	case *mcp.ResourceTemplateReference:
		known := false
		var need []string
		for _, t := range s.resources.set.Load().tmpl.list {
			if t.key == ref.URI && !s.hidden(ctx, &t.entry) {
				fn, known, need = t.complete, true, t.scopes
			}
		}
		if res := s.resources.set.Load().res.lookup(ref.URI); res != nil && !s.hidden(ctx, &res.entry) {
			known = true
			need = append(slices.Clip(need), res.scopes...)
		}
		if !known {
			return nil, invalidParams(fmt.Sprintf("Unknown resource template: %q", ref.URI))
		}
		// Completing a template's variables needs what reading it needs.
		if err := checkScopes(ctx, need); err != nil {
			return nil, err
		}
	default:
		return nil, invalidParams("params.ref: unknown reference type")
	}
	res := &mcp.CompleteResult{}
	if fn != nil {
		var args map[string]string
		if p.Context != nil {
			args = p.Context.Arguments
		}
		values, err := fn(ctx, p.Argument.Name, p.Argument.Value, args)
		if err != nil {
			return nil, err
		}
		total := int64(len(values))
		if len(values) > maxCompletions {
			more := true
			values, res.Completion.HasMore = values[:maxCompletions], &more
		}
		res.Completion.Total = &total
		res.Completion.Values = values
	}
	return res, nil
}

// paramsError turns a params decoding error into -32602 naming the field.
func paramsError(err error) error {
	if de, ok := err.(*mcp.DecodeError); ok {
		return invalidParams("params." + de.Error())
	}
	return invalidParams(err.Error())
}
