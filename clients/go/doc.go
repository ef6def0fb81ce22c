// Package goclient proves the mcpgen Go client (package client) against MCP
// servers nobody here wrote: the go-sdk v1.8.0 server, the mcp-go v1.2.1
// server and the TypeScript SDK v2 server (@modelcontextprotocol/server
// 2.4.0, run on the Node 22 that clients/run.sh installs), each over stdio
// and Streamable HTTP, in the modern era and in a legacy initialize
// session. It is its own module so that go-sdk and mcp-go never enter the
// main module's dependencies; clients/run.sh runs its tests.
package goclient
