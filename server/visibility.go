package server

import (
	"context"
	"encoding/json"
)

// ItemKind names a kind of registered item (Item.Kind).
type ItemKind string

// The item kinds Options.Visible is asked about.
const (
	ItemTool             ItemKind = "tool"
	ItemPrompt           ItemKind = "prompt"
	ItemResource         ItemKind = "resource"
	ItemResourceTemplate ItemKind = "resource template"
)

// Item is a registered tool, prompt, resource or resource template, as
// Options.Visible sees it.
type Item struct {
	Kind ItemKind
	// Name is the tool or prompt name, the resource URI or the URI
	// template.
	Name string
	// Definition is the item's encoded definition as lists send it (a
	// Tool, Prompt, Resource or ResourceTemplate object); read only.
	Definition json.RawMessage
}

// hidden reports whether Options.Visible hides the item e from the
// current request.
func (s *Server) hidden(ctx context.Context, e *entry) bool {
	return s != nil && s.opts.Visible != nil && !s.opts.Visible(ctx, Item{Kind: e.kind, Name: e.key, Definition: e.def})
}
