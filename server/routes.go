package server

import (
	"context"
	"encoding/json"
)

// The registry routes of Server.route as static functions of the request
// (r.s is its server), so that choosing one allocates nothing.

func routeDiscover(ctx context.Context, r *request, p *requestParams, raw json.RawMessage) (any, error) {
	return r.s.discover(ctx, r, p, raw)
}

func routeListen(ctx context.Context, r *request, p *requestParams, raw json.RawMessage) (any, error) {
	return r.s.listen(ctx, r, p, raw)
}

func routeToolsCall(ctx context.Context, r *request, p *requestParams, raw json.RawMessage) (any, error) {
	return r.s.tools.call(ctx, r, p, raw)
}

func routeToolsList(ctx context.Context, r *request, p *requestParams, raw json.RawMessage) (any, error) {
	return r.s.tools.list(ctx, r, p, raw)
}

func routePromptsGet(ctx context.Context, r *request, p *requestParams, raw json.RawMessage) (any, error) {
	return r.s.prompts.get(ctx, r, p, raw)
}

func routePromptsList(ctx context.Context, r *request, p *requestParams, raw json.RawMessage) (any, error) {
	return r.s.prompts.list(ctx, r, p, raw)
}

func routeResourcesRead(ctx context.Context, r *request, p *requestParams, raw json.RawMessage) (any, error) {
	return r.s.resources.read(ctx, r, p, raw)
}

func routeResourcesList(ctx context.Context, r *request, p *requestParams, raw json.RawMessage) (any, error) {
	return r.s.resources.listResources(ctx, r, p, raw)
}

func routeResourcesTemplates(ctx context.Context, r *request, p *requestParams, raw json.RawMessage) (any, error) {
	return r.s.resources.listTemplates(ctx, r, p, raw)
}

func routeComplete(ctx context.Context, r *request, p *requestParams, raw json.RawMessage) (any, error) {
	return r.s.complete(ctx, r, p, raw)
}
