package server

import (
	"context"
	"encoding/json"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// capabilities are the server capabilities its registries and handlers
// imply, computed per request because tools may appear at run time.
func (s *Server) capabilities() mcp.ServerCapabilities {
	yes := true
	var c mcp.ServerCapabilities
	if s.offers("tools") {
		c.Tools = &mcp.ServerCapabilitiesTools{}
		if s.tools.offered() && !s.handles(mcp.MethodToolsList) {
			c.Tools.ListChanged = &yes
		}
	}
	if s.offers("prompts") {
		c.Prompts = &mcp.ServerCapabilitiesPrompts{}
		if s.prompts.offered() && !s.handles(mcp.MethodPromptsList) {
			c.Prompts.ListChanged = &yes
		}
	}
	if s.offers("resources") {
		c.Resources = &mcp.ServerCapabilitiesResources{Subscribe: &yes}
		if s.resources.offered() && !s.handles(mcp.MethodResourcesList) {
			c.Resources.ListChanged = &yes
		}
	}
	if s.completions() {
		c.Completions = mcp.JSONObject{}
	}
	// Log sends notifications/message when a request sets a logLevel.
	c.Logging = mcp.JSONObject{}
	c.Extensions = s.extensionCapabilities()
	return c
}

// discover answers server/discover.
func (s *Server) discover(ctx context.Context, r *request, _ *requestParams, _ json.RawMessage) (any, error) {
	return &mcp.DiscoverResult{
		SupportedVersions: s.SupportedVersions(),
		Capabilities:      s.capabilities(),
		Instructions:      s.opts.Instructions,
	}, nil
}
