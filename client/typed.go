package client

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/mcpgen/mcpgen/argschema"
	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/internal/argcheck"
	"github.com/mcpgen/mcpgen/internal/jsonenc"
)

// ToolError is a tool's own failure: a CallToolResult with isError true.
type ToolError struct {
	Tool   string
	Result *mcp.CallToolResult
}

func (e *ToolError) Error() string {
	msg := ""
	for _, b := range e.Result.Content {
		if t, ok := b.(*mcp.TextContent); ok {
			msg = t.Text
			break
		}
	}
	return fmt.Sprintf("client: tool %s failed: %s", e.Tool, msg)
}

// CallToolAs calls tool name with args (any value that encodes as a JSON
// object, or nil), validates its structuredContent against the tool's
// outputSchema (from tools/list, listed on first use) and decodes it into
// a T. It also returns the whole result. A result without
// structuredContent (servers before 2025-06-18) is read from its single text
// block when that is a JSON object. A result with isError is a *ToolError;
// a result without either, or one that fails the schema, is an error naming
// the problem.
func CallToolAs[T any](ctx context.Context, c *Client, name string, args any) (T, *mcp.CallToolResult, error) {
	var zero T
	raw, err := jsonenc.Marshal(args)
	if err != nil {
		return zero, nil, fmt.Errorf("client: tool %s arguments: %w", name, err)
	}
	if string(raw) == "null" {
		raw = nil
	}
	result, err := c.Call(ctx, mcp.MethodToolsCall, &mcp.CallToolRequestParams{Name: name, Arguments: raw})
	if err != nil {
		return zero, nil, err
	}
	out, err := mcp.DecodeCallToolOutcome(result)
	if err != nil {
		return zero, nil, fmt.Errorf("client: tool %s result: %w", name, err)
	}
	res, ok := out.(*mcp.CallToolResult)
	if !ok {
		return zero, nil, fmt.Errorf("client: tool %s: unexpected %T", name, out)
	}
	if res.IsError != nil && *res.IsError {
		return zero, res, &ToolError{Tool: name, Result: res}
	}
	var rawSC struct {
		StructuredContent json.RawMessage `json:"structuredContent"`
	}
	_ = json.Unmarshal(result, &rawSC)
	sc := rawSC.StructuredContent
	if len(sc) == 0 || string(sc) == "null" {
		// Before 2025-06-18 there was no structuredContent; tools that have
		// a result object send it serialized in a text block (server/tools.mdx:
		// "SHOULD also return the serialized JSON in a TextContent block").
		if sc = textJSON(res); sc == nil {
			return zero, res, fmt.Errorf("client: tool %s returned no structuredContent (and no JSON object as its text)", name)
		}
	}
	e := c.tools.entry(name)
	if e == nil {
		if err := c.refreshTools(ctx); err != nil {
			return zero, res, fmt.Errorf("client: listing tools for the outputSchema of %s: %w", name, err)
		}
		if e = c.tools.entry(name); e == nil {
			return zero, res, fmt.Errorf("client: tool %s is not in tools/list, so its outputSchema is unknown", name)
		}
	}
	schema := e.outputSchema
	if len(schema) == 0 {
		schema = anySchema
	}
	c.tools.mu.Lock()
	if e.compiled == nil && e.compileErr == nil {
		e.compiled, e.compileErr = argschema.Compile(schema)
	}
	v, cerr := e.compiled, e.compileErr
	c.tools.mu.Unlock()
	if cerr != nil {
		return zero, res, fmt.Errorf("client: tool %s outputSchema: %w", name, cerr)
	}
	// One parse: the value decoded is exactly the one validated, members
	// matched by their exact names (json.Unmarshal would fold case, so
	// an unvalidated "LOCATION" could fill the field "location" names) and
	// duplicates refused — without an outputSchema too.
	var decoded T
	if err := argcheck.NewTypeDecoder(reflect.TypeFor[T](), v).DecodeInto(sc, &decoded); err != nil {
		if len(e.outputSchema) == 0 {
			return zero, res, fmt.Errorf("client: tool %s structuredContent does not decode into %T: %w", name, decoded, err)
		}
		return zero, res, fmt.Errorf("client: tool %s structuredContent does not match its outputSchema: %w", name, err)
	}
	return decoded, res, nil
}

// anySchema is the schema of a tool without an outputSchema: any value,
// still read by the one exact parse.
var anySchema = json.RawMessage(`{}`)

// textJSON returns the text of a result's only text block when it is a
// JSON object, else nil.
func textJSON(res *mcp.CallToolResult) json.RawMessage {
	if len(res.Content) != 1 {
		return nil
	}
	t, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		return nil
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(t.Text), &obj) != nil {
		return nil
	}
	return json.RawMessage(t.Text)
}
