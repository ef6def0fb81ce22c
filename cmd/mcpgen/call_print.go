package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/mcpgen/mcpgen/client"
	"github.com/mcpgen/mcpgen/generated/mcp"
)

// printer writes results for people, or as JSON with --json.
type printer struct {
	w    io.Writer
	json bool
}

func (p *printer) printJSON(v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(p.w, "%s\n", b)
	return err
}

func (p *printer) printRaw(raw json.RawMessage) error {
	var buf bytes.Buffer
	if err := json.Indent(&buf, raw, "", "  "); err != nil {
		return err
	}
	_, err := fmt.Fprintf(p.w, "%s\n", buf.Bytes())
	return err
}

func (p *printer) listing(cl *client.Client, tools []mcp.Tool, prompts []mcp.Prompt, resources []mcp.Resource, templates []mcp.ResourceTemplate) {
	era := "stateless"
	if cl.Legacy() {
		era = "legacy session"
	}
	fmt.Fprintf(p.w, "server speaks %s (%s)\n", cl.ProtocolVersion(), era)
	fmt.Fprintf(p.w, "\nTools (%d):\n", len(tools))
	for _, t := range tools {
		fmt.Fprintf(p.w, "  %s%s\n", t.Name, argSummary(t.InputSchema))
		if d := firstLine(t.Description); d != "" {
			fmt.Fprintf(p.w, "      %s\n", d)
		}
	}
	if len(prompts) > 0 {
		fmt.Fprintf(p.w, "\nPrompts (%d):\n", len(prompts))
		for _, pr := range prompts {
			var args []string
			for _, a := range pr.Arguments {
				s := a.Name
				if a.Required == nil || !*a.Required {
					s += "?"
				}
				args = append(args, s)
			}
			fmt.Fprintf(p.w, "  %s(%s)\n", pr.Name, strings.Join(args, ", "))
			if d := firstLine(pr.Description); d != "" {
				fmt.Fprintf(p.w, "      %s\n", d)
			}
		}
	}
	if len(resources) > 0 {
		fmt.Fprintf(p.w, "\nResources (%d):\n", len(resources))
		for _, r := range resources {
			fmt.Fprintf(p.w, "  %s  %s\n", r.URI, r.Name)
		}
	}
	if len(templates) > 0 {
		fmt.Fprintf(p.w, "\nResource templates (%d):\n", len(templates))
		for _, r := range templates {
			fmt.Fprintf(p.w, "  %s  %s\n", r.URITemplate, r.Name)
		}
	}
}

// argSummary renders a tool's arguments as "(a: string, b?: integer)".
func argSummary(schema json.RawMessage) string {
	var s struct {
		Properties map[string]struct {
			Type json.RawMessage `json:"type"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	if json.Unmarshal(schema, &s) != nil || len(s.Properties) == 0 {
		return "()"
	}
	names := make([]string, 0, len(s.Properties))
	for n := range s.Properties {
		names = append(names, n)
	}
	sort.Strings(names)
	var parts []string
	for _, n := range names {
		opt := "?"
		if contains(s.Required, n) {
			opt = ""
		}
		typ := strings.Join(schemaTypes(s.Properties[n].Type), "|")
		if typ == "" {
			typ = "any"
		}
		parts = append(parts, n+opt+": "+typ)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

func (p *printer) content(blocks []mcp.ContentBlock) {
	for _, b := range blocks {
		switch b := b.(type) {
		case *mcp.TextContent:
			fmt.Fprintln(p.w, b.Text)
		case *mcp.ImageContent:
			fmt.Fprintf(p.w, "[image %s, %d base64 bytes]\n", b.MIMEType, len(b.Data))
		case *mcp.AudioContent:
			fmt.Fprintf(p.w, "[audio %s, %d base64 bytes]\n", b.MIMEType, len(b.Data))
		case *mcp.ResourceLink:
			fmt.Fprintf(p.w, "[resource link %s %s]\n", b.URI, b.Name)
		case *mcp.EmbeddedResource:
			p.resourceContents([]mcp.ResourceContentsUnion{b.Resource})
		default:
			fmt.Fprintf(p.w, "[%T]\n", b)
		}
	}
}

func (p *printer) resourceContents(contents []mcp.ResourceContentsUnion) {
	for _, c := range contents {
		switch c := c.(type) {
		case *mcp.TextResourceContents:
			fmt.Fprintf(p.w, "--- %s (%s)\n%s\n", c.URI, c.MIMEType, c.Text)
		case *mcp.BlobResourceContents:
			fmt.Fprintf(p.w, "--- %s (%s): %d base64 bytes\n", c.URI, c.MIMEType, len(c.Blob))
		default:
			fmt.Fprintf(p.w, "[%T]\n", c)
		}
	}
}

func (p *printer) toolResult(res *mcp.CallToolResult, raw json.RawMessage) {
	if res.IsError != nil && *res.IsError {
		fmt.Fprint(p.w, "tool error: ")
	}
	p.content(res.Content)
	var sc struct {
		StructuredContent json.RawMessage `json:"structuredContent"`
	}
	if json.Unmarshal(raw, &sc) == nil && len(sc.StructuredContent) > 0 && string(sc.StructuredContent) != "null" {
		var buf bytes.Buffer
		if json.Indent(&buf, sc.StructuredContent, "", "  ") == nil {
			fmt.Fprintf(p.w, "structuredContent:\n%s\n", buf.Bytes())
		}
	}
}

func (p *printer) promptResult(res *mcp.GetPromptResult) {
	if res.Description != "" {
		fmt.Fprintln(p.w, res.Description)
	}
	for _, m := range res.Messages {
		fmt.Fprintf(p.w, "%s: ", m.Role)
		p.content([]mcp.ContentBlock{m.Content})
	}
}

func (p *printer) resourceResult(res *mcp.ReadResourceResult) {
	p.resourceContents(res.Contents)
}
