// Command client is the conformance fixture of the mcpgen Go client: the
// official suite (`conformance client`, run by conformance/run.sh --client)
// runs it with the scenario server's URL as its last argument and the
// scenario name in MCP_CONFORMANCE_SCENARIO (scenario data, if any, in
// MCP_CONFORMANCE_CONTEXT). It uses only the public client API, the way a
// host would: connect, list, call.
//
// Every scenario gets the same walk — list the tools and call each (with
// arguments made up from its inputSchema), list and read the resources,
// list and get the prompts — except the two whose checks need particular
// calls: http-custom-headers (the tool calls in the context) and
// json-schema-2020-12-preservation (echo one tool's inputSchema back).
package main

import (
	"context"
	"crypto"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/client"
	"github.com/mcpgen/mcpgen/generated/mcp"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: client <server-url> (scenario in MCP_CONFORMANCE_SCENARIO)")
		os.Exit(2)
	}
	url := os.Args[len(os.Args)-1]
	scenario := os.Getenv("MCP_CONFORMANCE_SCENARIO")
	ctx, cancel := context.WithTimeout(context.Background(), 25*time.Second)
	defer cancel()
	if err := run(ctx, url, scenario, os.Getenv("MCP_CONFORMANCE_CONTEXT")); err != nil {
		fmt.Fprintf(os.Stderr, "client: %s: %v\n", scenario, err)
		os.Exit(1)
	}
}

func run(ctx context.Context, url, scenario, scenarioContext string) error {
	t, err := transport(url, scenario, scenarioContext)
	if err != nil {
		return err
	}
	c, err := client.Connect(ctx, t, &client.Options{
		ClientInfo: mcp.Implementation{Name: "mcpgen-conformance-client", Version: "1.0.0"},
		Elicit:     acceptElicitation,
		Sample:     sample,
		Roots:      roots,
		Logger:     slog.New(slog.NewTextHandler(os.Stderr, nil)),
	})
	if err != nil {
		return err
	}
	defer c.Close()
	fmt.Printf("connected: protocol %s (legacy session: %v)\n", c.ProtocolVersion(), c.Legacy())
	if strings.HasPrefix(scenario, "auth/") {
		return authWalk(ctx, c)
	}
	switch scenario {
	case "http-custom-headers":
		return customHeaders(ctx, c, scenarioContext)
	case "json-schema-2020-12-preservation":
		return echoSchema(ctx, c)
	}
	return walk(ctx, c)
}

// redirectURL is the fixture's OAuth redirect URI. Nothing listens there:
// the scenarios' authorization servers redirect at once, and
// client.FollowRedirects stops at this prefix.
const redirectURL = "http://localhost:3030/callback"

// transport is plain Streamable HTTP, or for the auth/* scenarios the
// client's OAuth login, with what the scenario's context gives: pre-
// registered credentials, a private key for private_key_jwt, a workload
// JWT (wif-jwt-bearer), the enterprise IdP and the user's ID token
// (enterprise-managed-authorization). DPoP is asked for everywhere; only
// the dpop scenarios' authorization servers offer it.
func transport(url, scenario, scenarioContext string) (*client.HTTPTransport, error) {
	if !strings.HasPrefix(scenario, "auth/") {
		return client.HTTP(url), nil
	}
	var sc struct {
		ClientID         string `json:"client_id"`
		ClientSecret     string `json:"client_secret"`
		Issuer           string `json:"issuer"`
		PrivateKeyPEM    string `json:"private_key_pem"`
		IdPClientID      string `json:"idp_client_id"`
		IdPIDToken       string `json:"idp_id_token"`
		IdPTokenEndpoint string `json:"idp_token_endpoint"`
		WorkloadJWT      string `json:"valid_jwt"`
	}
	if scenarioContext != "" {
		if err := json.Unmarshal([]byte(scenarioContext), &sc); err != nil {
			return nil, fmt.Errorf("MCP_CONFORMANCE_CONTEXT: %w", err)
		}
	}
	o := &client.OAuth{
		RedirectURL:       redirectURL,
		Authorize:         client.FollowRedirects(http.DefaultClient, redirectURL),
		ClientID:          sc.ClientID,
		ClientSecret:      sc.ClientSecret,
		ClientIssuer:      sc.Issuer,
		ClientMetadataURL: "https://conformance-test.local/client-metadata.json",
		ClientCredentials: strings.HasPrefix(scenario, "auth/client-credentials-"),
		ClientName:        "mcpgen-conformance-client",
		DPoP:              true,
	}
	if sc.PrivateKeyPEM != "" {
		key, err := parsePrivateKey(sc.PrivateKeyPEM)
		if err != nil {
			return nil, err
		}
		o.ClientKey = key
	}
	switch {
	case sc.IdPTokenEndpoint != "":
		idToken := sc.IdPIDToken
		o.Assertion = (&client.EnterpriseIdP{
			TokenEndpoint: sc.IdPTokenEndpoint,
			ClientID:      sc.IdPClientID,
			IDToken:       func(context.Context) (string, error) { return idToken, nil },
		}).Assertion
	case sc.WorkloadJWT != "":
		jwt := sc.WorkloadJWT
		o.Assertion = func(context.Context, client.AssertionTarget) (string, error) { return jwt, nil }
	}
	return client.OAuthHTTP(url, o), nil
}

// parsePrivateKey reads a PKCS #8 PEM private key.
func parsePrivateKey(pemText string) (crypto.Signer, error) {
	block, _ := pem.Decode([]byte(pemText))
	if block == nil {
		return nil, errors.New("private_key_pem: no PEM block")
	}
	key, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("private_key_pem: %w", err)
	}
	signer, ok := key.(crypto.Signer)
	if !ok {
		return nil, fmt.Errorf("private_key_pem: a %T cannot sign", key)
	}
	return signer, nil
}

// authWalk is what the auth/* scenarios need once logged in: authorized
// requests, tools/list and a call of each tool (a call may need more
// scopes: step-up). Results are read raw: the point is the login.
func authWalk(ctx context.Context, c *client.Client) error {
	raw, err := c.Call(ctx, "tools/list", map[string]any{})
	if err != nil {
		return fmt.Errorf("tools/list: %w", err)
	}
	var list struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(raw, &list); err != nil {
		return fmt.Errorf("tools/list: %w", err)
	}
	for _, t := range list.Tools {
		if _, err := c.Call(ctx, "tools/call", map[string]any{"name": t.Name, "arguments": map[string]any{}}); err != nil {
			return fmt.Errorf("tools/call %s: %w", t.Name, err)
		}
		fmt.Printf("tools/call %s: ok\n", t.Name)
	}
	return nil
}

// walk lists and uses everything the server offers.
func walk(ctx context.Context, c *client.Client) error {
	tools, err := c.AllTools(ctx)
	if err != nil {
		return fmt.Errorf("tools/list: %w", err)
	}
	for _, t := range tools {
		args, err := json.Marshal(sampleArgs(t.InputSchema))
		if err != nil {
			return err
		}
		report("tools/call "+t.Name, callTool(ctx, c, t.Name, args))
	}
	if res, err := c.ListResources(ctx, &mcp.PaginatedRequestParams{}); err == nil {
		for _, r := range res.Resources {
			_, err := c.ReadResource(ctx, &mcp.ReadResourceRequestParams{URI: r.URI})
			report("resources/read "+r.URI, err)
		}
	} else {
		report("resources/list", err)
	}
	if res, err := c.ListPrompts(ctx, &mcp.PaginatedRequestParams{}); err == nil {
		for _, p := range res.Prompts {
			args := map[string]string{}
			for _, a := range p.Arguments {
				if a.Required != nil && *a.Required {
					args[a.Name] = "x"
				}
			}
			_, err := c.GetPrompt(ctx, &mcp.GetPromptRequestParams{Name: p.Name, Arguments: args})
			report("prompts/get "+p.Name, err)
		}
	} else {
		report("prompts/list", err)
	}
	return nil
}

func callTool(ctx context.Context, c *client.Client, name string, args json.RawMessage) error {
	out, err := c.CallTool(ctx, &mcp.CallToolRequestParams{Name: name, Arguments: args})
	if err != nil {
		return err
	}
	if res, ok := out.(*mcp.CallToolResult); ok && len(res.Content) > 0 {
		if t, ok := res.Content[0].(*mcp.TextContent); ok {
			fmt.Printf("  %s: %s\n", name, t.Text)
		}
	}
	return nil
}

func report(what string, err error) {
	if err != nil {
		fmt.Printf("%s: error: %v\n", what, err)
		return
	}
	fmt.Printf("%s: ok\n", what)
}

// customHeaders makes the tool calls the scenario lists in its context.
func customHeaders(ctx context.Context, c *client.Client, scenarioContext string) error {
	var sc struct {
		ToolCalls []struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"toolCalls"`
	}
	if err := json.Unmarshal([]byte(scenarioContext), &sc); err != nil {
		return fmt.Errorf("MCP_CONFORMANCE_CONTEXT: %w", err)
	}
	if _, err := c.AllTools(ctx); err != nil {
		return fmt.Errorf("tools/list: %w", err)
	}
	for _, call := range sc.ToolCalls {
		report("tools/call "+call.Name, callTool(ctx, c, call.Name, call.Arguments))
	}
	return nil
}

// echoSchema passes one tool's inputSchema, as the client received it, back
// through the echo tool.
func echoSchema(ctx context.Context, c *client.Client) error {
	tools, err := c.AllTools(ctx)
	if err != nil {
		return fmt.Errorf("tools/list: %w", err)
	}
	for _, t := range tools {
		if t.Name != "json_schema_2020_12_tool" {
			continue
		}
		args, err := json.Marshal(map[string]any{"schema": t.InputSchema})
		if err != nil {
			return err
		}
		return callTool(ctx, c, "json_schema_echo", args)
	}
	return errors.New("the server lists no json_schema_2020_12_tool")
}

// sampleArgs makes up arguments for a tool from its inputSchema: a value of
// the declared type for every required property.
func sampleArgs(schema json.RawMessage) map[string]any {
	var s struct {
		Properties map[string]struct {
			Type json.RawMessage `json:"type"`
			Enum []any           `json:"enum"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	_ = json.Unmarshal(schema, &s)
	args := map[string]any{}
	for _, name := range s.Required {
		p := s.Properties[name]
		if len(p.Enum) > 0 {
			args[name] = p.Enum[0]
			continue
		}
		var typ string
		_ = json.Unmarshal(p.Type, &typ)
		switch typ {
		case "number", "integer":
			args[name] = 1
		case "boolean":
			args[name] = true
		case "object":
			args[name] = map[string]any{}
		case "array":
			args[name] = []any{}
		default:
			args[name] = "x"
		}
	}
	return args
}

func acceptElicitation(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	content := map[string]mcp.ElicitResultContentValue{}
	if form, ok := req.Params.(*mcp.ElicitRequestFormParams); ok {
		for name, prop := range form.RequestedSchema.Properties {
			switch prop.(type) {
			case *mcp.BooleanSchema:
				content[name] = true
			case *mcp.NumberSchema:
				content[name] = 1
			default:
				content[name] = "x"
			}
		}
	}
	return &mcp.ElicitResult{Action: "accept", Content: content}, nil
}

func sample(ctx context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	return &mcp.CreateMessageResult{Role: "assistant", Model: "conformance-model",
		Content: &mcp.TextContent{Text: "Paris"}}, nil
}

func roots(ctx context.Context, req *mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	return &mcp.ListRootsResult{Roots: []mcp.Root{{URI: "file:///tmp", Name: "tmp"}}}, nil
}
