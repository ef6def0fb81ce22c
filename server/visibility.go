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

// ResourceVisible reports whether the caller of the current request sees
// the resource at uri as resources/list and resources/read do: false when
// Options.Visible hides it (the resource, and every template matching it,
// so that reading it is Resource not found), or when
// AuthOptions.HideForbidden leaves it out of the lists for want of its
// scopes. It is true for a URI the server does not serve and outside a
// request. Extensions that describe resources use it to describe only what
// the caller sees (package skills: skills/list, skills/get and
// resources/directory/read).
func ResourceVisible(ctx context.Context, uri string) bool {
	r := requestFrom(ctx)
	if r == nil || r.s == nil {
		return true
	}
	s := r.s
	if s.opts.Visible == nil && !hideForbidden(ctx) {
		return true
	}
	scopes, served, hidden := s.resources.guard(ctx, uri)
	return !hidden && (!served || !hideForbidden(ctx) || allowed(ctx, scopes))
}
