// A stand-in for the real module in bind tests: only the generated/mcp
// types that bound funcs may return.
module github.com/mcpgen/mcpgen

go 1.26
