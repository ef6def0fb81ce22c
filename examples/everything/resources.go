package main

import "context"

// StaticText is a fixed text resource.
//
//mcp:resource uri=test://static-text name=static-text title="Static Text Resource" mimeType=text/plain
func (e *Everything) StaticText(ctx context.Context) (string, error) {
	return "This is the content of the static text resource.", nil
}

// StaticBinary is a fixed binary resource (a 1×1 PNG image).
//
//mcp:resource uri=test://static-binary name=static-binary title="Static Binary Resource" mimeType=image/png
func (e *Everything) StaticBinary(ctx context.Context) ([]byte, error) {
	return pngBytes, nil
}

// WatchedResource is the resource legacy clients subscribe to.
//
//mcp:resource uri=test://watched-resource name=watched-resource title="Watched Resource" mimeType=text/plain
func (e *Everything) WatchedResource(ctx context.Context) (string, error) {
	return "Watched resource content", nil
}

// TemplateVars are the variables of the test://template/{id}/data template.
type TemplateVars struct {
	ID string `json:"id"`
}

// TemplateData is the JSON document a template read returns.
type TemplateData struct {
	ID           string `json:"id"`
	TemplateTest bool   `json:"templateTest"`
	Data         string `json:"data"`
}

// TemplateResource is a JSON document for any id.
//
//mcp:resourceTemplate uriTemplate=test://template/{id}/data name=template title="Template Resource" mimeType=application/json
func (e *Everything) TemplateResource(ctx context.Context, vars TemplateVars) (TemplateData, error) {
	return TemplateData{ID: vars.ID, TemplateTest: true, Data: "Data for ID: " + vars.ID}, nil
}
