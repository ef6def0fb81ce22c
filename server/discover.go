package server

import (
	"context"
	"encoding/json"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// listChanges says which list_changed notifications the server sends:
// those of a registry that answers its list method itself. A user handler
// that takes over tools/list (prompts/list, resources/list) answers a list
// that registry changes do not reach. server/discover declares listChanged
// and a listen's acknowledgement grants the list kinds from this alone.
type listChanges struct{ tools, prompts, resources bool }

func (s *Server) listChanges() listChanges {
	return listChanges{
		tools:     s.tools.offered() && !s.handles(mcp.MethodToolsList),
		prompts:   s.prompts.offered() && !s.handles(mcp.MethodPromptsList),
		resources: s.resources.offered() && !s.handles(mcp.MethodResourcesList),
	}
}

// capabilities are the server capabilities its registries and handlers
// imply, computed per request because tools may appear at run time.
func (s *Server) capabilities() mcp.ServerCapabilities {
	yes := true
	var c mcp.ServerCapabilities
	changes := s.listChanges()
	if s.offers("tools") {
		c.Tools = &mcp.ServerCapabilitiesTools{}
		if changes.tools {
			c.Tools.ListChanged = &yes
		}
	}
	if s.offers("prompts") {
		c.Prompts = &mcp.ServerCapabilitiesPrompts{}
		if changes.prompts {
			c.Prompts.ListChanged = &yes
		}
	}
	if s.offers("resources") {
		c.Resources = &mcp.ServerCapabilitiesResources{Subscribe: &yes}
		if changes.resources {
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
