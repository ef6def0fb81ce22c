// Package client is the Go client of MCP servers, protocol revision
// 2026-07-28, with a transparent fallback to legacy initialize sessions
// (2025-11-25 … 2024-11-05).
//
// Connect opens a Client over a Transport — Command (a stdio server it
// spawns), HTTP (Streamable HTTP) or InMemory (a *server.Server in the same
// process). HTTP also reaches servers of the deprecated HTTP+SSE transport
// (2024-11-05): a URL whose initialize POST is answered with an HTTP 4xx is
// opened with GET and the session runs over its event stream. The Client
// is an mcp.Caller and embeds the generated *mcp.Client, so every request
// has its typed method:
//
//	c, err := client.Connect(ctx, client.Command("./weather"), &client.Options{
//		ClientInfo: mcp.Implementation{Name: "my-host", Version: "1.0.0"},
//		Elicit: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) { … },
//	})
//	defer c.Close()
//	out, err := c.CallTool(ctx, &mcp.CallToolRequestParams{Name: "weather_current", Arguments: args})
//
// The Client does the protocol for its caller: the per-request _meta
// (protocolVersion, clientCapabilities, clientInfo), the retry with a
// mutually supported version on -32022, the era probe and legacy session,
// multi round-trip (InputRequiredResults are answered by the registered
// Elicit, Sample and Roots handlers and the request is retried, requestState
// echoed, at most MaxRounds times), progress and log notifications,
// cancellation, and on HTTP the Mcp-Method, Mcp-Name and Mcp-Param-*
// headers (tools with invalid x-mcp-header annotations are dropped from
// tools/list). CallToolAs decodes structuredContent into a Go type after
// validating it against the tool's outputSchema; Listen follows a
// subscriptions/listen stream.
//
// Bad input from a server — malformed JSON, a response with the wrong id,
// a result that fails its schema, a stream or process that stops — is an
// error naming what was wrong; every request has a timeout (Options).
package client
